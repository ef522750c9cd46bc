"""File-tool confinement under attack (issue 16, item 5): hard links, races, FIFOs, a moving working directory.

Each test here is an attack that got through before the tools walked paths from a directory
descriptor: a hard link read and overwrote a file outside; a directory swapped for a symlink between
the check and the open leaked a secret and deleted a file outside; ``write_file`` to a FIFO hung its
worker thread for good; and the default root followed ``os.chdir``. ``outside/`` sits next to the
project, and every test ends by checking it is byte-for-byte as it was.
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from invariants import results_by_id

from harness_lab.drain import drain
from harness_lab.emulator import call, emulated_client, reply, say
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.tools import ToolError, confine, make_delete_file, make_read_file, make_write_file, run_tool, tool
from harness_lab.valves import Approval, MaxTurns, Policy

SECRET = "TOP-SECRET-OUTSIDE-THE-ROOT"
RACE_SECONDS = 2.0  # per race; the old code lost within 22 to 952 tries here, well under a second

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs, hard links and symlinks as on POSIX")


@pytest.fixture
def world(tmp_path):
    """``project/`` (the root, with ``sandbox/``) next to ``outside/``, which holds the secret."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    root = tmp_path / "project"
    (root / "sandbox").mkdir(parents=True)
    (root / "README.md").write_text("# 見出し\n", encoding="utf-8")
    before = snapshot(outside)
    yield root, outside
    release_fifos(root)
    assert snapshot(outside) == before, "something outside the root was written, deleted or created"


def snapshot(folder: Path) -> dict:
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def release_fifos(root: Path) -> None:
    """Open every FIFO for reading once, so that a writer stuck in it (the bug) is let go."""
    for p in root.rglob("*"):
        if p.is_fifo():
            fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK)
            time.sleep(0.05)
            os.close(fd)


def refused(result: tuple[str, bool], key: str) -> bool:
    """An ``is_error`` result in the words of catalog entry ``key``, with no secret in it."""
    text, is_error = result
    template = t(key, path="\x00", sandbox="sandbox", error="\x00", links="\x00").split("\x00")[0]
    return is_error and SECRET not in text and text.startswith(t("result.failed", error=template))


# -- hard links -------------------------------------------------------------------------------------


def test_a_hard_link_to_a_file_outside_is_neither_read_nor_written(world):
    root, outside = world
    os.link(outside / "secret.txt", root / "mirror.txt")
    os.link(outside / "secret.txt", root / "sandbox" / "mirror.txt")
    read = run_tool(make_read_file(root), {"path": "mirror.txt"})
    assert SECRET not in read[0] and refused(read, "file.hard_link"), read
    write = run_tool(make_write_file(root / "sandbox"), {"path": "sandbox/mirror.txt", "content": "pwned"})
    assert refused(write, "file.hard_link"), write
    delete = run_tool(make_delete_file(root / "sandbox"), {"path": "sandbox/mirror.txt"})
    assert refused(delete, "file.hard_link"), delete
    assert (root / "sandbox" / "mirror.txt").read_text(encoding="utf-8") == SECRET  # the world fixture checks outside


def test_a_single_named_file_is_still_read_written_and_deleted(world):
    """The positive control: one name, regular file, inside: all three tools work."""
    root, _ = world
    box = root / "sandbox"
    assert run_tool(make_write_file(box), {"path": "sandbox/a/b.md", "content": "メモ"}) == (
        t("file.written", path="sandbox/a/b.md", chars=2),
        False,
    )
    assert run_tool(make_read_file(root), {"path": "sandbox/a/b.md"}) == ("メモ", False)
    deleted = run_tool(make_delete_file(box), {"path": "sandbox/a/b.md"})
    assert deleted == (t("file.deleted", path="sandbox/a/b.md"), False)
    assert not (box / "a" / "b.md").exists()


# -- races: a directory swapped for a symlink between the check and the open ------------------------


