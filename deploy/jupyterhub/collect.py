"""Hand-in: copy each learner's exercise notebooks to SUBMISSIONS/<learner>/<exercise>.ipynb.

Run as root on the hub's server, through collect.sh (docs/classroom.md):

    deploy/jupyterhub/collect.sh /srv/submissions/week6 alice bob [--max-mb 8] [--seconds 10]

Root reads homes that learners control, so each notebook is read by a child process that has become
the learner (it can open nothing its owner could not) and that takes the file only if it is a
regular file reached without any symbolic link, no bigger than the size cap, within the time limit.
A link to /dev/zero, a FIFO, a sparse 100 GB file or a reader the learner stops is refused and
reported, and the collection goes on. Only the course's exercise names are collected (the
exercises/*.ipynb of this checkout, or of HARNESS_HUB_COURSE), and SUBMISSIONS mirrors the homes
at collection time: a notebook no longer handed in is removed from it too.

Either edition is collected: ~/exercises/<exercise>.ipynb (Japanese) or ~/exercises/en/<exercise>.ipynb
(English), whichever the learner has; grade-class tells the edition from the notebook itself. A learner
of a bilingual class has both: the one they worked on is taken, that is the one that is no longer the
course's copy, else the one saved last, and a line says which.
"""

from __future__ import annotations

import argparse
import errno
import os
import pwd
import select
import signal
import stat
import sys
import time
from pathlib import Path

# The same cap as `harness-lab grade-class` (grading/classroom.py): a larger notebook is not graded.
MAX_MB = 8
SECONDS = 10.0
EN = "en"  # the English edition's folder under ~/exercises (course_files.py puts it there)
KINDS = {
    stat.S_IFLNK: "a symbolic link",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFDIR: "a folder",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFREG: "a file",  # where a folder should be
}
WALK = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO, or a file someone holds a lease on, must not wait.
READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


class Refused(Exception):
    """A file not taken, and why (one line for the instructor)."""


def shown(text: str) -> str:
    """A name as one printable line: a newline or a stray byte in it is escaped, never printed."""
    return text if text.isprintable() else ascii(text)


def kind(mode: int) -> str:
    return KINDS.get(stat.S_IFMT(mode), "not a regular file")


def walk(path: str) -> int:
    """A descriptor of the folder ``path`` reached from / one name at a time, following no link."""
    fd = os.open("/", WALK)
    try:
        for name in Path(path).parts[1:]:
            try:
                step = os.open(name, WALK, dir_fd=fd)
            except OSError as error:
                raise Refused(_why(fd, name, error, folder=path)) from None
            os.close(fd)
            fd = step
    except BaseException:
        os.close(fd)
        raise
    return fd


def _why(dir_fd: int, name: str, error: OSError, folder: str = "") -> str:
    """Why ``name`` in ``dir_fd`` did not open: a missing file is not handed in, anything else refused."""
    if error.errno == errno.ENOENT:
        return "not handed in"
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except OSError:
        return f"refused: cannot be opened ({error.strerror})"
    if stat.S_ISDIR(mode) if folder else stat.S_ISREG(mode):
        return f"refused: its learner cannot open it ({error.strerror})"
    if folder:
        return f"refused: {shown(name)} on the way to {shown(folder)} is {kind(mode)}"
    return f"refused: {kind(mode)}, not a regular file"


def read_notebook(folder: str, name: str, cap: int) -> tuple[bytes, int]:
    """(bytes, mtime in ns) of folder/name, or Refused: run as the learner (the child of ``fetch``).

    ``name`` may go down folders (``en/level1_tiered_policy.ipynb``), each reached without a link.
    """
    folder_fd = walk(folder)
    try:
        *steps, name = name.split("/")
        for step in steps:
            try:
                down = os.open(step, WALK, dir_fd=folder_fd)
            except OSError as error:
                raise Refused(_why(folder_fd, step, error, folder=os.path.join(folder, step))) from None
            os.close(folder_fd)
            folder_fd = down
        try:
            fd = os.open(name, READ, dir_fd=folder_fd)
        except OSError as error:
            raise Refused(_why(folder_fd, name, error)) from None
    finally:
        os.close(folder_fd)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused(f"refused: {kind(info.st_mode)}, not a regular file")
        if info.st_size > cap:
            raise Refused(f"refused: {info.st_size:,} bytes, over the {cap >> 20} MB limit")
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(cap + 1)  # it may grow while it is read
    finally:
        os.close(fd)
    if len(data) > cap:
        raise Refused(f"refused: over the {cap >> 20} MB limit")
    return data, info.st_mtime_ns


