"""Each learner's own copy of the course, made before their server starts (JupyterHub pre_spawn_hook).

The hub runs as root and the learner owns their home, so nothing here follows a symlink the learner
may have planted: every file is opened relative to a directory already opened with O_NOFOLLOW, and
created with O_EXCL. A copy lands in the learner's home or nowhere. A file the learner already has
is never touched, so a restart or a new course release keeps their answers.

The class's edition (HARNESS_HUB_EDITION: ja, en or both) says which notebooks a learner gets. They
land in the repository's own layout (the English ones in notebooks/en/ and exercises/en/), so the
links between notebooks work as they do in the checkout, and collect.py finds either edition.

Run as a script, it copies one edition into a folder (the Kubernetes image, docs/classroom.md):

    python3 course_files.py --edition en /opt/course
"""

from __future__ import annotations

import os
import pwd
import shutil
import sys
from pathlib import Path

# python3 -I (the image's build, the tests) leaves this folder off sys.path: argparse's words are beside us
sys.path.insert(0, str(Path(__file__).resolve().parent))
from script_usage import Parser

# What a learner receives: the lessons and the exercise starters. exercises/solutions/ stays behind.
FOLDERS = ("notebooks", "exercises")
# Where each edition's notebooks are, inside each of FOLDERS; "both" is both, Japanese first.
EDITIONS = {"ja": ("",), "en": ("en",), "both": ("", "en")}
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


def course_notebooks(course: Path, edition: str = "ja") -> dict[str, list[Path]]:
    """``{"notebooks": [...], "exercises": [...]}`` (``"notebooks/en"``, ``"exercises/en"`` for the
    English edition): the ``.ipynb`` files of each folder the class's ``edition`` has, sorted."""
    if edition not in EDITIONS:
        raise ValueError(f"{edition!r} is not an edition of the course: use ja, en or both")
    places = [f"{folder}/{sub}".rstrip("/") for sub in EDITIONS[edition] for folder in FOLDERS]
    found = {place: sorted((course / place).glob("*.ipynb")) for place in places}
    if not all(found.values()):
        empty = ", ".join(f"{course}/{place}" for place, files in found.items() if not files)
        raise FileNotFoundError(f"no notebooks in {empty}: HARNESS_HUB_COURSE must name a harness_lab checkout")
    return found


def give_course(username: str, course: Path, edition: str = "ja") -> tuple[list[str], list[str]]:
    """Copy the notebooks of ``edition`` that ``username`` does not have yet into their home; make the home 0700.

    Returns (copied, refused): paths relative to the home. A folder that is not a plain directory
    (a symlink, a file) is refused and left as it is, so the learner's server still starts.
    """
    try:
        user = pwd.getpwnam(username)
    except KeyError:
        raise LookupError(f"no Unix account named {username!r}: create it first (useradd -m {username})") from None
    sources = course_notebooks(course, edition)
    home = Path(user.pw_dir)
    if not home.exists():
        os.mkdir(home, 0o700)
        os.chown(home, user.pw_uid, user.pw_gid)
    copied, refused = [], []
    try:
        home_fd = os.open(home, DIR_FLAGS)
    except OSError as error:
        raise PermissionError(f"{home} is not a plain directory ({error.strerror}): refusing to copy into it") from None
    try:
        owner = os.fstat(home_fd).st_uid
        if owner != user.pw_uid:
            raise PermissionError(f"{home} belongs to uid {owner}, not to {username}: refusing to copy into it")
        # Debian's useradd makes homes 0755: without this, classmates could read each other's answers.
        os.fchmod(home_fd, 0o700)
        for folder, files in sources.items():
            if any(folder.startswith(f"{gone}/") for gone in refused):
                continue  # notebooks/en of a refused notebooks/
            try:
                folder_fd = _own_folder(home_fd, folder, user)
            except OSError:
                refused.append(folder)
                continue
            try:
                copied += [f"{folder}/{src.name}" for src in files if _copy_new(src, folder_fd, user)]
            finally:
                os.close(folder_fd)
    finally:
        os.close(home_fd)
    return copied, refused


