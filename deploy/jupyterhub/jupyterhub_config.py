"""JupyterHub for the harness_lab course on one Linux server (docs/classroom.md).

Run as root (each learner's server is started as that learner's Unix account), from a checkout
only root can enter, with the course installed (not -e) into a venv beside it:

    HARNESS_HUB_USERS=alice,bob /opt/harness_lab-venv/bin/jupyterhub -f /opt/harness_lab/deploy/jupyterhub/jupyterhub_config.py

Every setting comes from an environment variable, so tests/hub/test_jupyterhub.py and a real
instructor start the same file:

    HARNESS_HUB_COURSE       harness_lab checkout whose notebooks/ and exercises/ each learner gets;
                             only root may enter it (default: the checkout this file is in)
    HARNESS_HUB_EDITION      the class's edition of the course: ja (default), en or both; each learner
                             gets its notebooks (the English ones in notebooks/en/, exercises/en/), and
                             with ja or en, HARNESS_LAB_LANG in their server and kernels
    HARNESS_HUB_VENV         venv with an installed copy of harness_lab, jupyterlab and jupyterhub,
                             readable by every learner; it runs their servers and kernels
                             (default: COURSE-venv, beside the checkout)
    HARNESS_HUB_RUNTIME      folder of the learners' private runtime folders, where their kernels'
                             sockets and keys live (default /run/harness-lab)
    HARNESS_HUB_URL          where learners connect (default http://:8000, every interface)
    HARNESS_HUB_STATE        hub database, cookie secret and proxy pid file (default /srv/jupyterhub)
    HARNESS_HUB_PROXY        configurable-http-proxy executable (default: COURSE/build/hub-node's, else PATH)
    HARNESS_HUB_HUB_PORT     internal port of the hub's API on 127.0.0.1 (default 8081)
    HARNESS_HUB_PROXY_API_PORT  internal port of the proxy's API on 127.0.0.1 (default 8001)
    HARNESS_HUB_AUTH         pam (Unix passwords, the default) or shared-password
    HARNESS_HUB_PASSWORD     the password for shared-password (8 characters or more)
    HARNESS_HUB_USERS        comma-separated learners allowed in (or HARNESS_HUB_GROUP with pam)
    HARNESS_HUB_GROUP        a Unix group whose members may log in (pam only)
    HARNESS_HUB_ADMINS       comma-separated instructors: they see the admin page and everyone's server
    HARNESS_HUB_IDLE         seconds before an idle kernel, then an idle server, is shut down (default 3600)
    HARNESS_HUB_EXTRA_ARGS   extra options for every learner's server, shell-quoted
"""

import os
import shlex
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from course_files import course_notebooks, give_course  # noqa: E402
from course_privacy import problems  # noqa: E402
from kernel_sockets import runtime_folder  # noqa: E402

c = get_config()  # noqa: F821 (JupyterHub defines it when it loads this file)


def setting(name, default=None):
    value = os.environ.get(f"HARNESS_HUB_{name}", "").strip()
    return value or default


def names(name):
    return {n.strip() for n in (setting(name) or "").split(",") if n.strip()}


def fail(message):
    raise SystemExit(f"jupyterhub_config.py: {message}")


COURSE = Path(setting("COURSE", HERE.parents[1])).resolve()
VENV = Path(setting("VENV", f"{COURSE}-venv"))
STATE = Path(setting("STATE", "/srv/jupyterhub"))
RUNTIME = Path(setting("RUNTIME", "/run/harness-lab"))
SINGLEUSER = VENV / "bin" / "jupyterhub-singleuser"
if not SINGLEUSER.exists():
    fail(
        f"{SINGLEUSER} is missing: make the course venv with `/usr/bin/python3 -m venv {VENV}` and "
        f"`{VENV}/bin/pip install jupyterhub jupyterlab {COURSE}`"
    )
EDITION = setting("EDITION", "ja")
try:  # fails now, with the reason, rather than at a learner's first login
    course_notebooks(COURSE, EDITION)
except ValueError as error:
    fail(f"HARNESS_HUB_EDITION={error}")
except FileNotFoundError as error:
    fail(str(error))
if found := problems(COURSE, VENV):  # learners would read the answers, or could not start at all
    fail("\n".join(found))
# Run by every learner's kernel before its first cell, as dev.py lab's kernels do: a cell run after a
# restart, before the setup cells, names the cell to run. The venv's installed copy, which learners can read.
KERNEL_START = next(VENV.glob("lib/python3*/site-packages/harness_lab/kernel_start.py"), None)
if KERNEL_START is None:
    fail(f"{VENV} holds an older harness_lab than {COURSE} (no kernel_start.py): `{VENV}/bin/pip install {COURSE}`")
STATE.mkdir(mode=0o700, parents=True, exist_ok=True)

