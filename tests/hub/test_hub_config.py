"""deploy/jupyterhub/jupyterhub_config.py read the way JupyterHub reads it, without starting a hub.

What a learner's server gets (the course venv, a private home, nothing from the hub's environment)
and the refusals an instructor sees for a setting that cannot work.
"""

import os
import sys
from pathlib import Path

import pytest

traitlets_config = pytest.importorskip("traitlets.config")

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
VENV = Path(sys.prefix)


def load(monkeypatch, tmp_path, **settings):
    """The Config the file builds with HARNESS_HUB_<name>=value for each setting (and no others)."""
    monkeypatch.setattr(sys, "path", list(sys.path))  # the file adds its own folder
    for name in [n for n in os.environ if n.startswith("HARNESS_HUB_")]:
        monkeypatch.delenv(name)
    base = {"VENV": str(VENV), "STATE": str(tmp_path / "state"), "PROXY": "/bin/true"}
    for name, value in {**base, **settings}.items():
        monkeypatch.setenv(f"HARNESS_HUB_{name}", value)
    config = traitlets_config.Config()
    namespace = {"get_config": lambda: config, "__file__": str(CONFIG), "__name__": "jupyterhub_config"}
    exec(compile(CONFIG.read_text(encoding="utf-8"), str(CONFIG), "exec"), namespace)
    return config


@pytest.fixture(autouse=True)
def _venv_has_the_hub():
    if not (VENV / "bin" / "jupyterhub-singleuser").exists():
        pytest.skip("jupyterhub is not installed in this venv (it is in the [test] extra)")


def test_a_learners_server_runs_the_course_venv_in_a_private_home(monkeypatch, tmp_path):
    c = load(
        monkeypatch,
        tmp_path,
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
    assert c.Spawner.cmd == [str(VENV / "bin" / "jupyterhub-singleuser")]
    assert c.Spawner.environment["PATH"].startswith(f"{VENV / 'bin'}:")
    assert c.Spawner.env_keep == ["LANG", "LC_ALL"]  # no PYTHONPATH, no keys from the hub's shell
    assert c.Spawner.disable_user_config is True
    assert c.Spawner.notebook_dir == "~" and c.Spawner.default_url == "/lab/tree/notebooks"
    assert "--MappingKernelManager.cull_idle_timeout=1800" in c.Spawner.args
    assert "--ServerApp.shutdown_no_activity_timeout=1800" in c.Spawner.args
    assert c.Spawner.args[-1] == "--ServerApp.terminals_enabled=False"
    assert callable(c.Spawner.pre_spawn_hook)
    assert c.JupyterHub.db_url == f"sqlite:///{tmp_path / 'state' / 'jupyterhub.sqlite'}"
    assert (tmp_path / "state").stat().st_mode & 0o777 == 0o700


def test_a_unix_group_or_a_shared_password_also_let_learners_in(monkeypatch, tmp_path):
    c = load(monkeypatch, tmp_path, GROUP="learners")
    assert c.PAMAuthenticator.allowed_groups == {"learners"}
    c = load(monkeypatch, tmp_path, AUTH="shared-password", PASSWORD="kyou-no-aikotoba", USERS="alice")
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
    ],
)
def test_a_setting_that_cannot_work_stops_the_hub_with_the_reason(monkeypatch, tmp_path, settings, says):
    with pytest.raises((SystemExit, FileNotFoundError), match=says):
        load(monkeypatch, tmp_path, **settings)
