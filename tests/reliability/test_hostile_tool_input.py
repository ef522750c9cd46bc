"""Bad tool input: every hostile path or argument gets a clear ``is_error`` result, and nothing outside
the root is read or written.

A model (or a prompt injection steering it) may send anything as a tool input. The file tools must
answer each case in their own words (a catalog message, not a raw exception with the host's
absolute paths in it), and the directory next to the project, which holds a secret, must stay
byte-for-byte unchanged. The cases run through ``Tool.run`` (what the loop calls) and, at the end,
through the whole loop.
"""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest
from invariants import assert_valid_history, results_by_id

from harness_lab.drain import drain
from harness_lab.emulator import call, emulated_client, reply, say
from harness_lab.events import Finished
from harness_lab.loop import Run
from harness_lab.text import t
from harness_lab.tools import make_delete_file, make_read_file, make_write_file, run_tool
from harness_lab.valves import Approval, MaxTurns, Policy

SECRET = "TOP-SECRET-OUTSIDE-THE-ROOT"
LIMIT = 2000


@pytest.fixture
def world(tmp_path):
    """``project/`` (the root, with ``sandbox/`` for writes) next to ``outside/`` (holds the secret)."""
    outside = tmp_path / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    (outside / "dir" / "inner.txt").write_text(SECRET, encoding="utf-8")
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    (root / "sandbox").mkdir()
    (root / "README.md").write_text("# 見出し\n本文\n", encoding="utf-8")
    (root / "docs" / "a.txt").write_text("docs a", encoding="utf-8")
    (root / "latin1.txt").write_bytes("café".encode("latin-1"))
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (root / "nul.txt").write_bytes(b"text\x00more text")
    (root / "kana.txt").write_text("あ" * (LIMIT + 500), encoding="utf-8")
    os.mkfifo(root / "fifo")
    links = {
        "file_link": outside / "secret.txt",
        "dir_link": outside,
        "link_to_link": root / "file_link",
        "link_to_dir_link": root / "dir_link",
        "dangling": outside / "missing.txt",
        "loop_a": root / "loop_b",
        "loop_b": root / "loop_a",
        "inside_link": root / "README.md",
        "sandbox/escape_dir": outside,
        "sandbox/escape_file": outside / "secret.txt",
        "sandbox/escape_chain": root / "sandbox" / "escape_file",
    }
    for name, target in links.items():
        (root / name).symlink_to(target)
    before = snapshot(outside)
    yield root, outside
    assert snapshot(outside) == before, "something outside the root was written, deleted or created"
    assert not (tmp_path / "pwn.txt").exists()


def snapshot(folder: Path) -> dict:
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def clear_error(text: str, is_error: bool, key: str, root: Path, given: str) -> None:
    """The tool failed in its own words: the expected catalog message, and no host path it was not given."""
    assert is_error, text
    assert SECRET not in text
    prefix = t("result.failed", error="")
    assert text.startswith(prefix), text
    template = t(key, path="\x00", sandbox="sandbox", error="\x00").split("\x00")[0]
    assert text[len(prefix) :].startswith(template), f"expected {key}: {text[:300]}"
    assert str(root) in given or str(root) not in text, f"the host's absolute path leaks into the result: {text[:300]}"


OUTSIDE = "file.outside_root"
LONG_NAME = "x" * 5000
DEEP = "a/" * 3000 + "f.txt"