def _exchange_call():
    """Linux's renameat2(RENAME_EXCHANGE): two names trade places in one step, so ``d`` is never
    missing, only ever the directory or the link. None where libc lacks it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        call = libc.renameat2
    except (OSError, AttributeError):
        return None

    def exchange(a: Path, b: Path) -> None:
        if call(-100, os.fsencode(a), -100, os.fsencode(b), 2) != 0:  # AT_FDCWD, RENAME_EXCHANGE
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))

    return exchange


EXCHANGE = _exchange_call()


class Swapper:
    """Swaps ``<parent>/d`` between a real directory and a symlink to ``outside`` as fast as it can.

    The real directory holds a harmless file named like the victim outside, so a check by name passes
    every time; only a tool that opens what it checked keeps out. The swap is one atomic exchange
    where Linux offers it (ctypes releases the GIL during the call, so the tool's thread runs in
    between); elsewhere four steps, with moments when ``d`` is missing.
    """

    def __init__(self, parent: Path, outside: Path, victim: str):
        self.path, self.other, self.outside, self.victim = parent / "d", parent / "d.other", outside, victim
        self.path.mkdir()
        (self.path / victim).write_text("harmless", encoding="utf-8")
        self.stop, self.swaps = threading.Event(), 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        if EXCHANGE:
            os.symlink(self.outside, self.other)
        while not self.stop.is_set():
            real = self.other if EXCHANGE and self.swaps % 2 else self.path
            if not (real / self.victim).exists():  # delete_file removed it: put it back
                (real / self.victim).write_text("harmless", encoding="utf-8")
            if EXCHANGE:
                EXCHANGE(self.path, self.other)
            else:
                os.rename(self.path, self.other)
                os.symlink(self.outside, self.path)
                os.unlink(self.path)
                os.rename(self.other, self.path)
            self.swaps += 1

    def __enter__(self) -> Swapper:
        self.switch = sys.getswitchinterval()
        sys.setswitchinterval(1e-5)  # let the two threads interleave often, as two processes would
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()
        sys.setswitchinterval(self.switch)


def race(attempt, lost) -> tuple[int, int, int | None]:
    """Run ``attempt()`` for RACE_SECONDS: the tries, how many ended with ``lost()``, and the first that did."""
    tries = losses = 0
    first = None
    deadline = time.monotonic() + RACE_SECONDS
    while time.monotonic() < deadline:
        tries += 1
        attempt()
        if lost():
            losses += 1
            first = first or tries
    return tries, losses, first


def restored(victim: Path, text: str) -> bool:
    """Whether ``victim`` was deleted or overwritten; it is put back, so that every loss is counted."""
    if victim.exists() and victim.read_text(encoding="utf-8") == text:
        return False
    victim.write_text(text, encoding="utf-8")
    return True


def test_swapping_a_directory_for_a_symlink_never_reads_outside(world, capsys):
    root, outside = world
    reader = make_read_file(root)
    seen = []

    def attempt():
        try:
            seen.append(reader(path="d/secret.txt"))
        except ToolError:
            pass

    with Swapper(root, outside, "secret.txt") as swapper:
        tries, leaks, first = race(attempt, lambda: bool(seen) and seen[-1] == SECRET)
    with capsys.disabled():
        print(
            f"\n  read race: {tries} tries, {swapper.swaps} swaps, {leaks} leaks (first at try {first}),"
            f" {seen.count('harmless')} reads of the harmless file"
        )
    assert leaks == 0
    assert tries > 100 and swapper.swaps > 100  # the race really ran


def test_swapping_a_directory_for_a_symlink_never_deletes_outside(world, capsys):
    root, outside = world
    (outside / "victim.txt").write_text("keep me", encoding="utf-8")
    delete = make_delete_file(root / "sandbox")

    def attempt():
        try:
            delete(path="sandbox/d/victim.txt")
        except ToolError:
            pass

    with Swapper(root / "sandbox", outside, "victim.txt") as swapper:
        tries, losses, first = race(attempt, lambda: restored(outside / "victim.txt", "keep me"))
    with capsys.disabled():
        print(
            f"\n  delete race: {tries} tries, {swapper.swaps} swaps, {losses} deletions outside (first at try {first})"
        )
    assert losses == 0
    assert tries > 100 and swapper.swaps > 100
    (outside / "victim.txt").unlink()  # made by this test, not part of the world's snapshot


def test_swapping_a_directory_for_a_symlink_never_writes_outside(world, capsys):
    root, outside = world
    write = make_write_file(root / "sandbox")

    def attempt():
        try:
            write(path="sandbox/d/secret.txt", content="pwned")
        except ToolError:
            pass

    with Swapper(root / "sandbox", outside, "secret.txt") as swapper:
        tries, losses, first = race(attempt, lambda: restored(outside / "secret.txt", SECRET))
    with capsys.disabled():
        print(f"\n  write race: {tries} tries, {swapper.swaps} swaps, {losses} writes outside (first at try {first})")
    assert losses == 0
    assert tries > 100 and swapper.swaps > 100
    assert not [p.name for p in (root / "sandbox").rglob(".harness_lab-*")]  # no temp file left behind


# -- FIFOs and other non-regular files ---------------------------------------------------------------


def test_write_file_to_a_fifo_answers_at_once_and_leaves_no_worker_stuck(world):
    root, _ = world
    pipe = root / "sandbox" / "pipe"
    os.mkfifo(pipe)
    result = run_tool(make_write_file(root / "sandbox"), {"path": "sandbox/pipe", "content": "x"}, timeout=5)
    assert refused(result, "file.not_regular"), result  # before: the 5 s timeout's message
    # A worker stuck opening the FIFO would be let go by a reader and write its "x" into it.
    fd = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    time.sleep(0.2)
    try:
        assert os.read(fd, 10) == b"", "a worker was still waiting to write into the FIFO"
    except BlockingIOError:  # a writer has it open and has not written yet: stuck all the same
        pytest.fail("a worker was still waiting to write into the FIFO")
    finally:
        os.close(fd)
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)  # left as it was


@pytest.mark.parametrize("kind", ["fifo", "socket"])
def test_every_tool_refuses_a_non_regular_file_without_blocking(world, kind):
    root, _ = world
    target = root / "sandbox" / "special"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(target))
    box = root / "sandbox"
    calls = [
        (make_read_file(root), {"path": "sandbox/special"}),
        (make_write_file(box), {"path": "sandbox/special", "content": "x"}),
        (make_delete_file(box), {"path": "sandbox/special"}),
    ]
    for one, given in calls:
        result = run_tool(one, given, timeout=3)  # a tool blocked on it would answer with the timeout
        assert refused(result, "file.not_regular"), (one.name, result)
    assert target.exists() and not target.is_file()
    if kind == "socket":
        server.close()


# -- the root is fixed when the tool is made ---------------------------------------------------------


def test_another_tools_chdir_does_not_move_the_root(world, monkeypatch):
    """A tool in the same run calls ``os.chdir("/")``; the default read_file and write_file stay put."""
    root, _ = world
    monkeypatch.chdir(root)  # restored after the test, whatever the tool does

    @tool
    def wander() -> str:
        """Change the working directory (what any careless tool may do)."""
        os.chdir("/")
        return "moved"

    tools = [wander, make_read_file(), make_write_file()]
    script = [
        reply(call("wander")),
        reply(
            call("read_file", path="etc/passwd"),
            call("read_file", path="README.md"),
            call("write_file", path="sandbox/out.md", content="ok"),
        ),
        say("done"),
    ]
    run = Run(emulated_client(script), tools, [MaxTurns(5), Approval(Policy(default="allow"))])
    drain(run.start("go"))
    results = list(results_by_id(run.messages).values())
    assert os.getcwd() == "/"
    passwd, readme, written = results[1:]
    assert passwd.get("is_error") and "root:" not in passwd["content"], passwd
    assert readme["content"] == "# 見出し\n" and not readme.get("is_error")
    assert not written.get("is_error") and (root / "sandbox" / "out.md").read_text(encoding="utf-8") == "ok"


# -- symlinks that stay inside still work; ``..`` is lexical ----------------------------------------


def test_links_that_stay_inside_are_followed_and_links_out_are_not(world):
    root, outside = world
    (root / "docs" / "deep").mkdir(parents=True)
    (root / "docs" / "deep" / "note.md").write_text("深いメモ", encoding="utf-8")
    links = {
        "alias.md": "README.md",  # relative, same directory
        "abs_alias.md": str(root / "README.md"),  # absolute, inside
        "docs/deep/up.md": "../../README.md",  # climbs, but stays inside
        "shortcut": "docs/deep",  # a directory
        "chain.md": "shortcut/../deep/note.md",  # through a link, then ``..`` from where it led
        "out_rel.md": "../outside/secret.txt",
        "docs/out_deep.md": "../../outside/secret.txt",
        "out_dir": str(outside),
    }
    for name, target in links.items():
        os.symlink(target, root / name)
    reader = make_read_file(root)
    readme, note = "# 見出し\n", "深いメモ"
    for path, expected in [
        ("alias.md", readme),
        ("abs_alias.md", readme),
        ("docs/deep/up.md", readme),
        ("shortcut/note.md", note),
        ("chain.md", note),
    ]:
        assert run_tool(reader, {"path": path}) == (expected, False), path
    for path in ("out_rel.md", "docs/out_deep.md", "out_dir/secret.txt"):
        assert refused(run_tool(reader, {"path": path}), "file.outside_root"), path


def test_a_long_chain_of_links_is_refused_as_a_loop(world):
    root, _ = world
    for i in range(50):
        os.symlink(f"l{i + 1}", root / f"l{i}")
    os.symlink("README.md", root / "l50")
    text, is_error = run_tool(make_read_file(root), {"path": "l0"})
    unreadable = t("file.unreadable", path="l0", error="\x00").split("\x00")[0]
    assert is_error and text.startswith(t("result.failed", error=unreadable)), text
    assert run_tool(make_read_file(root), {"path": "l20"}) == ("# 見出し\n", False)  # 30 links: within the limit


def test_dot_dot_may_not_leave_the_root_even_to_come_back(world):
    """``..`` is applied to the text; the directories above the root are not the tool's to walk."""
    root, _ = world
    reader = make_read_file(root)
    assert run_tool(reader, {"path": "sandbox/../README.md"}) == ("# 見出し\n", False)
    assert refused(run_tool(reader, {"path": f"../{root.name}/README.md"}), "file.outside_root")


