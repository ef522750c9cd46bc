"""The course on a real JupyterHub: two learners, each in their own browser, run lesson 01 and a
Stepper turn (then one restarts her kernel and runs a cell further down, which names the cell to
run), and neither can read the other's files, reach the other's server or kernel, or read
the course's answers.

The hub is started from deploy/jupyterhub/jupyterhub_config.py, the file an instructor uses, with
PAM logins for two throwaway Unix accounts, LocalProcessSpawner, and configurable-http-proxy from
npm (installed into build/hub-node/). Needs root, useradd and Debian's Chromium; skipped, with the
reason printed, without them or when npm cannot install the proxy. Every process it starts (hub,
proxy, single-user servers, kernels, browsers) is listed at the end and must be gone.

HARNESS_HUB_TEST_FRESH_VENV=1 makes it build the course venv with pip, as an instructor does, which
it otherwise does only when learners cannot run the project's venv (see hub_venv.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import hub_accounts
import hub_browser
import hub_venv
import pytest
from hub_processes import Watch, listening, rss_mib, table

from harness_lab.text import CATALOG

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "jupyterhub"
NODE_PREFIX = ROOT / "build" / "hub-node"
PROXY = NODE_PREFIX / "node_modules" / ".bin" / "configurable-http-proxy"
PROXY_PACKAGE = "configurable-http-proxy@5"
CHROMIUM = "/usr/bin/chromium"
BROWSER_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LEARNERS = ("hltest-alice", "hltest-bob")
# Set in the hub's own environment; none may reach a learner's server or kernel. JupyterHub's
# default env_keep passes PYTHONPATH on; an instructor's exported API key must never travel.
CANARIES = {"PYTHONPATH": "/nonexistent/hub-canary", "ANTHROPIC_API_KEY": "hub-canary-not-a-key"}
LESSON = "notebooks/01_bare_loop.ipynb"
PROBES = (Path(__file__).parent / "learner_probes.py").read_text(encoding="utf-8")


def _load_course_files():
    spec = importlib.util.spec_from_file_location("course_files", DEPLOY / "course_files.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _say(capsys, message: str) -> None:
    """Print past pytest's capture, so CI logs show skip reasons and figures even with -q."""
    with capsys.disabled():
        print(f"\n[hub test] {message}", flush=True)


def _skip(capsys, reason: str):
    _say(capsys, f"SKIPPED: {reason}")
    pytest.skip(reason)


