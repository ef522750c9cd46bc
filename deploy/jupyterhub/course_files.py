"""Each learner's own copy of the course, made before their server starts (JupyterHub pre_spawn_hook).

The hub runs as root and the learner owns their home, so nothing here follows a symlink the learner
may have planted: every file is opened relative to a directory already opened with O_NOFOLLOW, and
created with O_EXCL. A copy lands in the learner's home or nowhere. A file the learner already has
is never touched, so a restart or a new course release keeps their answers.
"""

from __future__ import annotations

import os
import pwd
from pathlib import Path

# What a learner receives: the lessons and the exercise starters. exercises/solutions/ stays behind.
FOLDERS = ("notebooks", "exercises")
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


def course_notebooks(course: Path) -> dict[str, list[Path]]:
    """``{"notebooks": [...], "exercises": [...]}``: the ``.ipynb`` files of each folder, sorted."""
    found = {folder: sorted((course / folder).glob("*.ipynb")) for folder in FOLDERS}
    if not any(found.values()):
        raise FileNotFoundError(
            f"no notebooks under {course}/notebooks or {course}/exercises: "
            "HARNESS_HUB_COURSE must name a harness_lab checkout"
        )
    return found


def give_course(username: str, course: Path) -> tuple[list[str], list[str]]:
    """Copy the notebooks ``username`` does not have yet into their home; make the home 0700.

    Returns (copied, refused): paths relative to the home. A folder that is not a plain directory
    (a symlink, a file) is refused and left as it is, so the learner's server still starts.
    """
    try:
        user = pwd.getpwnam(username)
    except KeyError:
        raise LookupError(f"no Unix account named {username!r}: create it first (useradd -m {username})") from None
    sources = course_notebooks(course)
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


def _own_folder(home_fd: int, name: str, user: pwd.struct_passwd) -> int:
    """Open ``~/name`` (created 0700 and owned by the learner if missing) without following a symlink."""
    try:
        os.mkdir(name, 0o700, dir_fd=home_fd)
        os.chown(name, user.pw_uid, user.pw_gid, dir_fd=home_fd, follow_symlinks=False)
    except FileExistsError:
        pass
    return os.open(name, DIR_FLAGS, dir_fd=home_fd)


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
