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

from ..text import t
from .checking import Miss, Piece, Point

__all__ = ["READ_FILE", "read_file"]

SECRET = "SECRET-TOKEN"


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
    (project / "docs" / "a.md").write_text("docs の中身", encoding="utf-8")
    for place in (top / "secret.txt", top / "project-secrets" / "key.txt", top / "shared" / "key.txt"):
        place.parent.mkdir(exist_ok=True)
        place.write_text(SECRET, encoding="utf-8")
    os.symlink(top / "secret.txt", project / "link.txt")
    os.symlink(top / "shared", project / "shared", target_is_directory=True)
    os.symlink(project, top / "here")  # a root that is itself a link (macOS's /tmp is one)
    return project


def _leaks(fn, root: Path, path: str) -> bool:
    try:
        got = fn(path, root=str(root))
    except NotImplementedError:  # the unwritten TODO refuses everything: it must not count as a pass
        raise
    except Exception:
        return False
    return SECRET in str(got)


def _reads_inside(fn) -> Miss | None:
    project = _project()
    got = fn("README.md", root=str(project))
    if not isinstance(got, str) or not got.startswith("# タイトル"):
        return Miss("lesson.l6.read_file.not_read", {"got": repr(got)[:40]})
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
        if _leaks(fn, project, path):
            return Miss("lesson.l6.read_file.escaped", {"path": shown})
    if _leaks(fn, project, "../project-secrets/key.txt"):
        return Miss("lesson.l6.read_file.sibling")
    return None


def _refuses_a_link_out(fn) -> Miss | None:
    project = _project()
    if _leaks(fn, project, "link.txt"):
        return Miss("lesson.l6.read_file.link", {"path": "link.txt"})
    if _leaks(fn, project, "shared/key.txt"):
        return Miss("lesson.l6.read_file.link", {"path": "shared/key.txt"})
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
)
