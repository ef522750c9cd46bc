"""Where a learner's kernels listen: Unix sockets in a folder only that learner can enter.

By default a Jupyter kernel listens on five TCP ports of 127.0.0.1, which every account on the
server can connect to. Its messages are signed with a key nobody else can read, but not encrypted:
a classmate who subscribes to the output channel (IOPub) reads every cell a learner runs and every
result. jupyterhub_config.py has the kernels use the IPC transport instead, whose sockets are files
in the server's runtime folder (JUPYTER_RUNTIME_DIR, which also holds the connection files and
their keys). This module makes that folder, BASE/<learner>: 0700, owned by the learner, inside a
folder only root can write, so no one can plant a link there or take the name first.

It is not ~/.local/share/jupyter/runtime because a socket's path may hold at most 107 bytes:
/run/harness-lab/<learner>/kernel-<36-character id>-ipc-5 fits any Unix name, a deep home may not.
"""

from __future__ import annotations

import os
import pwd
import stat
from pathlib import Path

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW


def runtime_folder(username: str, base: Path) -> Path:
    """Make (or take back) ``base/username`` for that learner alone, and return it."""
    user = pwd.getpwnam(username)
    base.mkdir(mode=0o755, parents=True, exist_ok=True)
    try:
        base_fd = os.open(base, DIR_FLAGS)
    except OSError as error:
        raise PermissionError(f"{base} is not a plain folder ({error.strerror}): refusing to use it") from None
    try:
        info = os.fstat(base_fd)
        if info.st_uid != os.geteuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            raise PermissionError(
                f"{base} must belong to the hub's user and be writable by nobody else "
                f"(it is uid {info.st_uid}, mode {stat.S_IMODE(info.st_mode):o}): learners could plant links in it"
            )
        try:
            os.mkdir(username, 0o700, dir_fd=base_fd)
        except FileExistsError:
            pass  # a previous server's, made here by the hub: only the hub can create names in base
        try:
            fd = os.open(username, DIR_FLAGS, dir_fd=base_fd)
        except OSError as error:
            raise PermissionError(f"{base / username} is not a plain folder ({error.strerror})") from None
        try:
            os.fchown(fd, user.pw_uid, user.pw_gid)
            os.fchmod(fd, 0o700)
        finally:
            os.close(fd)
    finally:
        os.close(base_fd)
    return base / username