def test_a_link_in_the_sandbox_to_the_project_is_outside_the_sandbox(world):
    root, _ = world
    os.symlink("../README.md", root / "sandbox" / "readme")
    result = run_tool(make_write_file(root / "sandbox"), {"path": "sandbox/readme", "content": "pwned"})
    assert refused(result, "file.outside_sandbox"), result
    assert (root / "README.md").read_text(encoding="utf-8") == "# 見出し\n"


def test_writing_through_a_link_inside_the_sandbox_writes_its_target_and_keeps_permissions(world):
    root, _ = world
    box = root / "sandbox"
    (box / "notes.md").write_text("old", encoding="utf-8")
    os.chmod(box / "notes.md", 0o640)
    os.symlink("notes.md", box / "alias.md")
    assert run_tool(make_write_file(box), {"path": "sandbox/alias.md", "content": "new"})[1] is False
    assert (box / "notes.md").read_text(encoding="utf-8") == "new" and (box / "alias.md").is_symlink()
    assert stat.S_IMODE((box / "notes.md").stat().st_mode) == 0o640
    assert sorted(p.name for p in box.iterdir()) == ["alias.md", "notes.md"]  # no temp file left


# -- an interrupted write leaves the old file whole --------------------------------------------------

KILLED_WRITER = """
import sys
from harness_lab.tools import make_write_file
print("ready", flush=True)
make_write_file(sys.argv[1])(path="sandbox/big.txt", content="n" * 40_000_000)
"""


