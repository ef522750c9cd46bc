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

import errno
import os
import pwd
import select
import signal
import stat
import sys
import time
from pathlib import Path

# -I (collect.sh) leaves this folder off sys.path: argparse's words in the class's language are beside us
sys.path.insert(0, str(Path(__file__).resolve().parent))
from script_usage import Parser

# The same cap as `harness-lab grade-class` (grading/classroom.py): a larger notebook is not graded.
MAX_MB = 8
SECONDS = 10.0
EN = "en"  # the English edition's folder under ~/exercises (course_files.py puts it there)
KINDS = {
    stat.S_IFLNK: "link",
    stat.S_IFIFO: "fifo",
    stat.S_IFDIR: "folder",
    stat.S_IFSOCK: "socket",
    stat.S_IFCHR: "device",
    stat.S_IFBLK: "device",
    stat.S_IFREG: "file",  # where a folder should be
}
# What it prints, in the class's edition's language (HARNESS_HUB_EDITION, as the hub reads it): this runs
# with root's own Python, outside the course venv, so harness_lab's catalog is out of reach. Where the
# edition is both, or not set in root's shell, each line is printed in Japanese, then in English.
TEXTS = {
    "kind.link": ("シンボリックリンク", "a symbolic link"),
    "kind.fifo": ("FIFO", "a FIFO"),
    "kind.folder": ("フォルダー", "a folder"),
    "kind.socket": ("ソケット", "a socket"),
    "kind.device": ("デバイス", "a device"),
    "kind.file": ("ファイル", "a file"),
    "kind.other": ("通常のファイルではないもの", "not a regular file"),
    "missing": ("未提出", "not handed in"),
    "unopenable": ("断りました: 開けません（{error}）", "refused: cannot be opened ({error})"),
    "theirs_closed": ("断りました: 受講者自身が開けません（{error}）", "refused: its learner cannot open it ({error})"),
    "on_the_way": (
        "断りました: {folder} への途中の {name} が{kind}です",
        "refused: {name} on the way to {folder} is {kind}",
    ),
    "not_regular": ("断りました: {kind}で、通常のファイルではありません", "refused: {kind}, not a regular file"),
    "too_big": (
        "断りました: {size} バイトで、上限の {mb} MB を超えています",
        "refused: {size} bytes, over the {mb} MB limit",
    ),
    "grew": ("断りました: 上限の {mb} MB を超えています", "refused: over the {mb} MB limit"),
    "failed": ("断りました: {error}", "refused: {error}"),
    "slow": ("断りました: {seconds} 秒たっても読み終わりません", "refused: still not read after {seconds} s"),
    "flood": ("断りました: 読み手が上限より多く送ってきました", "refused: the reader sent more than the size cap"),
    "cut": (
        "断りました: 読み手が途中で止まりました（止められた？）",
        "refused: the reader stopped before it finished (was it killed?)",
    ),
    "no_account": ("{learner}: そのアカウントはありません", "{learner}: no such account"),
    "line": ("{learner}: {path} {why}", "{learner}: {path} {why}"),
    "done": (
        "{learner}: 練習ノートブック {total} 冊のうち {handed} 冊を回収しました{note}",
        "{learner}: {handed} of {total} exercise notebooks collected{note}",
    ),
    "done_refused": ("（{refused} 冊は断りました）", ", {refused} refused"),
    "both": (
        "{learner}: {name} は両方の版にあります。{took} を回収しました（{why}）",
        "{learner}: {name} is in both editions; collected {took} ({why})",
    ),
    "both_changed": ("もう一方は配られたままです", "the other is as the course gave it"),
    "both_saved": ("最後に保存されたほうです", "saved last"),
    "about": (
        "各受講者の練習ノートブックを SUBMISSIONS/<受講者>/<練習>.ipynb に回収します（root で実行）",
        "Hand-in: copy each learner's exercise notebooks to SUBMISSIONS/<learner>/<exercise>.ipynb (run as root)",
    ),
    "help.submissions": ("回収先のフォルダー", "the folder to collect into"),
    "help.learners": ("受講者のアカウント名（1人以上）", "the learners' account names (one or more)"),
    "help.max_mb": ("ノートブック1冊の大きさの上限（MB、既定 {mb}）", "size cap per notebook (MB, default {mb})"),
    "help.seconds": (
        "ノートブック1冊を読む制限時間（秒、既定 {seconds}）",
        "time limit per notebook (seconds, default {seconds})",
    ),
    "not_root": (
        "root で実行してください: ノートブックはそれぞれの受講者として読むため、root にしかできません",
        "run as root: each notebook is read as its learner, which only root can do",
    ),
    "not_positive": ("--max-mb と --seconds は正の数にしてください", "--max-mb and --seconds must be positive"),
    "no_course": (
        "{course} に exercises/*.ipynb がありません: HARNESS_HUB_COURSE には harness_lab のチェックアウトを指定してください",
        "no exercises/*.ipynb in {course}: HARNESS_HUB_COURSE must name a harness_lab checkout",
    ),
}
SPOKEN = {"ja": (0,), "en": (1,)}.get(os.environ.get("HARNESS_HUB_EDITION", ""), (0, 1))


