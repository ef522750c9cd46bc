"""Throwaway Unix accounts for the hub test, marked so that only ours are ever deleted."""

from __future__ import annotations

import pwd
import secrets
import shutil
import subprocess

MARK = "harness_lab hub test"  # the GECOS field of every account this test creates
TOOLS = ("useradd", "userdel", "chpasswd", "runuser")


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if not shutil.which(tool)]


def _account(name: str) -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        return None


def create(name: str) -> str:
    """Create ``name`` with a home and a random password; return the password.

    A leftover account from an interrupted run (it carries MARK) is removed first; an account of
    the same name that is not ours stops the test instead of being touched.
    """
    existing = _account(name)
    if existing and existing.pw_gecos != MARK:
        raise RuntimeError(f"a Unix account named {name} exists and is not this test's: not touching it")
    if existing:
        remove(name)
    _run("useradd", "--create-home", "--comment", MARK, "--shell", "/bin/bash", name)
    password = secrets.token_urlsafe(16)
    _run("chpasswd", stdin=f"{name}:{password}\n")
    return password


def remove(name: str) -> None:
    account = _account(name)
    if account and account.pw_gecos == MARK:
        # userdel warns (exit 0) about a missing mail spool; any other failure is worth seeing.
        _run("userdel", "--remove", name)


def as_user(name: str, *command: str) -> subprocess.CompletedProcess:
    """Run ``command`` as the Unix user ``name`` and return what happened (never raises on failure)."""
    return subprocess.run(
        ["runuser", "-u", name, "--", *command], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60
    )


def _run(*command: str, stdin: str | None = None) -> None:
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60)
    if done.returncode:
        raise RuntimeError(f"{' '.join(command[:1])} failed ({done.returncode}): {done.stderr.strip()}")
