"""Saving a notebook keeps every panel it shows (the learner's third day).

With "save widget state" on (``python3 dev.py lab`` turns it on), JupyterLab's widget manager writes
the widget models into ``metadata.widgets`` on each save, so a reopened notebook shows each Stepper
as it was left. But it writes only the models that have a live kernel connection
(jupyterlab_widgets ``get_state_sync`` keeps ``comm_live`` models; ipywidgets #3888). After a
reopen every panel comes back from that metadata, with no kernel behind it; restoring them marks
the notebook changed, so autosave soon saves it, with a state of no models at all. The next reopen
found no model for any panel ("Error displaying widget: model not found"), and what the learner
did with the buttons — typed reasons, forks, raised limits — was gone.
(The plugin in ``labextension/`` now keeps a merely reopened notebook unchanged, so autosave leaves
it alone; a save asked for by hand still goes through here.)

``keep_widget_state`` is a Jupyter server pre-save hook that closes that hole where the file is
written: every widget model an output still shows, and every model those refer to, that the new
state lacks is carried over from the file as it is on disk. Models no output shows any more (a cell
run again made new ones) are not carried, so the state never grows past what the notebook shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["HOOK", "WIDGET_STATE", "WIDGET_VIEW", "carried_state", "keep_widget_state", "shown_models"]

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
REFERENCE = "IPY_MODEL_"  # how one model's state names another (children, layout, style)
# What to give the server: --ContentsManager.pre_save_hook=<HOOK>
HOOK = f"{__name__}.keep_widget_state"


def shown_models(notebook: Mapping) -> set[str]:
    """The widget model ids the notebook's outputs display."""
    shown = set()
    for cell in notebook.get("cells") or ():
        for output in cell.get("outputs") or ():
            view = (output.get("data") or {}).get(WIDGET_VIEW)
            if isinstance(view, Mapping) and view.get("model_id"):
                shown.add(view["model_id"])
    return shown


def _references(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        if value.startswith(REFERENCE):
            yield value[len(REFERENCE) :]
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _references(item)
    elif isinstance(value, list):
        for item in value:
            yield from _references(item)


def carried_state(new: Mapping, old: Mapping, shown: Iterable[str]) -> dict:
    """The models of ``old`` (id -> saved model) that ``shown`` needs and ``new`` lacks, with the models
    they refer to, followed as far as they go."""
    carried: dict = {}
    todo = [i for i in shown if i not in new]
    while todo:
        model_id = todo.pop()
        if model_id in carried or model_id in new or model_id not in old:
            continue
        carried[model_id] = old[model_id]
        todo.extend(_references(old[model_id].get("state")))
    return carried


def _saved_models(path: Path) -> Mapping:
    """The widget models stored in the notebook file at ``path`` (none if it cannot be read)."""
    try:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        models = notebook["metadata"]["widgets"][WIDGET_STATE]["state"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return models if isinstance(models, Mapping) else {}


def keep_widget_state(model: dict, path: str, contents_manager: Any, **kwargs: Any) -> None:
    """Jupyter server pre-save hook: keep the saved models of panels the notebook still shows.

    Configure it with ``--ContentsManager.pre_save_hook=harness_lab.ui.saved_state.keep_widget_state``
    (``HOOK``). It changes only ``metadata.widgets`` of the notebook being saved, and only by adding
    models from the file it replaces.
    """
    notebook = model.get("content")
    if model.get("type") != "notebook" or not isinstance(notebook, dict):
        return
    root = Path(contents_manager.root_dir).resolve()
    target = (root / path.strip("/")).resolve()
    if not target.is_relative_to(root) or not target.is_file():
        return  # a new file has nothing saved to keep
    widgets = (notebook.get("metadata") or {}).get("widgets") or {}
    models = (widgets.get(WIDGET_STATE) or {}).get("state") or {}
    carried = carried_state(models, _saved_models(target), shown_models(notebook))
    if not carried:
        return  # nothing was dropped: the notebook is written exactly as the front end sent it
    state = notebook.setdefault("metadata", {}).setdefault("widgets", {}).setdefault(WIDGET_STATE, {})
    state.setdefault("version_major", 2)
    state.setdefault("version_minor", 0)
    state["state"] = {**models, **carried}
