"""Lesson 6 (notebook 05): ``read_file`` confined to the project root, and its check.

The check tries every way out the lesson names: ``..``, an absolute path, a sibling folder whose name
starts with the root's (``project-secrets`` beside ``project``: the hole a string prefix test leaves,
resolved or not), a symlink inside the root that points out (to a file, or to a folder), and a root
that is itself a link (where a check that resolves only one side refuses what is inside).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..grading.sandbox import describe_error
from ..text import t
from .checking import Miss, Piece, Point

__all__ = ["READ_FILE", "read_file"]

SECRET = "SECRET-TOKEN"
LONG = "長い記録の1行です。\n" * 500  # 5,500 characters: more than the 2,000 the tool returns


def read_file(path, root="."):
    """root の内側にあるファイルの先頭 2000 文字。リンクをたどった本当の行き先で、内側かを確かめる"""
    base = Path(root).resolve()  # ルート自身がリンクでも、本当の場所にそろえる
    target = (base / path).resolve()  # リンクを最後までたどった、本当の行き先
    if not target.is_relative_to(base):  # 文字列の startswith ではなく、パスの部品で比べる
        raise PermissionError(t("file.outside_root", path=path))  # 拒否の文は、ノートブックの言語で
    with open(target, encoding="utf-8") as f:
        return f.read(2000)


def _project() -> Path:
    """``top/project`` with a README and docs; secrets beside it in ``top/``, reachable only by escaping.

    top/secret.txt, top/project-secrets/key.txt (a sibling whose name starts with "project"),
    top/shared/key.txt; inside the root: link.txt -> top/secret.txt, shared -> top/shared/.
    """
    top = Path(tempfile.mkdtemp(prefix="harness_lab_check_"))
    project = top / "project"
    (project / "docs").mkdir(parents=True)
    (project / "README.md").write_text("# タイトル\n本文\n", encoding="utf-8")
    (project / "long.md").write_text(LONG, encoding="utf-8")
    (project / "docs" / "a.md").write_text("docs の中身", encoding="utf-8")
    for place in (top / "secret.txt", top / "project-secrets" / "key.txt", top / "shared" / "key.txt"):
        place.parent.mkdir(exist_ok=True)
        place.write_text(SECRET, encoding="utf-8")
    os.symlink(top / "secret.txt", project / "link.txt")
    os.symlink(top / "shared", project / "shared", target_is_directory=True)
    os.symlink(project, top / "here")  # a root that is itself a link (macOS's /tmp is one)
    return project


def _leaks(fn, root: Path, path: str) -> bool | Miss:
    """True when ``path`` read the secret, False when it was refused with an OSError (PermissionError),
    or the Miss for a refusal in another form (a returned string, another exception)."""
    try:
        got = fn(path, root=str(root))
    except NotImplementedError:  # the unwritten TODO refuses everything: it must not count as a pass
        raise
    except OSError:
        return False
    except Exception as exc:  # try_read and the model's is_error result both expect an OSError
        return Miss("lesson.l6.read_file.not_permission", {"error": describe_error(exc)})
    if SECRET in str(got):
        return True
    return Miss("lesson.l6.read_file.returned_refusal", {"got": repr(got)[:40]})


def _reads_inside(fn) -> Miss | None:
    project = _project()
    got = fn("README.md", root=str(project))
    if isinstance(got, bytes | bytearray):  # read, but handed to the model as bytes, not text
        return Miss("lesson.l6.read_file.not_str", {"type": type(got).__name__})
    if isinstance(got, str) and got and not got.startswith("# タイトル"):
        return Miss("lesson.l6.read_file.wrong_root", {"got": repr(got)[:40]})
    if not isinstance(got, str) or not got.startswith("# タイトル"):
        return Miss("lesson.l6.read_file.not_read", {"got": repr(got)[:40]})
    long = fn("long.md", root=str(project))
    if isinstance(long, str) and LONG.startswith(long) and 1996 < len(long.encode()) <= 2000:
        # read(2000) in binary mode counts bytes: a Japanese character is three of them
        return Miss("lesson.l6.read_file.bytes", {"length": len(long)})
    if not isinstance(long, str) or not LONG.startswith(long) or len(long) != 2000:
        return Miss("lesson.l6.read_file.limit", {"length": len(long) if isinstance(long, str) else "?"})
    try:  # the notebook passes its roots as Path objects (LAB / "project")
        as_path = fn("README.md", root=project)
    except NotImplementedError:
        raise
    except Exception as exc:
        return Miss("lesson.l6.read_file.path_root", {"error": describe_error(exc)})
    if as_path != got:
        return Miss("lesson.l6.read_file.path_root", {"error": repr(as_path)[:40]})
    try:
        inner = fn("docs/../docs/a.md", root=str(project))
    except Exception:
        inner = None
    if inner != "docs の中身":
        return Miss("lesson.l6.read_file.inner_path")
    try:
        through_link = fn("README.md", root=str(project.parent / "here"))
    except Exception:
        through_link = None
    if not isinstance(through_link, str) or not through_link.startswith("# タイトル"):
        return Miss("lesson.l6.read_file.root_link")
    return None


def _refuses_outside(fn) -> Miss | None:
    project = _project()
    for path, shown in (("../secret.txt", "../secret.txt"), (str(project.parent / "secret.txt"), "/…/secret.txt")):
        leaked = _leaks(fn, project, path)
        if leaked is True:
            return Miss("lesson.l6.read_file.escaped", {"path": shown})
        if leaked:
            return leaked
    leaked = _leaks(fn, project, "../project-secrets/key.txt")
    if leaked is True:
        return Miss("lesson.l6.read_file.sibling")
    return leaked or None


def _refuses_a_link_out(fn) -> Miss | None:
    project = _project()
    for path in ("link.txt", "shared/key.txt"):
        leaked = _leaks(fn, project, path)
        if leaked is True:
            return Miss("lesson.l6.read_file.link", {"path": path})
        if leaked:
            return leaked
    return None


READ_FILE = Piece(
    "read_file",
    6,
    (
        Point("lesson.l6.read_file.p1", _reads_inside),
        Point("lesson.l6.read_file.p2", _refuses_outside),
        Point("lesson.l6.read_file.p3", _refuses_a_link_out),
    ),
    read_file,
    hint="lesson.hint.read_file",
    shape='read_file(path, root=".")',
)