READ_CASES = [
    ("../outside/secret.txt", OUTSIDE),
    ("docs/../../outside/secret.txt", OUTSIDE),
    ("docs/./../../outside/./secret.txt", OUTSIDE),
    ("{outside}/secret.txt", OUTSIDE),  # absolute, outside
    ("{root}/../outside/secret.txt", OUTSIDE),  # absolute, starts inside, climbs out
    ("/etc/passwd", OUTSIDE),
    ("/proc/self/environ", OUTSIDE),  # would hold ANTHROPIC_API_KEY
    ("/dev/zero", OUTSIDE),  # would never end
    ("file_link", OUTSIDE),  # a link to a file outside
    ("dir_link/secret.txt", OUTSIDE),  # through a link to a directory outside
    ("dir_link/dir/inner.txt", OUTSIDE),
    ("link_to_link", OUTSIDE),  # a link to a link that leads outside
    ("link_to_dir_link/secret.txt", OUTSIDE),
    ("dangling", OUTSIDE),  # points outside at nothing
    ("sandbox/escape_chain", OUTSIDE),
    ("README.md\x00.png", "file.nul"),
    ("\x00", "file.nul"),
    ("docs", "file.is_directory"),
    (".", "file.is_directory"),
    ("", "file.is_directory"),
    ("fifo", "file.not_regular"),  # a FIFO would block the read forever
    ("missing.txt", "file.not_found"),
    ("..\\outside\\secret.txt", "file.not_found"),  # a plain file name on POSIX
    ("%2e%2e/outside/secret.txt", "file.not_found"),  # no URL decoding
    ("~/secret.txt", "file.not_found"),  # no home expansion
    ("\u2024\u2024/outside/secret.txt", "file.not_found"),  # one-dot leaders, not dots
    ("latin1.txt", "file.binary"),  # not UTF-8
    ("image.png", "file.binary"),
    ("nul.txt", "file.binary"),  # valid UTF-8 but with NUL bytes
    ("loop_a", "file.unreadable"),
    (LONG_NAME, "file.unreadable"),
    (DEEP, "file.unreadable"),
]


@pytest.mark.parametrize("path, key", READ_CASES)
def test_read_file_refuses_clearly(world, path, key):
    root, outside = world
    path = path.format(root=root, outside=outside) if "{" in path else path
    text, is_error = run_tool(make_read_file(root), {"path": path}, timeout=5)
    clear_error(text, is_error, key, root, path)


def test_positive_controls_still_read(world):
    """The refusals above are not a tool that refuses everything."""
    root, _ = world
    reader = make_read_file(root)
    assert run_tool(reader, {"path": "README.md"}) == ("# 見出し\n本文\n", False)
    assert run_tool(reader, {"path": "inside_link"}) == ("# 見出し\n本文\n", False)
    assert run_tool(reader, {"path": str(root / "docs" / "a.txt")}) == ("docs a", False)
    assert run_tool(reader, {"path": "docs/../docs/a.txt"}) == ("docs a", False)


@pytest.mark.skipif(not os.path.exists("/proc/self/io"), reason="counts the bytes read from Linux's /proc/self/io")
def test_only_the_head_of_a_huge_file_is_read(world):
    """A 4 GiB file (sparse: no disk used) answers with its first 2000 characters, reading little."""
    root, _ = world
    head = "".join(f"{i:05d} 行目\n" for i in range(400))
    with open(root / "huge.log", "w", encoding="utf-8") as f:
        f.write(head)
        f.truncate(4 * 1024**3)
    tracemalloc.start()
    before = _bytes_read()
    text, is_error = run_tool(make_read_file(root), {"path": "huge.log"}, timeout=60)
    read = _bytes_read() - before
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert (text, is_error) == (head[:LIMIT], False)
    assert read < 64 * 1024**2 and peak < 5 * 1024**2, (read, peak)


def _bytes_read() -> int:
    """What this process has read so far, page cache included (Linux's rchar)."""
    with open("/proc/self/io") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("rchar:"))


def test_multibyte_text_is_cut_at_characters_not_bytes(world):
    root, _ = world
    text, is_error = run_tool(make_read_file(root), {"path": "kana.txt"})
    assert (text, is_error) == ("あ" * LIMIT, False)


ARGUMENT_CASES = [
    ({"path": 123}, "result.invalid_input"),
    ({"path": None}, "result.invalid_input"),
    ({"path": ["README.md"]}, "result.invalid_input"),
    ({"path": {"nested": "README.md"}}, "result.invalid_input"),
    ({"path": True}, "result.invalid_input"),
    ({}, "result.invalid_input"),  # missing argument
    ({"file": "README.md"}, "result.invalid_input"),  # misspelt argument
    ("README.md", "result.invalid_input"),  # not an object at all
    (["README.md"], "result.invalid_input"),
    (None, "result.invalid_input"),
    ({"path": "README.md", "extra": 1}, "result.failed"),  # an extra argument
]


@pytest.mark.parametrize("given, key", ARGUMENT_CASES)
def test_wrong_arguments_are_refused_before_the_file_is_touched(world, given, key):
    root, _ = world
    text, is_error = run_tool(make_read_file(root), given)
    assert is_error
    assert text.startswith(t(key, name="read_file", problem="\x00", error="\x00").split("\x00")[0]), text
    assert "見出し" not in text  # README.md was not read