def test_a_write_killed_half_way_leaves_the_old_file_or_the_new_one_never_half(world):
    root, _ = world
    box = root / "sandbox"
    (box / "big.txt").write_text("old", encoding="utf-8")
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(box)],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert child.stdout.readline() == b"ready\n"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and child.poll() is None:
        try:
            sizes = [p.stat().st_size for p in box.iterdir()]
        except FileNotFoundError:  # a temp file renamed away under our feet: look again
            continue
        if any(s != 3 and s < 40_000_000 for s in sizes):
            break  # the write is under way: now is the worst moment to die
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert (box / "big.txt").read_bytes() in (b"old", b"n" * 40_000_000)


# -- where dir_fd is missing (Windows) ----------------------------------------------------------------


def test_without_dir_fd_the_fallback_still_refuses_what_stands_still(world, monkeypatch):
    """The fallback resolves by name and checks, as before: links out, hard links, FIFOs and ``..`` are
    refused; only a swap racing the call gets through (the module's docstring says so)."""
    monkeypatch.setattr(confine, "_BENEATH", False)  # what Windows has: no dir_fd calls
    root, outside = world
    box = root / "sandbox"
    os.symlink(outside / "secret.txt", root / "link.txt")
    os.symlink("README.md", root / "alias.md")
    os.link(outside / "secret.txt", box / "mirror.txt")
    os.mkfifo(box / "pipe")
    reader, writer, delete = make_read_file(root), make_write_file(box), make_delete_file(box)
    assert run_tool(reader, {"path": "alias.md"}) == ("# 見出し\n", False)
    assert refused(run_tool(reader, {"path": "link.txt"}), "file.outside_root")
    assert refused(run_tool(reader, {"path": "../outside/secret.txt"}), "file.outside_root")
    assert refused(run_tool(reader, {"path": "sandbox/mirror.txt"}), "file.hard_link")
    assert refused(run_tool(writer, {"path": "sandbox/mirror.txt", "content": "x"}), "file.hard_link")
    assert refused(run_tool(writer, {"path": "sandbox/pipe", "content": "x"}, timeout=3), "file.not_regular")
    assert refused(run_tool(delete, {"path": "sandbox/mirror.txt"}), "file.hard_link")
    assert refused(run_tool(writer, {"path": "README.md", "content": "x"}), "file.outside_sandbox")
    assert run_tool(writer, {"path": "sandbox/new/a.md", "content": "あ"})[1] is False
    assert run_tool(reader, {"path": "sandbox/new/a.md"}) == ("あ", False)
    assert run_tool(delete, {"path": "sandbox/new/a.md"})[1] is False