def _free_ports(n: int) -> list[int]:
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _install_proxy(capsys) -> Path:
    if PROXY.exists():
        return PROXY
    npm = shutil.which("npm")
    if not npm:
        _skip(capsys, "npm is missing, so configurable-http-proxy cannot be installed (apt-get install -y npm)")
    command = [
        npm,
        "install",
        "--prefix",
        str(NODE_PREFIX),
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        PROXY_PACKAGE,
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    except subprocess.TimeoutExpired:
        _skip(capsys, f"`npm install {PROXY_PACKAGE}` took more than 300 s")
    if done.returncode or not PROXY.exists():
        said = [line for line in (done.stderr or done.stdout).splitlines() if line.strip() and " at " not in line]
        _skip(capsys, f"`npm install {PROXY_PACKAGE}` failed: {' | '.join(said[:4])[:600]}")
    return PROXY


@pytest.fixture
def hub_tools(capsys):
    """Skip, saying why, unless this machine can host the hub and drive a browser."""
    if os.name != "posix" or os.geteuid() != 0:
        _skip(capsys, "needs root: the hub starts each learner's server as that Unix user")
    if missing := hub_accounts.missing_tools():
        _skip(capsys, f"missing {', '.join(missing)} (package passwd / util-linux): cannot make test learners")
    if not Path(CHROMIUM).exists():
        _skip(capsys, f"{CHROMIUM} is missing (apt-get install -y chromium; .ci/run does)")
    for module in ("jupyterhub", "playwright", "jupyterlab"):
        if importlib.util.find_spec(module) is None:
            _skip(capsys, f"{module} is not installed (it is in the [test] extra: pip install -e .[test])")
    return _install_proxy(capsys)


@pytest.fixture
def learners(hub_tools):
    """Two Unix accounts with random passwords, deleted (homes too) at the end."""
    made = {}
    try:
        for name in LEARNERS:
            made[name] = hub_accounts.create(name)
        yield made
    finally:
        for name in made:
            hub_accounts.remove(name)


@pytest.fixture
def course(tmp_path):
    """The course as it is now: other people editing the checkout cannot change it mid-test."""
    frozen = tmp_path / "course"
    for folder in ("notebooks", "exercises"):
        shutil.copytree(ROOT / folder, frozen / folder, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return frozen


@pytest.fixture
def course_venv(learners, capsys):
    """A venv outside the checkout with a copy of harness_lab installed, as the deployment asks."""
    base = Path(sys.prefix)
    why = "HARNESS_HUB_TEST_FRESH_VENV=1"
    if os.environ.get("HARNESS_HUB_TEST_FRESH_VENV") != "1":
        venv = hub_venv.installed_copy(ROOT, base)
        if (why := hub_venv.problem(venv, LEARNERS[0])) is not None:
            shutil.rmtree(venv, ignore_errors=True)
    if why is not None:
        _say(capsys, f"learners cannot use {base} ({why}): building a course venv with pip under /var/tmp")
        venv = hub_venv.build_shared(ROOT, LEARNERS[0])
        if why := hub_venv.problem(venv, LEARNERS[0]):
            shutil.rmtree(venv, ignore_errors=True)
            pytest.fail(f"the course venv {venv} does not work for a learner: {why}")
    try:
        yield venv
    finally:
        shutil.rmtree(venv, ignore_errors=True)


@pytest.fixture
def runtime():
    """HARNESS_HUB_RUNTIME: root's, open to all, like /run/harness-lab, and gone afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="harness-lab-hub-run-", dir="/var/tmp"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


class Hub:
    def __init__(self, tmp_path: Path, proxy: Path, course: Path, venv: Path, runtime: Path, watch: Watch):
        self.port, hub_port, api_port = _free_ports(3)
        self.url = f"http://127.0.0.1:{self.port}"
        self.watch = watch
        self.log = tmp_path / "hub.log"
        state = tmp_path / "hub-state"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "HARNESS_"))}
        env.update(CANARIES)
        env.update(
            HARNESS_HUB_COURSE=str(course),
            HARNESS_HUB_VENV=str(venv),
            HARNESS_HUB_STATE=str(state),
            HARNESS_HUB_RUNTIME=str(runtime),
            HARNESS_HUB_URL=self.url,
            HARNESS_HUB_HUB_PORT=str(hub_port),
            HARNESS_HUB_PROXY_API_PORT=str(api_port),
            HARNESS_HUB_PROXY=str(proxy),
            HARNESS_HUB_USERS=",".join(LEARNERS),
            HARNESS_HUB_AUTH="pam",
            # A bilingual class: each home gets notebooks/en/ and exercises/en/ too, made as root for the learner.
            HARNESS_HUB_EDITION="both",
            # The test drives JupyterLab's command registry, which only an exposed app offers.
            HARNESS_HUB_EXTRA_ARGS="--LabApp.expose_app_in_browser=True",
        )
        command = [sys.executable, "-m", "jupyterhub", "-f", str(DEPLOY / "jupyterhub_config.py")]
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(
                command,
                cwd=tmp_path,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        watch.snapshot()

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the hub exited ({self.proc.returncode}):\n{self.tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/hub/api", timeout=2) as reply:
                    if reply.status == 200:
                        self.watch.snapshot()  # the proxy is up by now
                        return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"the hub did not answer within {timeout} s:\n{self.tail()}")

    def stop(self, timeout: float = 60) -> None:
        """SIGTERM: the hub stops every learner's server (and so their kernels) and the proxy."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def tail(self, chars: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-chars:]


@pytest.fixture
def hub(tmp_path, hub_tools, learners, course, course_venv, runtime):
    uids = {pwd.getpwnam(name).pw_uid for name in learners}
    watch = Watch(uids)
    started = Hub(tmp_path, hub_tools, course, course_venv, runtime, watch)
    try:
        started.wait_ready()
        yield started
    finally:
        started.stop()
        watch.kill_all()  # the test itself asserts nothing was left; this is only the safety net


def _learner_processes(uid: int) -> tuple[list, list]:
    """(single-user servers, kernels) running as ``uid``."""
    mine = [p for p in table().values() if p.uid == uid]
    return (
        [p for p in mine if "jupyterhub-singleuser" in p.cmdline],
        [p for p in mine if "ipykernel_launcher" in p.cmdline],
    )


def _check_learner_processes(name: str, uid: int, venv: Path) -> str:
    servers, kernels = _learner_processes(uid)
    assert len(servers) == 1, f"expected one single-user server for {name}: {servers}"
    assert kernels and all(k.cmdline.startswith(str(venv / "bin" / "python")) for k in kernels), (
        f"{name}'s kernel is not the course venv's python: {[k.cmdline for k in kernels]}"
    )
    for proc in servers + kernels:
        names = {v.split(b"=")[0].decode() for v in Path(f"/proc/{proc.pid}/environ").read_bytes().split(b"\0")}
        assert not names & CANARIES.keys(), f"the hub's {names & CANARIES.keys()} reached {proc.cmdline[:80]}"
    return (
        f"single-user server RSS {rss_mib(servers[0].pid):.0f} MiB, "
        f"kernel RSS {sum(rss_mib(k.pid) for k in kernels):.0f} MiB ({len(kernels)} kernel)"
    )


def _check_hub_keeps_servers_apart(pages: dict, hub_url: str) -> None:
    """With both servers running, each learner's browser reaches their own and is refused the other's."""
    for name, other in (LEARNERS, LEARNERS[::-1]):
        request = pages[name].request
        own = request.get(f"{hub_url}/user/{name}/api/contents/notebooks")
        assert own.status == 200 and "01_bare_loop.ipynb" in own.text(), (name, own.status)
        theirs = request.get(f"{hub_url}/user/{other}/api/contents/notebooks")
        assert theirs.status == 403, f"{name} -> {other}'s server: {theirs.status} {theirs.text()[:300]}"
        assert request.get(f"{hub_url}/hub/api/users/{name}").status == 200
        assert request.get(f"{hub_url}/hub/api/users/{other}").status in (403, 404)
        shown = pages[name].goto(f"{hub_url}/user/{other}/lab")
        assert shown.status == 403 and not pages[name].locator(".jp-Notebook").count()


def _check_homes(homes: dict, uids: dict, sources: dict) -> None:
    """Each home is private and holds its learner's own copy of the course, without the solutions."""
    for name, home in homes.items():
        mode = home.stat()
        assert (stat.S_IMODE(mode.st_mode), mode.st_uid) == (0o700, uids[name]), f"{name}'s home"
        for folder, files in sources.items():
            mode = (home / folder).stat()
            assert (stat.S_IMODE(mode.st_mode), mode.st_uid) == (0o700, uids[name]), f"{name}'s {folder}"
            for src in files:
                copy = home / folder / src.name
                assert copy.stat().st_uid == uids[name], copy
                if f"{folder}/{src.name}" != LESSON:  # lesson 01 may have been autosaved with the probe
                    assert copy.read_bytes() == src.read_bytes(), copy
        assert not (home / "exercises" / "solutions").exists()
    for name, other in (LEARNERS, LEARNERS[::-1]):
        assert hub_accounts.as_user(name, "cat", str(homes[name] / LESSON)).returncode == 0
        for command in (
            ("cat", str(homes[other] / LESSON)),
            ("ls", str(homes[other])),
            ("touch", str(homes[other] / f"from-{name}")),
        ):
            done = hub_accounts.as_user(name, *command)
            assert done.returncode != 0 and "Permission denied" in done.stderr, (name, command, done)


def _as_learner(name: str, venv: Path, probe: str, spec: dict) -> dict:
    done = hub_accounts.as_user(name, str(venv / "bin" / "python"), "-I", "-c", PROBES, probe, json.dumps(spec))
    assert done.returncode == 0, f"the {probe} probe failed as {name}: {done.stderr[-2000:]}"
    return json.loads(done.stdout)


def _kernel_channels(kernel) -> tuple[dict, list[str]]:
    """The kernel's connection file (read as root) and the endpoints of its five channels."""
    words = kernel.cmdline.split()
    info = json.loads(Path(words[words.index("-f") + 1]).read_text())
    ports = [info[f"{c}_port"] for c in ("shell", "iopub", "stdin", "control", "hb")]
    if info["transport"] == "ipc":
        return info, [f"ipc://{info['ip']}-{port}" for port in ports]
    return info, [f"tcp://127.0.0.1:{port}" for port in ports]


def _check_kernels_private(uids: dict, venv: Path, runtime: Path) -> str:
    """Each learner, as themselves, tries every socket the other's kernel and server listen on."""
    said = []
    for owner, intruder in (LEARNERS, LEARNERS[::-1]):
        servers, kernels = _learner_processes(uids[owner])
        info, channels = _kernel_channels(kernels[0])
        tcp, unix = listening(kernels[0].pid)
        server_ports, _ = listening(servers[0].pid)
        spec = {
            "tcp": sorted(tcp | {int(c.rsplit(":", 1)[1]) for c in channels if c.startswith("tcp:")}),
            "unix": sorted(unix | {c[len("ipc://") :] for c in channels if c.startswith("ipc:")}),
            "http": [[port, f"/user/{owner}/api/kernels"] for port in sorted(server_ports)],
            "listen": 0.5,
        }
        got = _as_learner(intruder, venv, "kernels", spec)
        # Every channel and every Unix socket must refuse; the one other TCP port (ipykernel's keyed,
        # receive-only pipe for forked children) may accept, but must give nothing to read.
        reached = {
            url: how
            for url, how in got["reached"].items()
            if how == "connected" and (url in channels or url.startswith("ipc://"))
        }
        assert not reached and not got["heard"], (
            f"{intruder} reached {owner}'s kernel {sorted(reached)} and read {got['heard'][:3]}"
        )
        for url, how in got["reached"].items():
            assert not url.startswith("http") or not how.startswith("HTTP 200"), f"{intruder}: {url} -> {how}"
        assert info["transport"] == "ipc", f"{owner}'s kernel listens on TCP: {channels}"
        own = runtime / owner
        assert all(c.startswith(f"ipc://{own}/") for c in channels), channels
        mode = own.stat()
        assert (mode.st_mode & 0o777, mode.st_uid) == (0o700, uids[owner]), (
            f"{own}: {oct(mode.st_mode)}, uid {mode.st_uid}"
        )
        refused = sum(how.startswith("refused") for how in got["reached"].values())
        answered = [how[:8] for url, how in got["reached"].items() if url.startswith("http")]
        said.append(
            f"{intruder} -> {owner}: {refused} of {len(spec['tcp']) + len(spec['unix'])} kernel sockets refused, "
            f"nothing read; server {', '.join(answered)}"
        )
    return "; ".join(said)


def _check_answers_hidden(name: str, venv: Path, course: Path) -> None:
    """A learner finds harness_lab where their kernel does and cannot read a solution from there."""
    solutions = sorted(p.name for p in (ROOT / "exercises" / "solutions").glob("*.ipynb"))
    got = _as_learner(name, venv, "answers", {"course": [str(course)], "solutions": solutions})
    assert not got["read"], f"{name} read the answers: {got['read']}"
    assert Path(got["package"]).is_relative_to(venv), f"{name}'s kernel imports harness_lab from {got['package']}"


def _in_page(page, name: str, hub: Hub, tmp_path: Path, action, *args):
    """``action(page, *args)``; a failure comes with a screenshot and the end of the hub's log."""
    try:
        return action(page, *args)
    except AssertionError as failure:
        shot = tmp_path / f"{name}-failure.png"
        page.screenshot(path=str(shot))
        raise AssertionError(f"{name}: {failure}\nscreenshot: {shot}\nhub log:\n{hub.tail(2500)}") from failure


def test_two_learners_share_a_hub_and_nothing_else(hub, learners, course, course_venv, runtime, tmp_path, capsys):
    from playwright.sync_api import expect, sync_playwright

    t0 = time.monotonic()
    homes = {name: Path(pwd.getpwnam(name).pw_dir) for name in learners}
    uids = {name: pwd.getpwnam(name).pw_uid for name in learners}
    alice, bob = LEARNERS
    figures = []
    with sync_playwright() as p, ExitStack() as browsers:
        pages = {}
        for name in LEARNERS:
            profile = tmp_path / f"chromium-{name}"
            profile.mkdir()  # empty: no cookies, no workspace, no extensions
            context = p.chromium.launch_persistent_context(
                str(profile),
                executable_path=CHROMIUM,
                headless=True,
                args=BROWSER_FLAGS,
                viewport={"width": 1400, "height": 1000},
            )
            browsers.callback(context.close)
            pages[name] = context.pages[0] if context.pages else context.new_page()
            pages[name].set_default_timeout(60_000)  # every wait ends: nothing here may hang the suite

        # A learner's password opens only their own account.
        hub_browser.login(pages[alice], hub.url, bob, learners[alice])
        expect(pages[alice].locator(".login_error")).to_be_visible()
        assert "/hub/login" in pages[alice].url, f"{alice}'s password logged in as {bob}: {pages[alice].url}"
        # Both log in before either works, so the hub starts the two servers side by side.
        for name in LEARNERS:
            hub_browser.login(pages[name], hub.url, name, learners[name])
        for name in LEARNERS:
            pages[name].wait_for_url(f"**/user/{name}/lab**", wait_until="commit", timeout=90_000)
            figures.append(f"{name}: logged in, server up at {time.monotonic() - t0:.1f} s")
        # Both lessons run at once, as in a class; then each learner's turn is checked.
        for name in LEARNERS:
            _in_page(
                pages[name], name, hub, tmp_path, hub_browser.start_lesson, f"{hub.url}/user/{name}/lab/tree/{LESSON}"
            )
        for name in LEARNERS:
            done = _in_page(pages[name], name, hub, tmp_path, hub_browser.finish_lesson)
            figures.append(f"{name}: {done} (at {time.monotonic() - t0:.1f} s)")
            hub.watch.snapshot()  # kernels and browsers as they run
            figures.append(f"{name}: {_check_learner_processes(name, uids[name], course_venv)}")
        # The next day: alice's kernel restarts and she runs lesson 01's `s.step()` before the setup cells.
        error = _in_page(pages[alice], alice, hub, tmp_path, hub_browser.restart_and_run, "s.step()")
        unrun = "\n".join(CATALOG["cell.unrun_above"][column].format(name="s") for column in (0, 1))
        assert error["traceback"] == [unrun], f"{alice}'s kernel, restarted, showed {error}"
        figures.append(f"{alice}: restarted, `s.step()` names the cell to run (at {time.monotonic() - t0:.1f} s)")
        hub.watch.snapshot()  # the restarted kernel
        _check_hub_keeps_servers_apart(pages, hub.url)
        figures.append(_check_kernels_private(uids, course_venv, runtime))
        hub.watch.snapshot()

    sources = _load_course_files().course_notebooks(course, "both")
    _check_homes(homes, uids, sources)
    _check_answers_hidden(alice, course_venv, course)

    # Everything this test started stops with the hub: servers, kernels, proxy; browsers are closed.
    hub.stop()
    left = hub.watch.wait_gone(timeout=15)
    assert not left, "still running after the hub stopped:\n" + "\n".join(p.line() for p in left)
    figures.append(f"{len(hub.watch.seen)} processes started and all gone; test body {time.monotonic() - t0:.1f} s")
    for line in figures:
        _say(capsys, line)
