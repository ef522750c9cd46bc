"""The learner's runtime folder, where their kernels' sockets and keys live (deploy/jupyterhub/kernel_sockets.py).

The account is this process's own uid, so these run without root; the hub test makes the same
folders as root for real accounts and tries them as a classmate.
"""

import importlib.util
import os
import pwd
import stat
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("kernel_sockets", ROOT / "deploy" / "jupyterhub" / "kernel_sockets.py")
kernel_sockets = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernel_sockets)


@pytest.fixture(autouse=True)
def learner(monkeypatch):
    account = pwd.struct_passwd(("learner", "x", os.getuid(), os.getgid(), "", "/nonexistent", "/bin/sh"))
    real = pwd.getpwnam
    monkeypatch.setattr(pwd, "getpwnam", lambda name: account if name == "learner" else real(name))


def test_the_folder_is_made_for_the_learner_alone_and_taken_back_if_opened(tmp_path):
    base = tmp_path / "run" / "harness-lab"
    folder = kernel_sockets.runtime_folder("learner", base)
    assert folder == base / "learner"
    assert stat.S_IMODE(base.stat().st_mode) == 0o755
    assert (stat.S_IMODE(folder.stat().st_mode), folder.stat().st_uid) == (0o700, os.getuid())
    (folder / "kernel-1.json").write_text("{}")
    folder.chmod(0o777)
    assert kernel_sockets.runtime_folder("learner", base) == folder
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert (folder / "kernel-1.json").exists()  # a running server's files stay


@pytest.mark.parametrize("how", ["writable by all", "a symlink"])
def test_a_base_others_could_write_or_swap_is_refused(tmp_path, how):
    real = tmp_path / "real"
    real.mkdir()
    if how == "writable by all":
        real.chmod(0o777)
        base = real
    else:
        base = tmp_path / "link"
        base.symlink_to(real)
    with pytest.raises(PermissionError, match=r"writable by nobody else|not a plain folder"):
        kernel_sockets.runtime_folder("learner", base)
    assert list(real.iterdir()) == []


def test_a_link_in_place_of_the_learners_folder_is_refused(tmp_path):
    base = tmp_path / "base"
    base.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o755)
    (base / "learner").symlink_to(elsewhere)
    with pytest.raises(PermissionError, match="not a plain folder"):
        kernel_sockets.runtime_folder("learner", base)
    assert stat.S_IMODE(elsewhere.stat().st_mode) == 0o755