def _own_folder(home_fd: int, path: str, user: pwd.struct_passwd) -> int:
    """Open ``~/path`` (each step created 0700 and owned by the learner if missing) without following a symlink."""
    fd = os.dup(home_fd)
    try:
        for name in path.split("/"):
            try:
                os.mkdir(name, 0o700, dir_fd=fd)
                made = True
            except FileExistsError:
                made = False
            step = os.open(name, DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = step
            if made:
                # Given through the open folder, never by name: between mkdir and a chown by name the learner,
                # who owns the folder above, could put a hard link to a file of root's there and be given it.
                os.fchown(fd, user.pw_uid, user.pw_gid)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _copy_new(src: Path, folder_fd: int, user: pwd.struct_passwd) -> bool:
    """Write ``src`` into the open folder as a new file owned by the learner; False if it exists."""
    data = src.read_bytes()
    try:
        fd = os.open(src.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=folder_fd)
    except FileExistsError:  # the learner's own copy (or anything else they put there) wins
        return False
    try:
        os.fchown(fd, user.pw_uid, user.pw_gid)
        with os.fdopen(fd, "wb", closefd=False) as out:
            out.write(data)
    except BaseException:
        os.unlink(src.name, dir_fd=folder_fd)  # a half-written notebook would block every later copy
        raise
    finally:
        os.close(fd)
    return True


def copy_edition(course: Path, edition: str, into: Path) -> list[str]:
    """Copy the notebooks of ``edition`` into ``into`` in the course's layout (an image's /opt/course)."""
    copied = []
    for folder, files in course_notebooks(course, edition).items():
        (into / folder).mkdir(parents=True, exist_ok=True)
        for src in files:
            shutil.copyfile(src, into / folder / src.name)
            copied.append(f"{folder}/{src.name}")
    return copied


# What the script says, in the language of the edition it copies (else HARNESS_HUB_EDITION's; both, Japanese
# first, for "both"). It runs in an image's build, before harness_lab is installed: its own words.
TEXTS = {
    "about": (
        "講座のノートブックのうち、ひとつの版をリポジトリと同じ並びでコピーします",
        "Copy one edition of the course's notebooks, in its layout.",
    ),
    "help.edition": ("ja（既定）、en、both のどれか", "ja (the default), en or both"),
    "help.into": ("コピー先のフォルダー", "the folder to copy into"),
    "copied": ("{count} 冊のノートブックを {into} にコピーしました", "{count} notebooks copied into {into}"),
    "not_edition": (
        "--edition {edition!r} は講座の版ではありません: ja、en、both のどれかを指定してください",
        "--edition {edition!r} is not an edition of the course: use ja, en or both",
    ),
    "no_notebooks": (
        "{empty} にノートブックがありません: harness_lab のチェックアウトにあるこのファイルを実行してください",
        "no notebooks in {empty}: run this file from a harness_lab checkout",
    ),
}


def _sides(argv: list[str]) -> tuple[int, ...]:
    """Which of TEXTS' sides to say: the --edition asked for, else the hub's."""
    asked = os.environ.get("HARNESS_HUB_EDITION", "")
    for at, arg in enumerate(argv):
        if arg == "--edition" and at + 1 < len(argv):
            asked = argv[at + 1]
        elif arg.startswith("--edition="):
            asked = arg.partition("=")[2]
    return {"ja": (0,), "en": (1,)}.get(asked, (0, 1))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    sides = _sides(argv)

    def say(key: str, **values: object) -> list[str]:
        return [TEXTS[key][side].format(**values) for side in sides]

    parser = Parser(sides, description=" / ".join(say("about")))
    parser.add_argument("--edition", default="ja", help=" / ".join(say("help.edition")))
    parser.add_argument("into", type=Path, metavar="FOLDER", help=" / ".join(say("help.into")))
    args = parser.parse_args(argv)
    course = Path(__file__).resolve().parents[2]
    if args.edition not in EDITIONS:
        parser.refuse(say("not_edition", edition=args.edition))
    try:
        copied = copy_edition(course, args.edition, args.into)
    except FileNotFoundError:
        parser.refuse(say("no_notebooks", empty=", ".join(str(course / folder) for folder in FOLDERS)))
    print("\n".join(say("copied", count=len(copied), into=args.into)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
