"""deploy/jupyterhub/jupyterhub_config.py read the way JupyterHub reads it, without starting a hub.

What a learner's server gets (the course venv, a private home, kernels on private Unix sockets,
nothing from the hub's environment) and the refusals an instructor sees for a setting that cannot
work or a layout that would show learners the answers. The file only checks the layout of the venv
(tests/hub/test_jupyterhub.py runs a real one), so the venv here is that layout and no more.
"""

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

import dev

traitlets_config = pytest.importorskip("traitlets.config")

ROOT = Path(__file__).resolve().parents[2]
HUB = ROOT / "deploy" / "jupyterhub"
CONFIG = HUB / "jupyterhub_config.py"


def _open_folder(prefix: str) -> Path:
    """A folder under /var/tmp that every account can pass through (pytest's tmp_path is private)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/var/tmp"))
    folder.chmod(0o755)
    return folder


def _installed_venv(folder: Path) -> Path:
    """The files the config looks for in a venv with harness_lab installed by `pip install COURSE`."""
    (folder / "bin").mkdir()
    (folder / "bin" / "jupyterhub-singleuser").touch(mode=0o755)
    package = folder / "lib" / "python3.11" / "site-packages" / "harness_lab"
    package.mkdir(parents=True)
    (package / "__init__.py").touch()
    shutil.copy(ROOT / "harness_lab" / "kernel_start.py", package)
    shutil.copytree(ROOT / "harness_lab" / "ui" / "labextension", package / "ui" / "labextension")
    return folder


@pytest.fixture(scope="module")
def layout(tmp_path_factory):
    """(course, venv): a checkout only its owner can enter, and a venv everyone can."""
    course = tmp_path_factory.mktemp("private") / "harness_lab"
    for folder in ("notebooks", "exercises", "notebooks/en", "exercises/en"):
        (course / folder).mkdir(parents=True)
        for notebook in (ROOT / folder).glob("*.ipynb"):
            shutil.copy(notebook, course / folder)
    venv = _installed_venv(_open_folder("harness-lab-config-venv-"))
    yield course, venv
    shutil.rmtree(venv)


def load(monkeypatch, tmp_path, layout, **settings):
    """The Config the file builds with HARNESS_HUB_<name>=value for each setting (and no others)."""
    monkeypatch.setattr(sys, "path", list(sys.path))  # the file adds its own folder
    for name in [n for n in os.environ if n.startswith("HARNESS_HUB_")]:
        monkeypatch.delenv(name)
    course, venv = layout
    base = {"COURSE": str(course), "VENV": str(venv), "STATE": str(tmp_path / "state"), "PROXY": "/bin/true"}
    for name, value in {**base, **settings}.items():
        monkeypatch.setenv(f"HARNESS_HUB_{name}", value)
    config = traitlets_config.Config()
    namespace = {"get_config": lambda: config, "__file__": str(CONFIG), "__name__": "jupyterhub_config"}
    exec(compile(CONFIG.read_text(encoding="utf-8"), str(CONFIG), "exec"), namespace)
    return config


def test_a_learners_server_runs_the_course_venv_in_a_private_home(monkeypatch, tmp_path, layout):
    venv = layout[1]
    c = load(
        monkeypatch,
        tmp_path,
        layout,
        USERS="alice, bob",
        ADMINS="teacher",
        URL="http://127.0.0.1:9000",
        IDLE="1800",
        EXTRA_ARGS="--ServerApp.terminals_enabled=False",
    )
    assert c.JupyterHub.authenticator_class == "pam"
    assert c.Authenticator.allowed_users == {"alice", "bob"} and c.Authenticator.admin_users == {"teacher"}
    assert c.JupyterHub.bind_url == "http://127.0.0.1:9000"
    assert c.JupyterHub.spawner_class == "localprocess"
    assert c.Spawner.cmd == [str(venv / "bin" / "jupyterhub-singleuser")]
    assert c.Spawner.environment["PATH"].startswith(f"{venv / 'bin'}:")
    assert c.Spawner.env_keep == ["LANG", "LC_ALL"]  # no PYTHONPATH, no keys from the hub's shell
    assert c.Spawner.disable_user_config is True
    assert c.Spawner.notebook_dir == "~" and c.Spawner.default_url == "/lab/tree/notebooks"
    assert "--MappingKernelManager.cull_idle_timeout=1800" in c.Spawner.args
    assert "--ServerApp.shutdown_no_activity_timeout=1800" in c.Spawner.args
    assert c.Spawner.args[-1] == "--ServerApp.terminals_enabled=False"
    # the second day, as with dev.py lab: saved panels kept by the pre-save hook, restored unchanged
    assert f"--ContentsManager.pre_save_hook={dev.LAB_SAVE_HOOK}" in c.Spawner.args
    plugins = Path(
        next(a for a in c.Spawner.args if a.startswith("--LabApp.extra_labextensions_path=")).partition("=")[2]
    )
    assert plugins.is_relative_to(venv) and (plugins / "harness-lab-jupyterlab" / "package.json").is_file()
    overrides = json.loads((HUB / "lab-settings" / "overrides.json").read_text(encoding="utf-8"))
    for plugin, settings in dev.LAB_SETTINGS.items():  # saved panels, wrapped code: as with dev.py lab
        assert overrides.get(plugin) == settings, plugin
    assert callable(c.Spawner.pre_spawn_hook)
    assert c.JupyterHub.db_url == f"sqlite:///{tmp_path / 'state' / 'jupyterhub.sqlite'}"
    assert (tmp_path / "state").stat().st_mode & 0o777 == 0o700


def test_a_learners_kernels_start_as_the_course_labs_do_from_the_venvs_copy(monkeypatch, tmp_path, layout):
    """A cell run after a restart, before the setup cells, names the cell to run (tests/lessons/
    test_cells_run_out_of_order.py): the hub's kernels read the installed copy, learners cannot read the checkout."""
    venv = layout[1]
    c = load(monkeypatch, tmp_path, layout, USERS="alice")
    startup = Path(c.Spawner.environment["PYTHONSTARTUP"])
    assert startup == venv / "lib" / "python3.11" / "site-packages" / "harness_lab" / "kernel_start.py"
    assert startup.name == Path(dev.lab_environment({})["PYTHONSTARTUP"]).name
    monkeypatch.setenv("PYTHONSTARTUP", "/home/instructor/.pythonrc")  # the hub's own is not the learners'
    assert load(monkeypatch, tmp_path, layout, USERS="alice").Spawner.environment["PYTHONSTARTUP"] == str(startup)


