"""Saving a reopened notebook keeps its panels (issue 31): the server's pre-save hook, without a browser.

What JupyterLab's widget manager sends on a save after a reopen: the outputs as they were, and a
widget state holding only the models with a live kernel connection (none, or only a re-run cell's).
The hook must put back, from the file on disk, every model the outputs still show and every model
those refer to, and nothing else. tests/ui/test_browser.py plays the same in JupyterLab.
"""

import copy
import json

import ipywidgets as widgets
import pytest
from jupyter_server.services.contents.filemanager import FileContentsManager

from harness_lab.ui import Stepper
from harness_lab.ui.saved_state import HOOK, WIDGET_STATE, WIDGET_VIEW, keep_widget_state, shown_models

REF = "IPY_MODEL_"


def _panel(make_run, scenario="high_impact"):
    s = Stepper(make_run(scenario), "週次レポートを sandbox/report.md に保存して")
    s.step()
    s.deny("まだ保存しないで")  # a typed reason: it lives in the panel's widget state
    return s


def _notebook(*panels):
    cells = [
        {
            "cell_type": "code",
            "execution_count": i,
            "id": f"cell-{i}",
            "metadata": {},
            "source": "s",
            "outputs": [
                {"output_type": "display_data", "metadata": {}, "data": {**p._repr_mimebundle_()}} for p in [panel]
            ],
        }
        for i, panel in enumerate(panels, start=1)
    ]
    state = widgets.Widget.get_manager_state(drop_defaults=True)  # every model in this process
    notebook = {"cells": cells, "metadata": {"widgets": {WIDGET_STATE: state}}, "nbformat": 4, "nbformat_minor": 5}
    return json.loads(json.dumps(notebook))  # as a front end sends it: plain JSON


def _references(value):
    if isinstance(value, str):
        return {value[len(REF) :]} if value.startswith(REF) else set()
    if isinstance(value, dict):
        return set().union(*map(_references, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_references, value)) if value else set()
    return set()


def _saved(tmp_path, notebook, name="day.ipynb"):
    (tmp_path / name).write_text(json.dumps(notebook), encoding="utf-8")
    return FileContentsManager(root_dir=str(tmp_path))


def _models(notebook):
    return notebook["metadata"]["widgets"][WIDGET_STATE]["state"]


def test_a_save_after_reopen_puts_back_every_model_the_outputs_show(tmp_path, make_run):
    first, second = _panel(make_run), _panel(make_run, "delete_and_post")
    gone = _panel(make_run)  # in the saved state, but no output shows it (its cell was cleared)
    on_disk = _notebook(first, second)
    assert gone.widget.model_id in _models(on_disk)
    manager = _saved(tmp_path, on_disk)
    sent = copy.deepcopy(on_disk)
    _models(sent).clear()  # what the widget manager saves when no model has a kernel behind it
    keep_widget_state({"type": "notebook", "content": sent}, "day.ipynb", manager)
    models, saved = _models(sent), _models(on_disk)
    shown = shown_models(sent)
    assert shown == {first.widget.model_id, second.widget.model_id} and shown <= set(models)
    for model_id, model in models.items():
        assert model == saved[model_id]  # as it was saved, not rebuilt
        assert _references(model["state"]) <= set(models), model_id  # every part of a panel came back
    assert first.reason.model_id in models and second.timeline.fork_button.model_id in models
    assert gone.widget.model_id not in models and gone.reason.model_id not in models  # only what outputs show


def test_a_cell_run_again_drops_its_old_models_and_keeps_the_other_cells(tmp_path, make_run):
    kept, replaced = _panel(make_run), _panel(make_run)
    manager = _saved(tmp_path, _notebook(kept, replaced))
    rerun = _panel(make_run)  # day 2: the second cell ran again and shows a new, live panel
    sent = _notebook(kept, rerun)
    live = {m: v for m, v in _models(sent).items() if m in _reachable(_models(sent), {rerun.widget.model_id})}
    _models(sent).clear()
    _models(sent).update(live)  # only the re-run panel's models are live
    keep_widget_state({"type": "notebook", "content": sent}, "day.ipynb", manager)
    models = _models(sent)
    assert kept.widget.model_id in models and rerun.widget.model_id in models
    assert replaced.widget.model_id not in models  # no output shows it any more


def _reachable(models, ids):
    seen, todo = set(), list(ids)
    while todo:
        i = todo.pop()
        if i not in seen and i in models:
            seen.add(i)
            todo += _references(models[i]["state"])
    return seen


def test_nothing_dropped_means_the_notebook_is_written_as_sent(tmp_path, make_run):
    panel = _panel(make_run)
    manager = _saved(tmp_path, _notebook(panel))
    sent = _notebook(panel)
    before = copy.deepcopy(sent)
    keep_widget_state({"type": "notebook", "content": sent}, "day.ipynb", manager)
    assert sent == before
    plain = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    keep_widget_state({"type": "notebook", "content": plain}, "day.ipynb", manager)
    assert plain["metadata"] == {}  # no widgets: no widget metadata added


@pytest.mark.parametrize("path", ["new.ipynb", "../outside.ipynb"])
def test_a_new_file_or_one_outside_the_root_has_nothing_to_keep(tmp_path, make_run, path):
    panel = _panel(make_run)
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "outside.ipynb").write_text(json.dumps(_notebook(panel)), encoding="utf-8")
    sent = _notebook(panel)
    _models(sent).clear()
    keep_widget_state({"type": "notebook", "content": sent}, path, FileContentsManager(root_dir=str(root)))
    assert _models(sent) == {}


def test_the_server_runs_it_on_save_when_configured_by_name(tmp_path, make_run):
    panel = _panel(make_run)
    on_disk = _notebook(panel)
    _saved(tmp_path, on_disk)
    manager = FileContentsManager(root_dir=str(tmp_path), pre_save_hook=HOOK)  # as dev.py lab passes it
    sent = copy.deepcopy(on_disk)
    _models(sent).clear()
    manager.save({"type": "notebook", "format": "json", "content": sent}, "day.ipynb")
    written = json.loads((tmp_path / "day.ipynb").read_text(encoding="utf-8"))
    assert panel.widget.model_id in _models(written) and panel.reason.model_id in _models(written)
    view = written["cells"][0]["outputs"][0]["data"][WIDGET_VIEW]
    assert view["model_id"] == panel.widget.model_id


def test_dev_py_lab_serves_the_course_with_this_hook_and_the_solutions_hidden(tmp_path):
    from jupyter_server.serverapp import ServerApp

    import dev

    app = ServerApp()
    app.parse_command_line(dev.lab_arguments(tmp_path))
    contents = app.config.ContentsManager
    assert contents.pre_save_hook == HOOK and app.config.ServerApp.root_dir == str(tmp_path)
    assert "solutions" in contents.hide_globs and "__pycache__" in contents.hide_globs
    # Listed as JupyterLab lists a folder: the tests' right answers and the solutions are not there.
    from jupyter_server.services.contents.filemanager import FileContentsManager

    for name in ("tests/grading/answers_level1.py", "exercises/solutions/level1.ipynb", "exercises/level1.ipynb"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}", encoding="utf-8")
    manager = FileContentsManager(root_dir=str(tmp_path), hide_globs=list(contents.hide_globs))
    listed = lambda folder: {item["name"] for item in manager.get(folder)["content"]}  # noqa: E731
    assert listed("tests/grading") == set() and listed("exercises") == {"level1.ipynb"}