def say(key: str, **values: object) -> list[str]:
    """The text of ``key`` in each language spoken; a value that is such a list gives each language its own."""
    return [
        TEXTS[key][side].format(**{k: v[n] if isinstance(v, list) else v for k, v in values.items()})
        for n, side in enumerate(SPOKEN)
    ]


def tell(key: str, file: object = None, **values: object) -> None:
    for line in say(key, **values):
        print(line, file=file or sys.stdout, flush=True)


WALK = os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# O_NONBLOCK: opening a FIFO, or a file someone holds a lease on, must not wait.
READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


class Refused(Exception):
    """A file not taken, and why (one line for the instructor in each language spoken)."""

    def __init__(self, lines: list[str]):
        super().__init__(lines[-1])
        self.lines = lines


def shown(text: str) -> str:
    """A name as one printable line: a newline or a stray byte in it is escaped, never printed."""
    return text if text.isprintable() else ascii(text)


def kind(mode: int) -> list[str]:
    return say(f"kind.{KINDS.get(stat.S_IFMT(mode), 'other')}")


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


def _why(dir_fd: int, name: str, error: OSError, folder: str = "") -> list[str]:
    """Why ``name`` in ``dir_fd`` did not open: a missing file is not handed in, anything else refused."""
    if error.errno == errno.ENOENT:
        return say("missing")
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except OSError:
        return say("unopenable", error=error.strerror)
    if stat.S_ISDIR(mode) if folder else stat.S_ISREG(mode):
        return say("theirs_closed", error=error.strerror)
    if folder:
        return say("on_the_way", name=shown(name), folder=shown(folder), kind=kind(mode))
    return say("not_regular", kind=kind(mode))


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
            raise Refused(say("not_regular", kind=kind(info.st_mode)))
        if info.st_size > cap:
            raise Refused(say("too_big", size=f"{info.st_size:,}", mb=cap >> 20))
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(cap + 1)  # it may grow while it is read
    finally:
        os.close(fd)
    if len(data) > cap:
        raise Refused(say("grew", mb=cap >> 20))
    return data, info.st_mtime_ns