# --- network: learners reach the proxy; the hub and the proxy's API stay on the loopback -------------
c.JupyterHub.bind_url = setting("URL", "http://:8000")
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{setting('HUB_PORT', '8081')}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{setting('PROXY_API_PORT', '8001')}"
local_proxy = COURSE / "build" / "hub-node" / "node_modules" / ".bin" / "configurable-http-proxy"
proxy = setting("PROXY") or (str(local_proxy) if local_proxy.exists() else shutil.which("configurable-http-proxy"))
if not proxy:
    fail(
        "configurable-http-proxy not found: `npm install --prefix build/hub-node configurable-http-proxy@5` "
        "in the checkout, or set HARNESS_HUB_PROXY"
    )
c.ConfigurableHTTPProxy.command = [proxy]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")

# --- who may log in ---------------------------------------------------------------------------------
auth = setting("AUTH", "pam")
users, group, admins = names("USERS"), setting("GROUP"), names("ADMINS")
if auth == "pam":
    c.JupyterHub.authenticator_class = "pam"
    if group:
        c.PAMAuthenticator.allowed_groups = {group}
elif auth == "shared-password":
    # Anyone with the password can log in as any allowed learner: a workshop, not a graded class.
    c.JupyterHub.authenticator_class = "shared-password"
    c.SharedPasswordAuthenticator.user_password = setting("PASSWORD") or fail("HARNESS_HUB_PASSWORD is not set")
    if group:
        fail("HARNESS_HUB_GROUP works with pam only; list the learners in HARNESS_HUB_USERS")
else:
    fail(f"HARNESS_HUB_AUTH={auth!r}: use pam or shared-password (OAuth, LDAP, LTI: docs/classroom.md)")
if not (users or group):
    fail("nobody could log in: set HARNESS_HUB_USERS (comma-separated) or HARNESS_HUB_GROUP")
c.Authenticator.allowed_users = users
c.Authenticator.admin_users = admins

# --- each learner's server: the course venv, their own home, their own copy of the notebooks -------
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [str(SINGLEUSER)]
# Only what the course needs reaches a learner: never the hub's own environment (API keys, tokens).
c.Spawner.env_keep = ["LANG", "LC_ALL"]
c.Spawner.environment = {
    "PATH": f"{VENV / 'bin'}:/usr/local/bin:/usr/bin:/bin",
    # Connection files, their keys and the kernels' sockets: in a folder only the learner can enter.
    "JUPYTER_RUNTIME_DIR": lambda spawner: str(RUNTIME / spawner.user.name),
    # Kernels and terminals inherit it; a plain python in a terminal starts as usual (kernel_start.py).
    "PYTHONSTARTUP": str(KERNEL_START),
}
if EDITION != "both":
    # A learner's own new notebook, or harness-lab in a terminal, speaks the class's language too (the
    # course's notebooks each choose their edition's in their setup cell, whatever this says).
    c.Spawner.environment["HARNESS_LAB_LANG"] = EDITION
# A learner's ~/.jupyter or own kernelspec cannot replace the course kernel (the venv's python3).
c.Spawner.disable_user_config = True
c.Spawner.notebook_dir = "~"
# An English class opens on its own lessons; a bilingual one on the Japanese, beside their en/ folder.
c.Spawner.default_url = "/lab/tree/notebooks/en" if EDITION == "en" else "/lab/tree/notebooks"
c.Spawner.http_timeout = 60  # forty first logins at nine o'clock share the same cores
idle = int(setting("IDLE", "3600"))
# A learner's second day finds every panel as it was left (docs/frontends.md): lab-settings turns on
# saving widget state, the pre-save hook keeps the panels a reopened notebook shows, and the plugin
# keeps a merely reopened notebook from being marked changed. The venv's installed copy of the plugin
# (learners can read the venv; the checkout may be private), else the checkout's.
PLUGINS = next(
    VENV.glob("lib/python3*/site-packages/harness_lab/ui/labextension"), COURSE / "harness_lab" / "ui" / "labextension"
)
c.Spawner.args = [
    "--ContentsManager.pre_save_hook=harness_lab.ui.saved_state.keep_widget_state",
    f"--LabApp.extra_labextensions_path={PLUGINS}",
    # No outbound calls and no news or update pop-ups in a learner's JupyterLab.
    "--LabApp.news_url=None",
    "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate",
    f"--LabApp.app_settings_dir={HERE / 'lab-settings'}",
    # Unix sockets in JUPYTER_RUNTIME_DIR instead of TCP ports any account can connect to (kernel_sockets.py).
    "--KernelManager.transport=ipc",
    f"--MappingKernelManager.cull_idle_timeout={idle}",
    "--MappingKernelManager.cull_interval=300",
    f"--ServerApp.shutdown_no_activity_timeout={idle}",
    *shlex.split(setting("EXTRA_ARGS", "")),
]


def prepare_learner(spawner):
    runtime_folder(spawner.user.name, RUNTIME)
    copied, refused = give_course(spawner.user.name, COURSE, EDITION)
    if copied:
        spawner.log.info("harness_lab: gave %s %s", spawner.user.name, ", ".join(copied))
    if refused:
        spawner.log.warning(
            "harness_lab: %s's %s is not a plain folder; left as it is", spawner.user.name, ", ".join(refused)
        )


c.Spawner.pre_spawn_hook = prepare_learner