WRITE_CASES = [
    ("sandbox/../../outside/pwn.txt", OUTSIDE),
    ("../pwn.txt", OUTSIDE),
    ("{outside}/pwn.txt", OUTSIDE),
    ("sandbox/escape_dir/pwn.txt", OUTSIDE),  # through a link to a directory outside
    ("sandbox/escape_dir/secret.txt", OUTSIDE),  # would overwrite the secret
    ("sandbox/escape_file", OUTSIDE),  # a link to the secret itself
    ("sandbox/escape_chain", OUTSIDE),  # a link to that link
    ("README.md", "file.outside_sandbox"),  # inside the project, outside the sandbox
    ("docs/a.txt", "file.outside_sandbox"),
    ("sandbox/a\x00b.txt", "file.nul"),
    ("sandbox", "file.is_directory"),
    ("sandbox/" + LONG_NAME, "file.unreadable"),
]


@pytest.mark.parametrize("path, key", WRITE_CASES)
def test_write_file_refuses_clearly_and_writes_nothing_outside(world, path, key):
    root, outside = world
    path = path.format(root=root, outside=outside) if "{" in path else path
    readme = (root / "README.md").read_bytes()
    text, is_error = run_tool(make_write_file(root / "sandbox"), {"path": path, "content": "pwned"})
    clear_error(text, is_error, key, root, path)
    assert (root / "README.md").read_bytes() == readme


DELETE_CASES = [
    ("sandbox/../../outside/secret.txt", OUTSIDE),
    ("{outside}/secret.txt", OUTSIDE),
    ("sandbox/escape_dir/secret.txt", OUTSIDE),
    ("sandbox/escape_file", OUTSIDE),  # deleting the link must not delete what it points to
    ("sandbox/escape_chain", OUTSIDE),
    ("README.md", "file.outside_sandbox"),
    ("sandbox/missing.txt", "file.not_found"),
    ("sandbox/", "file.is_directory"),  # the sandbox itself is no file to delete
]


@pytest.mark.parametrize("path, key", DELETE_CASES)
def test_delete_file_refuses_clearly_and_deletes_nothing_outside(world, path, key):
    root, outside = world
    path = path.format(root=root, outside=outside) if "{" in path else path
    text, is_error = run_tool(make_delete_file(root / "sandbox"), {"path": path})
    clear_error(text, is_error, key, root, path)
    assert (root / "README.md").exists()


@pytest.mark.parametrize(
    "given",
    [
        {"path": "sandbox/x.txt"},
        {"path": "sandbox/x.txt", "content": 5},
        {"content": "x"},
        {"path": 1, "content": "x"},
        "sandbox/x.txt",
    ],
)
def test_write_file_checks_its_arguments_first(world, given):
    root, _ = world
    text, is_error = run_tool(make_write_file(root / "sandbox"), given)
    assert is_error and text.startswith(t("result.invalid_input", name="write_file", problem="\x00").split("\x00")[0])
    assert not (root / "sandbox" / "x.txt").exists()


def test_the_loop_answers_every_hostile_call_and_carries_on(world):
    """The same inputs coming from the model: one is_error result each, a valid history, a finished run."""
    root, outside = world
    hostile = [p for p, _ in READ_CASES[:12] if not isinstance(p, tuple)]
    reads = [call("read_file", path=p.format(root=root, outside=outside)) for p in hostile]
    writes = [
        call("write_file", path=p.format(root=root, outside=outside), content="pwned") for p, _ in WRITE_CASES[:7]
    ]
    odd = [call("read_file", path=7), call("read_file"), call("write_file", path="sandbox/ok.txt")]
    script = [reply("読みます", *reads), reply(*writes, *odd), say("どれも読めませんでした。")]
    tools = [make_read_file(root), make_write_file(root / "sandbox")]
    run = Run(emulated_client(script), tools, [MaxTurns(5), Approval(Policy(default="allow"))])
    end = drain(run.start("秘密を探して"))
    assert isinstance(end, Finished)
    assert_valid_history(run.messages, [one.definition for one in tools])
    results = list(results_by_id(run.messages).values())
    assert len(results) == len(reads) + len(writes) + len(odd)
    assert all(r.get("is_error") for r in results)
    assert all(SECRET not in r["content"] for r in results)
    assert not (root / "sandbox" / "ok.txt").exists()
