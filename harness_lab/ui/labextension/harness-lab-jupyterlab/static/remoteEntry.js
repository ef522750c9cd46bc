// harness_lab's JupyterLab plugins, served by `python3 dev.py lab` and the classroom hub
// (dev.lab_arguments, deploy/jupyterhub/jupyterhub_config.py). Both serve the learner's second day.
//
// Written by hand as the module container JupyterLab loads federated extensions from (the same
// `init` / `get` pair a webpack build emits), so the course needs no Node.js to build or install it.
(function () {
  "use strict";

  // 1. A reopened notebook is not marked changed. With "save widget state" on, jupyterlab_widgets
  // marks the notebook changed whenever it registers a widget model, and restoring the panels a
  // notebook saved registers every one of them: a notebook opened and left untouched was marked
  // changed and autosaved. The mark now stands only when something happened that the file should
  // record: a change to the document itself (typing, outputs, cells, metadata: any change to the
  // notebook's shared document beside its "dirty" flag), or a new widget from the kernel (a
  // comm_open, as when a button press adds a fork). Restoring what the file holds is neither.
  function keepCleanOnReopen(context) {
    const model = context.model;
    const ydoc = model.sharedModel.ydoc;
    const flags = ydoc.getMap("state"); // where the "dirty" flag itself lives
    let earned = false; // something since the notebook was last clean that a save should keep
    let saving = false; // a save has taken its copy of the notebook and not finished yet
    let missed = false; // a change made while saving: the file lacks it
    ydoc.on("afterTransaction", (transaction) => {
      for (const changed of transaction.changed.keys()) {
        if (changed === flags) continue;
        earned = true;
        if (saving) missed = true;
      }
    });
    // JupyterLab copies the notebook as a save starts and marks it clean when the save ends, even
    // if the learner typed on meanwhile; those keystrokes were then in no file and no autosave came
    // for them. A change made during a save marks the notebook changed again once it is done.
    context.saveState.connect((_, state) => {
      if (state === "started") {
        // The copy is taken right after this signal, so what its handlers write (the widget state
        // jupyterlab_widgets puts in the metadata) is in the file: count changes from the next tick.
        Promise.resolve().then(() => {
          saving = true;
          missed = false;
        });
        return;
      }
      saving = false;
      if (state === "completed" && missed) {
        earned = true; // before the mark: the check below must not take it back
        model.dirty = true;
      }
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
    context.ready.then(() => {
      earned = false; // loading the file is not a change
    });
    model.stateChanged.connect((_, change) => {
      if (change.name !== "dirty") return;
      if (!change.newValue) {
        earned = false;
        return;
      }
      // An edit sets the flag inside its own transaction, whose changes are only reported once
      // this handler has returned: decide on the next turn of the event loop.
      setTimeout(() => {
        if (model.dirty && !earned) model.dirty = false;
      });
    });
  }

  // 2. A panel drawn before the notebook got a new kernel is dead: its widgets talk to the kernel
  // that is gone. ipywidgets marks views disconnected after a restart, not when a kernel is shut
  // down and another started in the same tab (the kernel picker), so the panels looked live and
  // their buttons did nothing. Each panel on the page at that moment gets the class the Stepper's
  // style sheet greys (harness_lab/ui/panel_style.py); one drawn by running a cell again is new.
  function markOrphanedPanels(panel, context) {
    const session = context.sessionContext;
    let last = session.session && session.session.kernel ? session.session.kernel.id : null;
    session.kernelChanged.connect((_, change) => {
      const kernel = change.newValue;
      if (!kernel) return; // shut down: the grey comes from the kernel indicator until a new one starts
      if (last !== null && kernel.id !== last) {
        panel.node.querySelectorAll(".hl-stepper").forEach((node) => node.classList.add("hl-orphan"));
      }
      last = kernel.id;
    });
  }

  // 3. A saved widget is drawn once its model is restored, even when that came a moment late. The
  // widget renderer (jupyterlab_widgets 3.0) asks the widget manager for an output's model and, if
  // it is missing, polls for two seconds; when that runs out it writes "model not found" if the
  // manager's restore of the saved state has finished, or waits for the end of the restore to draw
  // again. On a reopen the restore (a new kernel's start, then the saved models) can finish after
  // the poll's last look but before its end: the renderer then sees "restored", missed the restored
  // signal, and writes "model not found" for a model the manager now holds. Drawing such an output
  // again finds it. A restore can also say "restored" too early: a kernel-only restore (the kernel's
  // connection coming up) ends while the notebook's saved models are still being made, and on a loaded
  // machine that takes longer than the renderer's two seconds, so the drawing again fails too. The
  // output is then left with the renderer as one to draw on the manager's next "restored", which the
  // notebook's own restore sends when it ends, and drawn again after a wait that doubles each time
  // (a notebook of many panels on a machine at full load made its last models more than ten seconds
  // after "restored": three tries in a row, two seconds each, gave up on them). At most TRIES, under
  // a minute in all: a model really missing from the file stays missing, without a loop.
  const NOT_FOUND = "Error displaying widget: model not found";
  const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";
  const TRIES = 8;
  function redrawLateWidgets(panel) {
    const tries = new WeakMap(); // renderer -> times drawn again
    const waiting = new WeakSet(); // renderers with a redraw to come
    const drawAgain = (renderer, output) => {
      waiting.delete(renderer);
      if (renderer.isDisposed || renderer.node.textContent !== NOT_FOUND) return; // drawn, or its cell run again
      tries.set(renderer, (tries.get(renderer) || 0) + 1);
      // The renderer's own slot for an output waiting on a restore (jupyterlab_widgets 3.0's
      // WidgetRenderer): drawing it succeeds and empties it, or fails and keeps it for "restored".
      renderer._rerenderMimeModel = output;
      renderer.removeClass("jupyter-widgets"); // the error's style; a drawn widget sets its own
      renderer.renderModel(output); // the output is read, not changed: the notebook stays clean
    };
    const redraw = () => {
      for (const cell of panel.content.widgets) {
        const area = cell.outputArea;
        if (!area || !area.model) continue; // a markdown or raw cell
        area.widgets.forEach((child, index) => {
          const output = area.model.get(index);
          if (!output || !output.data || !output.data[WIDGET_VIEW] || !child.widgets) return;
          for (const renderer of child.widgets) {
            const done = tries.get(renderer) || 0;
            if (done >= TRIES || waiting.has(renderer) || renderer.node.textContent !== NOT_FOUND) continue;
            waiting.add(renderer);
            setTimeout(() => drawAgain(renderer, output), Math.min(250 * 2 ** done, 8000));
          }
        });
      }
    };
    let pending = false;
    // The renderer writes the message as its node's only text: look at added text, never at a whole
    // node's text (a notebook of panels changes often and holds a lot of it).
    const saysNotFound = (record) =>
      Array.prototype.some.call(record.addedNodes, (node) => node.nodeType === Node.TEXT_NODE && node.data === NOT_FOUND);
    const observer = new MutationObserver((records) => {
      if (pending || !records.some(saysNotFound)) return;
      pending = true; // one pass for a burst of changes
      Promise.resolve().then(() => {
        pending = false;
        redraw();
      });
    });
    observer.observe(panel.content.node, { childList: true, subtree: true });
    panel.disposed.connect(() => observer.disconnect());
  }

  // 4. Printed output wraps between words. JupyterLab sets `word-break: break-all` on a text output's
  // <pre>, so a long line broke at whatever letter reached the edge: a grade report's hint, which
  // shares its criterion's line, showed `ANSWERS["ste` / `p"]` and `tool_re` / `sult`, and a check's
  // line `RefusalStopDetails(c` / `ategory`. Identifiers are what a learner must type back. Lines now
  // break at spaces and between Japanese characters, as anywhere else, and only a word longer than the
  // line (a hash, a long URL) is cut. The printed text, what a file stores and what the graders read,
  // is unchanged: this is how the page draws it.
  const WRAP_BETWEEN_WORDS = ".jp-OutputArea-output.jp-RenderedText pre { word-break: normal; overflow-wrap: anywhere; }";
  function wrapBetweenWords() {
    const style = document.createElement("style");
    style.id = "harness-lab-output-wrap";
    style.textContent = WRAP_BETWEEN_WORDS;
    document.head.appendChild(style);
  }

  // 5. A widget drawn in a cell before the cell was first shown takes clicks. JupyterLab (4.6, whose
  // default windowing is "contentVisibility") makes each cell as a placeholder and builds its parts
  // (input, output area) only in the cell's own "before-attach" handler. Lumino sends that message to
  // a widget's children before the handler runs, and the cell's parts did not exist yet; it then sends
  // "after-attach" to them all. So the parts, and every widget already drawn in the output area, are
  // marked attached without ever getting "before-attach", where a Lumino TabBar adds its pointer and
  // key listeners: an ipywidgets Tab drawn that way ignored every click. On a reopen the saved panels
  // are drawn while the cells below the first screen still wait for idle time (a slow page: minutes),
  // so their tabs were dead. Each part the handler adds gets the message it missed, before the cell
  // goes into the page and before "after-attach", in the order Lumino would have sent them.
  function attachPartsOnFirstShow(cell) {
    const build = cell.onBeforeAttach;
    cell.onBeforeAttach = function (msg) {
      const had = new Set(this.layout.widgets); // these got the message from the layout already
      build.call(this, msg);
      for (const part of this.layout.widgets) if (!had.has(part)) part.processMessage(msg);
    };
    return cell;
  }
  function attachCellParts(panel) {
    // Cells a notebook made before this plugin saw it (a second view of an open notebook).
    panel.content.widgets.forEach((cell) => cell.isPlaceholder() && attachPartsOnFirstShow(cell));
    const factory = panel.content.contentFactory;
    if (factory.harnessLabAttachesParts) return; // one factory makes the cells of every notebook
    factory.harnessLabAttachesParts = true;
    for (const name of ["createCodeCell", "createMarkdownCell", "createRawCell"]) {
      const create = factory[name];
      factory[name] = (...args) => attachPartsOnFirstShow(create.apply(factory, args));
    }
  }

  const plugin = {
    id: "harness-lab-jupyterlab:panels",
    description: "Keeps a reopened course notebook unchanged, saves what is typed during a save, greys panels no kernel is behind, draws saved widgets restored late, wraps printed output between words, lets widgets drawn before their cell was shown take clicks.",
    autoStart: true,
    activate(app) {
      wrapBetweenWords();
      app.docRegistry.addWidgetExtension("Notebook", {
        createNew(panel, context) {
          keepCleanOnReopen(context);
          markOrphanedPanels(panel, context);
          redrawLateWidgets(panel);
          attachCellParts(panel);
        },
      });
    },
  };

  const containers = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  containers["harness-lab-jupyterlab"] = {
    init: () => Promise.resolve(),
    get: (module) =>
      module === "./extension"
        ? Promise.resolve(() => ({ __esModule: true, default: plugin }))
        : Promise.reject(new Error(`harness-lab-jupyterlab has no module ${module}`)),
  };
})();
