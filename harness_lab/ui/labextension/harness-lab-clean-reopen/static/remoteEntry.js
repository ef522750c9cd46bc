// harness_lab's one JupyterLab plugin, served by `python3 dev.py lab` (dev.lab_arguments).
//
// With "save widget state" on, jupyterlab_widgets marks the notebook changed whenever it registers a
// widget model, and restoring the panels a notebook saved registers every one of them: a notebook
// opened and left untouched is marked changed and autosaved. This plugin lets the "changed" mark
// stand only when something happened that the file should record: the notebook's content changed, or
// the kernel made a new widget (a comm_open from the kernel, as when a button press adds a fork).
// Everything else the widget manager does on open is restoring what the file already holds.
//
// Written by hand as the module container JupyterLab loads federated extensions from (the same
// `init` / `get` pair a webpack build emits), so the course needs no Node.js to build or install it.
(function () {
  "use strict";

  function keepCleanOnReopen(panel, context) {
    const model = context.model;
    let earned = false; // something since the notebook was last clean that a save should keep
    const settle = () => {
      earned = false;
    };
    model.contentChanged.connect(() => {
      earned = true;
    });
    const listen = (kernel) => {
      if (!kernel) return;
      // anyMessage fires as a message arrives, before the widget manager handles it, so a kernel's
      // comm_open is counted before the model it opens can mark the notebook changed.
      kernel.anyMessage.connect((_, { msg, direction }) => {
        if (direction === "recv" && msg.header.msg_type === "comm_open") earned = true;
      });
    };
    listen(context.sessionContext.session && context.sessionContext.session.kernel);
    context.sessionContext.kernelChanged.connect((_, change) => listen(change.newValue));
    context.ready.then(settle);
    model.stateChanged.connect((_, change) => {
      if (change.name !== "dirty") return;
      if (!change.newValue) settle();
      else if (!earned) model.dirty = false;
    });
  }

  const plugin = {
    id: "harness-lab-clean-reopen:plugin",
    description: "Keeps a reopened course notebook unchanged while its saved panels are restored.",
    autoStart: true,
    activate(app) {
      app.docRegistry.addWidgetExtension("Notebook", { createNew: keepCleanOnReopen });
    },
  };

  const containers = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  containers["harness-lab-clean-reopen"] = {
    init: () => Promise.resolve(),
    get: (module) =>
      module === "./extension"
        ? Promise.resolve(() => ({ __esModule: true, default: plugin }))
        : Promise.reject(new Error(`harness-lab-clean-reopen has no module ${module}`)),
  };
})();