def test_kernels_listen_on_unix_sockets_in_a_folder_of_the_learners_own(monkeypatch, tmp_path, layout):
    c = load(monkeypatch, tmp_path, layout, USERS="alice", RUNTIME="/run/course-sockets")
    assert "--KernelManager.transport=ipc" in c.Spawner.args
    where = c.Spawner.environment["JUPYTER_RUNTIME_DIR"]
    assert where(SimpleNamespace(user=SimpleNamespace(name="alice"))) == "/run/course-sockets/alice"
    c = load(monkeypatch, tmp_path, layout, USERS="alice")
    assert c.Spawner.environment["JUPYTER_RUNTIME_DIR"](SimpleNamespace(user=SimpleNamespace(name="bob"))) == (
        "/run/harness-lab/bob"
    )


def test_a_unix_group_or_a_shared_password_also_let_learners_in(monkeypatch, tmp_path, layout):
    c = load(monkeypatch, tmp_path, layout, GROUP="learners")
    assert c.PAMAuthenticator.allowed_groups == {"learners"}
    c = load(monkeypatch, tmp_path, layout, AUTH="shared-password", PASSWORD="kyou-no-aikotoba", USERS="alice")
    assert c.JupyterHub.authenticator_class == "shared-password"
    assert c.SharedPasswordAuthenticator.user_password == "kyou-no-aikotoba"


