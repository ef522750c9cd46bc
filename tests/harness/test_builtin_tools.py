"""The built-in tools: get_time, a confined read_file, and the sandboxed high-impact ones (lesson 6)."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import pytest

from harness_lab.tools import get_time, make_delete_file, make_http_post, make_read_file, make_write_file, run_tool


def test_get_time_is_iso_with_offset_and_now():
    text, is_error = run_tool(get_time, {})
    assert not is_error
    stamp = datetime.fromisoformat(text)
    assert stamp.tzinfo is not None
    assert abs(stamp - datetime.now(UTC)) < timedelta(seconds=5)


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    (root / "README.md").write_text("# タイトル\n本文\n", encoding="utf-8")
    (root / "docs").mkdir()
    (root / "docs" / "a.txt").write_text("docs a", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("top secret", encoding="utf-8")
    return root


def test_reads_inside_the_root(project):
    reader = make_read_file(project)
    assert run_tool(reader, {"path": "README.md"}) == ("# タイトル\n本文\n", False)
    assert run_tool(reader, {"path": "docs/../docs/a.txt"}) == ("docs a", False)


@pytest.mark.parametrize("path", ["../secret.txt", "docs/../../secret.txt", "../../../../etc/passwd"])
def test_refuses_dot_dot_escapes(project, path):
    text, is_error = run_tool(make_read_file(project), {"path": path})
    assert is_error and "secret" not in text.replace(path, "") and "外" in text


def test_refuses_absolute_paths_outside(project, tmp_path):
    text, is_error = run_tool(make_read_file(project), {"path": str(tmp_path / "secret.txt")})
    assert is_error and "top secret" not in text


def test_accepts_an_absolute_path_that_is_inside(project):
    assert run_tool(make_read_file(project), {"path": str(project / "README.md")})[1] is False


def test_refuses_a_symlink_inside_that_points_outside(project, tmp_path):
    (project / "link.txt").symlink_to(tmp_path / "secret.txt")
    (project / "linkdir").symlink_to(tmp_path)
    reader = make_read_file(project)
    for path in ("link.txt", "linkdir/secret.txt"):
        text, is_error = run_tool(reader, {"path": path})
        assert is_error and "top secret" not in text


def test_the_lessons_startswith_check_would_have_been_fooled(project, tmp_path):
    # Why resolve(): the link's own path is inside the root as a string.
    link = project / "link.txt"
    link.symlink_to(tmp_path / "secret.txt")
    assert str(link.absolute()).startswith(str(project) + os.sep)
    assert run_tool(make_read_file(project), {"path": "link.txt"})[1] is True


def test_a_symlink_that_stays_inside_is_fine(project):
    (project / "alias.md").symlink_to(project / "README.md")
    assert run_tool(make_read_file(project), {"path": "alias.md"})[0].startswith("# タイトル")


def test_clear_errors_for_missing_directory_binary_and_nul(project):
    reader = make_read_file(project)
    (project / "image.bin").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (project / "latin1.txt").write_bytes("café".encode("latin-1"))
    cases = {
        "nope.md": "見つかりません",
        "docs": "ディレクトリ",
        "image.bin": "UTF-8",
        "latin1.txt": "UTF-8",
        "READ\x00ME.md": "NUL",
    }
    for path, words in cases.items():
        text, is_error = run_tool(reader, {"path": path})
        assert is_error and words in text, (path, text)


def test_reads_only_the_first_2000_characters_without_decoding_the_rest(project):
    # Valid text first, invalid UTF-8 far beyond: reading the whole file would fail on it.
    big = project / "big.txt"
    big.write_bytes("あ".encode() * 3000 + b"\xff\xfe" * 100_000)
    text, is_error = run_tool(make_read_file(project), {"path": "big.txt"})
    assert not is_error and text == "あ" * 2000


@pytest.mark.parametrize(
    "head, tail",
    [(b"a" * 5000, b"\xff"), ("日本語の行\n".encode() * 400, "é".encode("latin-1"))],
    ids=["ascii then a stray byte", "japanese then latin-1"],
)
def test_a_stray_byte_soon_after_the_first_2000_characters_does_not_make_text_binary(project, head, tail):
    (project / "notes.txt").write_bytes(head + tail)
    text, is_error = run_tool(make_read_file(project), {"path": "notes.txt"})
    assert not is_error and text == head.decode()[:2000]


def test_a_file_cut_inside_a_character_is_still_binary_only_at_its_real_end(project):
    (project / "short.txt").write_bytes("あい".encode() + "う".encode()[:2])  # ends mid-character
    assert run_tool(make_read_file(project), {"path": "short.txt"})[1] is True
    (project / "long.txt").write_bytes("あ".encode() * 2000 + "い".encode()[:1])
    assert run_tool(make_read_file(project), {"path": "long.txt"}) == ("あ" * 2000, False)


def test_default_root_is_the_working_directory_when_the_tool_is_made(project, monkeypatch):
    # Fixed at creation: another tool's os.chdir("/") later must not turn the root into "/".
    monkeypatch.chdir(project)
    reader, writer = make_read_file(), make_write_file()
    monkeypatch.chdir("/")
    assert run_tool(reader, {"path": "README.md"})[0].startswith("# タイトル")
    assert run_tool(reader, {"path": "../secret.txt"})[1] is True
    text, is_error = run_tool(reader, {"path": "etc/passwd"})  # the project has no etc/
    assert is_error and "見つかりません" in text and "root:" not in text
    assert run_tool(writer, {"path": "sandbox/n.md", "content": "x"})[1] is False
    assert (project / "sandbox" / "n.md").read_text(encoding="utf-8") == "x"


def test_write_and_delete_stay_in_the_sandbox(tmp_path):
    box = tmp_path / "sandbox"
    write, delete = make_write_file(box), make_delete_file(box)
    assert write.high_impact and delete.high_impact
    assert run_tool(write, {"path": "sandbox/notes/a.md", "content": "メモ"})[1] is False
    assert (box / "notes" / "a.md").read_text(encoding="utf-8") == "メモ"
    for path in ("a.md", "../a.md", "sandbox/../a.md", str(tmp_path / "a.md")):
        assert run_tool(write, {"path": path, "content": "x"})[1] is True, path
    assert not (tmp_path / "a.md").exists()
    assert run_tool(delete, {"path": "sandbox/notes/a.md"})[1] is False
    assert not (box / "notes" / "a.md").exists()
    assert run_tool(delete, {"path": "sandbox/notes/a.md"})[1] is True


def test_sandbox_is_created_only_when_a_tool_runs(tmp_path):
    box = tmp_path / "later"
    write = make_write_file(box)
    assert not box.exists()
    run_tool(write, {"path": "later/x.txt", "content": "1"})
    assert box.is_dir()


def test_http_post_only_records(tmp_path):
    post = make_http_post()
    assert post.high_impact
    _text, is_error = run_tool(post, {"url": "https://example.com/hook", "body": '{"a": 1}'})
    assert not is_error and post.sent == [{"url": "https://example.com/hook", "body": '{"a": 1}'}]