def fetch(user: pwd.struct_passwd, folder: str, name: str, cap: int, seconds: float) -> tuple[bytes, int] | list[str]:
    """(the notebook's bytes, its mtime), read by a child that has become ``user``; or why not (a line per language)."""
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
            out = b"no\n" + "\n".join(why.lines).encode(errors="backslashreplace")
        except BaseException as error:  # whatever happens is this file's report
            failed = say("failed", error=shown(f"{type(error).__name__}: {error}"))
            out = b"no\n" + "\n".join(failed).encode(errors="backslashreplace")
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
                return say("slow", seconds=f"{seconds:g}")
            chunk = os.read(r, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > cap + 4096:
                os.kill(pid, signal.SIGKILL)
                return say("flood")
    finally:
        os.close(r)
        _reap(pid)
    answer = b"".join(chunks)
    head, _, data = answer.partition(b"\n")
    if head.startswith(b"ok ") and head[3:].isdigit():
        return data, int(head[3:])
    if answer.startswith(b"no\n"):
        return answer[3:].decode(errors="backslashreplace").split("\n")
    return say("cut")


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
            tell("no_account", sys.stderr, learner=shown(learner))
            status = 1
            continue
        # Above the home, the layout is the administrator's: resolve their links, then follow none.
        folder = os.path.join(os.path.realpath(user.pw_dir), "exercises")
        out = Folder(submissions / user.pw_name)
        handed = refused = 0
        try:
            for name in exercises:
                found = {path: fetch(user, folder, path, cap, seconds) for path in (name, f"{EN}/{name}")}
                got = {path: copy for path, copy in found.items() if isinstance(copy, tuple)}
                reasons: dict[tuple[str, ...], str] = {}  # a refused ~/exercises refuses both editions alike: one line
                for path, why in found.items():
                    if isinstance(why, list) and why != say("missing"):
                        reasons.setdefault(tuple(why), path)
                for why, path in reasons.items():
                    tell("line", learner=user.pw_name, path=path, why=list(why))
                if got:
                    out.put(name, got[_worked_on(user.pw_name, name, got, starters)][0])
                    handed += 1
                    continue
                out.drop(name)
                if reasons:
                    refused += 1
                else:
                    tell("line", learner=user.pw_name, path=name, why=say("missing"))
        finally:
            out.close()
        note = say("done_refused", refused=refused) if refused else ""
        tell("done", learner=user.pw_name, handed=handed, total=len(exercises), note=note)
    return status


def _worked_on(learner: str, name: str, got: dict[str, tuple[bytes, int]], starters: dict[str, bytes]) -> str:
    """Which of a learner's editions of an exercise is handed in: the one that is no longer the course's
    copy, else the one saved last (a bilingual class's learners have both, and answer in one)."""
    if len(got) == 1:
        return next(iter(got))
    changed = [path for path, (data, _) in got.items() if data != starters.get(path)]
    took = max(changed or got, key=lambda path: got[path][1])
    tell("both", learner=learner, name=name, took=took, why=say("both_changed" if len(changed) == 1 else "both_saved"))
    return took


def main(argv: list[str] | None = None) -> int:
    parser = Parser(SPOKEN, prog="collect.sh", description=" / ".join(say("about")))
    parser.add_argument("submissions", type=Path, metavar="SUBMISSIONS", help=" / ".join(say("help.submissions")))
    parser.add_argument("learners", nargs="+", metavar="LEARNER", help=" / ".join(say("help.learners")))
    parser.add_argument("--max-mb", type=int, default=MAX_MB, help=" / ".join(say("help.max_mb", mb=MAX_MB)))
    seconds = " / ".join(say("help.seconds", seconds=f"{SECONDS:g}"))
    parser.add_argument("--seconds", type=float, default=SECONDS, help=seconds)
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        parser.refuse(say("not_root"))
    if args.max_mb <= 0 or args.seconds <= 0:
        parser.refuse(say("not_positive"))
    course = Path(os.environ.get("HARNESS_HUB_COURSE") or Path(__file__).resolve().parents[2]) / "exercises"
    starters = {str(p.relative_to(course)): p.read_bytes() for p in course.glob("*.ipynb")}
    if not starters:
        parser.refuse(say("no_course", course=course.parent))
    starters.update({str(p.relative_to(course)): p.read_bytes() for p in course.glob(f"{EN}/*.ipynb")})
    os.umask(0o077)
    return collect(args.submissions, args.learners, starters, args.max_mb << 20, args.seconds)


if __name__ == "__main__":
    sys.exit(main())
