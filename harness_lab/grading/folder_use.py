"""What a call graded without the sandbox may leave in its folder, all files together (Linux).

In the sandbox a notebook's folders are size-capped tmpfs (``namespaces.TMPFS``, ``TMPFS_INODES``): in
memory, and bounded. Without it, a call's folder (``host._unsandboxed``: its ``nb`` and ``tmp``) is on
the caller's own file system, the instructor's ``/tmp`` or home, and ``RLIMIT_FSIZE`` bounds one file
alone: a cell that wrote file after file of 64 MB, or made empty files by the hundred thousand (each an
inode of that file system), filled the disk for every program of the machine until its time was up.

So the call's supervisor, outside the job and the job's Landlock domain, walks the folder between its
other checks (``processes.watch``) and ends the job once it holds more than the sandbox's two folders
would: ``BYTES`` of blocks (what the disk gives, so a sparse file costs what it holds) or ``ENTRIES``
files and folders. A walk stops as soon as it has seen too much, so it costs at most ``ENTRIES``
looks. What a cell writes between two walks (``WATCH_EVERY`` apart) comes on top, and the folder is
removed after the call.

A file the job keeps open after removing it is in no folder to walk: its blocks go back when the job is
ended (its deadline at the latest), not before.
"""

from __future__ import annotations

import os

from .namespaces import TMPFS, TMPFS_INODES

__all__ = ["BYTES", "ENTRIES", "over"]

# The sandbox's notebook folder and /tmp together: 64 MB and 4096 entries each
BYTES = 2 * (int(TMPFS["/tmp"].rstrip("m")) << 20)
ENTRIES = 2 * TMPFS_INODES


def over(folder: str) -> bool:
    """Whether ``folder`` holds more than ``BYTES`` or ``ENTRIES``. A folder the walk may not read counts as
    too much: the job's own folder is readable unless its code made it otherwise to hide what is below."""
    used, seen, waiting = 0, 0, [folder]
    while waiting:
        try:
            with os.scandir(waiting.pop()) as entries:
                for entry in entries:
                    seen += 1
                    try:
                        used += entry.stat(follow_symlinks=False).st_blocks * 512
                    except FileNotFoundError:  # removed by the job since it was listed
                        continue
                    if seen > ENTRIES or used > BYTES:
                        return True
                    if entry.is_dir(follow_symlinks=False):
                        waiting.append(entry.path)
        except FileNotFoundError:
            continue
        except OSError:
            return True
    return False