@pytest.mark.parametrize(
    "settings, says",
    [
        ({}, "nobody could log in"),
        ({"USERS": "alice", "AUTH": "github"}, "use pam or shared-password"),
        ({"USERS": "alice", "AUTH": "shared-password"}, "HARNESS_HUB_PASSWORD is not set"),
        ({"AUTH": "shared-password", "PASSWORD": "kyou-no-aikotoba", "GROUP": "learners"}, "pam only"),
        ({"USERS": "alice", "VENV": "/nonexistent/venv"}, "pip install jupyterhub jupyterlab"),
        ({"USERS": "alice", "COURSE": "/nonexistent/course"}, "HARNESS_HUB_COURSE"),
        ({"USERS": "alice", "EDITION": "english"}, "HARNESS_HUB_EDITION='english' .*: use ja, en or both"),
    ],
)
def test_a_setting_that_cannot_work_stops_the_hub_with_the_reason(monkeypatch, tmp_path, layout, settings, says):
    with pytest.raises(SystemExit, match=says):
        load(monkeypatch, tmp_path, layout, **settings)


@pytest.mark.parametrize(
    "edition, opens",
    [("ja", "/lab/tree/notebooks"), ("en", "/lab/tree/notebooks/en"), ("both", "/lab/tree/notebooks")],
)
def test_a_learner_opens_on_the_lessons_of_the_class_edition(monkeypatch, tmp_path, layout, edition, opens):
    c = load(monkeypatch, tmp_path, layout, USERS="alice", EDITION=edition)
    assert c.Spawner.default_url == opens


@pytest.mark.parametrize("edition, speaks", [("ja", "ja"), ("en", "en"), ("both", None)])
def test_a_learners_own_notebooks_speak_the_class_language(monkeypatch, tmp_path, layout, edition, speaks):
    """A new notebook of a learner's own, or harness-lab in a terminal: nothing in it chooses a language."""
    c = load(monkeypatch, tmp_path, layout, USERS="alice", EDITION=edition)
    assert c.Spawner.environment.get("HARNESS_LAB_LANG") == speaks


def _open_course(layout) -> Path:
    course = _open_folder("harness-lab-open-course-")
    shutil.copytree(layout[0], course, dirs_exist_ok=True)
    return course


def _editable_venv(layout) -> Path:
    """What `pip install -e COURSE` leaves: a link to the checkout, and no copy of the package."""
    venv = _open_folder("harness-lab-editable-venv-")
    shutil.copytree(layout[1], venv, dirs_exist_ok=True)
    shutil.rmtree(venv / "lib" / "python3.11" / "site-packages" / "harness_lab")
    (venv / "lib" / "python3.11" / "site-packages" / "__editable__.harness_lab-0.1.0.pth").write_text(
        "/opt/harness_lab\n"
    )
    return venv


def _venv_inside_the_course(layout) -> Path:
    """The former guide's layout, COURSE/.venv, once the checkout is closed to learners."""
    return _installed_venv(Path(tempfile.mkdtemp(dir=layout[0])))


@pytest.mark.parametrize(
    "make, setting, says",
    [
        (_open_course, "COURSE", r"learners can enter .*exercises/solutions/.*chmod 700"),
        (_editable_venv, "VENV", r"installed copy of harness_lab, not a link to a checkout .*bin/pip install"),
        (lambda layout: Path(sys.prefix), "VENV", r"installed copy of harness_lab, not a link to a checkout"),
        (_venv_inside_the_course, "VENV", r"learners cannot reach .*make it outside the checkout"),
    ],
    ids=["a checkout learners can enter", "an editable venv", "this project's own venv", "a venv inside the checkout"],
)
def test_a_layout_that_shows_learners_the_answers_stops_the_hub(monkeypatch, tmp_path, layout, make, setting, says):
    made = make(layout)
    try:
        with pytest.raises(SystemExit, match=says):
            load(monkeypatch, tmp_path, layout, **{setting: str(made)})
    finally:
        if made != Path(sys.prefix):
            shutil.rmtree(made)


def test_a_venv_older_than_the_checkout_stops_the_hub_naming_the_reinstall(monkeypatch, tmp_path, layout):
    """Its copy of harness_lab was installed before the checkout's last `git pull`: no kernel_start.py."""
    venv = _open_folder("harness-lab-older-venv-")
    try:
        shutil.copytree(layout[1], venv, dirs_exist_ok=True)
        (venv / "lib" / "python3.11" / "site-packages" / "harness_lab" / "kernel_start.py").unlink()
        with pytest.raises(SystemExit, match=rf"older harness_lab than .*`{venv}/bin/pip install "):
            load(monkeypatch, tmp_path, layout, USERS="alice", VENV=str(venv))
    finally:
        shutil.rmtree(venv)