def fetch(user: pwd.struct_passwd, folder: str, name: str, cap: int, seconds: float) -> tuple[bytes, int] | str:
    """(the notebook's bytes, its mtime), read by a child that has become ``user``; or why not (a string)."""
    deadline = time.monotonic() + seconds
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(r)
        try:
            os.setgroups(os.getgrouplist(user.pw_name, user.pw_gid))
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
            data, saved = read_notebook(folder, name, cap)
            out = b"ok %d\n" % saved + data
        except Refused as why:
            out = b"no\n" + str(why).encode(errors="backslashreplace")
        except BaseException as error:  # whatever happens is this file's report
            out = b"no\n" + f"refused: {type(error).__name__}: {error}".encode(errors="backslashreplace")
        try:
            with os.fdopen(w, "wb") as pipe:
                pipe.write(out)
        finally:
            os._exit(0)
    os.close(w)
    chunks, size = [], 0
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([r], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                return f"refused: still not read after {seconds:g} s"
            chunk = os.read(r, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > cap + 4096:
                os.kill(pid, signal.SIGKILL)
                return "refused: the reader sent more than the size cap"
    finally:
        os.close(r)
        _reap(pid)
    answer = b"".join(chunks)
    head, _, data = answer.partition(b"\n")
    if head.startswith(b"ok ") and head[3:].isdigit():
        return data, int(head[3:])
    if answer.startswith(b"no\n"):
        return answer[3:].decode(errors="backslashreplace")
    return "refused: the reader stopped before it finished (was it killed?)"


def _reap(pid: int, patience: float = 2.0) -> None:
    """Wait for a child that was told to end; one stuck in the kernel (a hung NFS read) is left behind."""
    deadline = time.monotonic() + patience
    while os.waitpid(pid, os.WNOHANG) == (0, 0) and time.monotonic() < deadline:
        time.sleep(0.01)


class Folder:
    """SUBMISSIONS/<learner>, written by root only: a copy lands whole or not at all."""

    def __init__(self, path: Path):
        path.mkdir(mode=0o700, exist_ok=True)
        self.fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)

    def put(self, name: str, data: bytes) -> None:
        part = f".{name}.part"
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600, dir_fd=self.fd)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(part, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def drop(self, name: str) -> None:
        try:
            os.unlink(name, dir_fd=self.fd)
        except FileNotFoundError:
            pass

    def close(self) -> None:
        os.close(self.fd)


def collect(submissions: Path, learners: list[str], starters: dict[str, bytes], cap: int, seconds: float) -> int:
    """Collect every learner's exercises, printing a line per problem and per learner; 1 if an account is unknown.

    ``starters``: the course's copy of each exercise by its path under ~/exercises (``en/`` for English).
    """
    status = 0
    exercises = sorted({path.rpartition("/")[2] for path in starters})
    submissions.mkdir(mode=0o700, parents=True, exist_ok=True)
    for learner in learners:
        try:
            user = pwd.getpwnam(learner)
        except (KeyError, ValueError, UnicodeError):
            print(f"{shown(learner)}: no such account", file=sys.stderr)
            status = 1
            continue
        # Above the home, the layout is the administrator's: resolve their links, then follow none.
        folder = os.path.join(os.path.realpath(user.pw_dir), "exercises")
        out = Folder(submissions / user.pw_name)
        handed = refused = 0
        try:
            for name in exercises:
                found = {path: fetch(user, folder, path, cap, seconds) for path in (name, f"{EN}/{name}")}
                got = {path: copy for path, copy in found.items() if not isinstance(copy, str)}
                reasons: dict[str, str] = {}  # a refused ~/exercises refuses both editions alike: one line
                for path, why in found.items():
                    if isinstance(why, str) and why.startswith("refused"):
                        reasons.setdefault(why, path)
                for why, path in reasons.items():
                    print(f"{user.pw_name}: {path} {why}", flush=True)
                if got:
                    out.put(name, got[_worked_on(user.pw_name, name, got, starters)][0])
                    handed += 1
                    continue
                out.drop(name)
                if reasons:
                    refused += 1
                else:
                    print(f"{user.pw_name}: {name} not handed in", flush=True)
        finally:
            out.close()
        note = f", {refused} refused" if refused else ""
        print(f"{user.pw_name}: {handed} of {len(exercises)} exercise notebooks collected{note}", flush=True)
    return status


def _worked_on(learner: str, name: str, got: dict[str, tuple[bytes, int]], starters: dict[str, bytes]) -> str:
    """Which of a learner's editions of an exercise is handed in: the one that is no longer the course's
    copy, else the one saved last (a bilingual class's learners have both, and answer in one)."""
    if len(got) == 1:
        return next(iter(got))
    changed = [path for path, (data, _) in got.items() if data != starters.get(path)]
    took = max(changed or got, key=lambda path: got[path][1])
    why = "the other is as the course gave it" if len(changed) == 1 else "saved last"
    print(f"{learner}: {name} is in both editions; collected {took} ({why})", flush=True)
    return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="collect.sh", description=__doc__.splitlines()[0])
    parser.add_argument("submissions", type=Path, metavar="SUBMISSIONS")
    parser.add_argument("learners", nargs="+", metavar="LEARNER")
    parser.add_argument("--max-mb", type=int, default=MAX_MB, help=f"size cap per notebook (default {MAX_MB})")
    parser.add_argument("--seconds", type=float, default=SECONDS, help=f"time limit per notebook (default {SECONDS:g})")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        parser.error("run as root: each notebook is read as its learner, which only root can do")
    if args.max_mb <= 0 or args.seconds <= 0:
        parser.error("--max-mb and --seconds must be positive")
    course = Path(os.environ.get("HARNESS_HUB_COURSE") or Path(__file__).resolve().parents[2]) / "exercises"
    starters = {str(p.relative_to(course)): p.read_bytes() for p in course.glob("*.ipynb")}
    if not starters:
        parser.error(f"no exercises/*.ipynb in {course.parent}: HARNESS_HUB_COURSE must name a harness_lab checkout")
    starters.update({str(p.relative_to(course)): p.read_bytes() for p in course.glob(f"{EN}/*.ipynb")})
    os.umask(0o077)
    return collect(args.submissions, args.learners, starters, args.max_mb << 20, args.seconds)


if __name__ == "__main__":
    sys.exit(main())
