"""my_harness.py keeps what passed and runs on its own (issues 26.8, 29.8, 30.2).

A piece is written with what it reads from its notebook: the imports (``from pathlib import Path``),
constants as code that evaluates back to the same value (``float("inf")``), helpers; what cannot be
written is refused with the name and the reason, never saved as a file that fails later. Pieces are
found by parsing, so a comment inside a function is part of it. A file that is not UTF-8 or not
Python is never rewritten and says so in one line. The saved file imports and runs every piece in a
fresh process.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from harness_lab import lessons
from harness_lab.lessons.workbook import Workbook
from harness_lab.text import t


def cells(tmp_path: Path, *sources: str, prefix: str = "cell") -> dict:
    """Run ``sources`` as notebook cells, one after another, in one namespace (each with a file, as
    IPython gives a cell), so a function's source is readable and its globals are the notebook's."""
    namespace: dict = {"__name__": "__main__"}
    for number, source in enumerate(sources):
        path = tmp_path / f"{prefix}{number}.py"
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    return namespace


SIGNATURE_WITH_INF = """
    def signature_of(content):
        parts = [f"{b.name}({json.dumps(b.input, ensure_ascii=False, sort_keys=True)})"
                 for b in content if b.type == "tool_use"]
        assert len(parts) < LIMIT
        return " | ".join(sorted(parts))
"""


def test_a_constant_that_python_prints_as_inf_is_written_so_that_it_loads(tmp_path, workbook_here, capsys):
    ns = cells(tmp_path, "import json\nLIMIT = float('inf')\nFLOOR = -float('inf')\n", SIGNATURE_WITH_INF)
    assert lessons.check("signature_of", ns["signature_of"]) is ns["signature_of"]
    assert t("lesson.check.saved", name="signature_of", path="my_harness.py") in capsys.readouterr().out
    text = workbook_here.read_text(encoding="utf-8")
    assert 'LIMIT = float("inf")' in text
    assert lessons.use("signature_of") is not lessons.reference("signature_of")  # it loads: the learner's own
    assert t("lesson.use.mine", name="signature_of", path="my_harness.py") in capsys.readouterr().out


def test_a_comment_that_looks_like_a_marker_stays_inside_its_function(tmp_path, workbook_here):
    ns = cells(
        tmp_path,
        "import json\n",
        """
        def signature_of(content):
            parts = [f"{b.name}({json.dumps(b.input, ensure_ascii=False, sort_keys=True)})"
                     for b in content if b.type == "tool_use"]
        # ==== end ====
        # ==== run_tools (lesson 2) ====
            return " | ".join(sorted(parts))
        """,
        """
        def next_step(response):
            return {"tool_use": "run_tools", "pause_turn": "resend", "end_turn": "finish",
                    "stop_sequence": "finish"}.get(response.stop_reason, "stop")
        """,
    )
    lessons.check("signature_of", ns["signature_of"])
    lessons.check("next_step", ns["next_step"])  # the second save rewrites the file from what it parsed
    held = Workbook(workbook_here).pieces()
    assert set(held) == {"signature_of", "next_step"}
    assert held["signature_of"][1].rstrip().endswith('return " | ".join(sorted(parts))')
    from harness_lab.emulator import call
    from harness_lab.lessons.scenes import response_of

    mine = lessons.use("signature_of")
    assert mine(response_of(call("get_time")).content) == "get_time({})"


def test_a_name_that_cannot_be_written_is_refused_with_its_name_and_why(tmp_path, workbook_here, capsys):
    ns = cells(
        tmp_path,
        "import json\nLIMIT = []\nLIMIT.append(LIMIT)\n",
        SIGNATURE_WITH_INF.replace("len(parts) < LIMIT", "LIMIT"),
    )
    used = lessons.check("signature_of", ns["signature_of"])
    out = capsys.readouterr().out
    assert used is ns["signature_of"]  # it passed: the lesson goes on with it
    why = t("lesson.workbook.why.holds_itself")
    assert t("lesson.check.not_saved_name", name="signature_of", used="LIMIT", why=why) in out
    assert not workbook_here.exists()

    ns = cells(
        tmp_path,
        "import json\nimport threading\nLIMIT = threading.Lock()\n",
        SIGNATURE_WITH_INF.replace("len(parts) < LIMIT", "LIMIT"),
    )
    lessons.check("signature_of", ns["signature_of"])
    assert t("lesson.workbook.why.object") in capsys.readouterr().out and not workbook_here.exists()


def test_a_builtin_the_notebook_shadows_is_left_to_the_builtin(tmp_path, workbook_here):
    # IPython puts its own open() into a notebook's namespace; a piece that opens a file must still be saved.
    source = "def read_file(path, root='.'):\n    with open(Path(root) / path, encoding='utf-8') as f:\n        return f.read()\n"
    ns = cells(
        tmp_path, "import functools\nimport io\nfrom pathlib import Path\nopen = functools.partial(io.open)\n", source
    )
    assert lessons.workbook().save("read_file", 6, ns["read_file"], pieces=lessons.PIECES) is None
    text = workbook_here.read_text(encoding="utf-8")
    assert "from pathlib import Path" in text and "open =" not in text


def test_a_workbook_in_shift_jis_is_named_and_left_alone(tmp_path, workbook_here, capsys):
    original = "# あなたのハーネス\nX = 1\n".encode("shift_jis")
    workbook_here.write_bytes(original)
    ns = cells(tmp_path, "import json\nLIMIT = 3\n", SIGNATURE_WITH_INF)
    assert lessons.check("signature_of", ns["signature_of"]) is ns["signature_of"]
    out = capsys.readouterr().out
    assert t("lesson.workbook.not_utf8", path="my_harness.py") in out
    assert workbook_here.read_bytes() == original  # the learner's file, untouched
    assert lessons.use("signature_of") is lessons.reference("signature_of")
    line = capsys.readouterr().out
    assert line.count("\n") == 1 and "UTF-8" in line and 'lessons.show("signature_of")' in line


def test_a_workbook_with_a_byte_order_mark_is_read_and_kept(tmp_path, workbook_here, capsys):
    # Some Windows editors save UTF-8 with a byte-order mark; Python imports such a file.
    workbook_here.write_bytes("\ufeff# あなたのハーネス\nX = 1\n".encode("utf-8"))
    ns = cells(tmp_path, "import json\nLIMIT = 3\n", SIGNATURE_WITH_INF)
    assert lessons.check("signature_of", ns["signature_of"]) is ns["signature_of"]
    assert t("lesson.workbook.not_utf8", path="my_harness.py") not in capsys.readouterr().out
    assert "def signature_of" in workbook_here.read_text(encoding="utf-8-sig")  # saved, as for any UTF-8 file
    assert lessons.use("signature_of") is not lessons.reference("signature_of")


def test_a_workbook_with_a_syntax_error_is_not_overwritten(tmp_path, workbook_here, capsys):
    workbook_here.write_text("def mine(:\n    pass\n", encoding="utf-8")
    ns = cells(tmp_path, "import json\nLIMIT = 3\n", SIGNATURE_WITH_INF)
    lessons.check("signature_of", ns["signature_of"])
    assert "1 行目" in capsys.readouterr().out
    assert workbook_here.read_text(encoding="utf-8") == "def mine(:\n    pass\n"


def test_a_later_lessons_piece_is_not_overwritten_by_an_earlier_one(tmp_path, workbook_here):
    from tests.lessons.answers6 import RIGHT_RUN_AGENT

    namespace = cells(tmp_path, "MAX_TURNS = 8\nTOKEN_BUDGET = 40_000\n", RIGHT_RUN_AGENT)
    assert lessons.workbook().save("run_agent", 6, namespace["run_agent"], pieces=lessons.PIECES) is None
    bare = lessons.reference("run_agent", lesson=2)
    assert lessons.workbook().save("run_agent", 2, bare, pieces=lessons.PIECES) == t(
        "lesson.check.not_saved_later", name="run_agent", path="my_harness.py", lesson=6
    )
    assert Workbook(workbook_here).pieces()["run_agent"][0] == 6


# Every piece as the lessons write it, each in a notebook of its own whose earlier cells import what
# it uses (``from pathlib import Path``, ``datetime``): the workbook must carry those imports.
HEAD = "import json\nimport harness_lab as hl\nfrom harness_lab import lessons\nMODEL = 'claude-sonnet-5'\n"
COURSE = [
    ("run_tools", 2, "lesson2", ""),
    ("run_agent", 2, "lesson2", ""),
    ("next_step", 3, "lesson3", ""),
    ("signature_of", 4, "lesson4", ""),
    # The references word what they tell the model in the notebook's language (harness_lab.text.t).
    (
        "run_tool_uses",
        5,
        "lesson5",
        'from harness_lab.text import t\nHIGH_IMPACT = {"write_file", "http_post", "delete_file"}\n',
    ),
    ("read_file", 6, "confinement", "from pathlib import Path\nfrom harness_lab.text import t\n"),
    (
        "run_agent",
        6,
        "lesson6",
        "from harness_lab.lessons import finished, stopped, turn\nMAX_TURNS = 8\nTOKEN_BUDGET = 40_000\n",
    ),
    ("stop_message", 7, "lesson7", ""),
]
CAPSTONE_HEAD = """
from datetime import datetime
from urllib.parse import urlsplit

ALLOWED_HOSTS = {"hooks.example.com"}
GET_TIME = {"name": "get_time", "description": "時刻", "input_schema": {"type": "object", "properties": {}}}
HTTP_POST = {"name": "http_post", "description": "送る", "input_schema": {"type": "object", "properties": {}}}


def get_time():
    return datetime.now().isoformat()
"""


def test_the_saved_workbook_imports_and_runs_every_piece_in_a_fresh_process(tmp_path, workbook_here):
    import importlib
    import inspect

    from tests.lessons.answers_capstone import RIGHT_MY_AGENT

    for name, lesson, module, preamble in COURSE:
        reference = getattr(importlib.import_module(f"harness_lab.lessons.{module}"), name)
        ns = cells(tmp_path, HEAD + preamble, inspect.getsource(reference), prefix=f"{name}{lesson}_")
        assert lessons.workbook().save(name, lesson, ns[name], pieces=lessons.PIECES) is None, name
    ns = cells(tmp_path, HEAD + CAPSTONE_HEAD, RIGHT_MY_AGENT, prefix="capstone_")
    assert lessons.workbook().save("my_agent", 6, ns["my_agent"], pieces=lessons.PIECES) is None

    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("fresh_workbook.py")), str(workbook_here)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.split() == [
        "run_tools",
        "next_step",
        "signature_of",
        "run_tool_uses",
        "read_file",
        "run_agent",
        "my_agent",
        "stop_message",
    ]


# A def line reads names where it stands, outside the body: a default (ROOT, and ENCODING inside a
# lambda default), an annotation (PathLike). The workbook runs that line again, so it needs them too.
READ_WITH_DEFAULTS = """
    def read_file(path: PathLike, root=ROOT, *, limit: int = LIMIT, opener=lambda p: open(p, encoding=ENCODING)) -> str:
        base = Path(root).resolve()
        target = (base / path).resolve()
        if not target.is_relative_to(base):
            raise PermissionError(path)
        with opener(target) as f:
            return f.read(limit)
"""
CALL_IN_A_FRESH_PROCESS = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("my_harness", sys.argv[1])
mine = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mine)
print(mine.read_file("README.md"))
"""


def test_names_a_def_line_reads_in_defaults_and_annotations_are_written_with_the_piece(tmp_path, workbook_here, capsys):
    head = "from os import PathLike\nfrom pathlib import Path\nROOT = '.'\nLIMIT = 2000\nENCODING = 'utf-8'\n"
    ns = cells(tmp_path, head, READ_WITH_DEFAULTS)
    assert lessons.check("read_file", ns["read_file"]) is ns["read_file"]
    assert t("lesson.check.saved", name="read_file", path="my_harness.py") in capsys.readouterr().out
    text = workbook_here.read_text(encoding="utf-8")
    assert "from os import PathLike" in text and "ROOT = '.'" in text and "ENCODING = 'utf-8'" in text
    project = tmp_path / "project"
    project.mkdir()
    (project / "README.md").write_text("# 見出し\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", CALL_IN_A_FRESH_PROCESS, str(workbook_here)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=project,  # ROOT = '.': the default reads the project the process runs in
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "# 見出し\n\n"


def test_sections_are_found_by_parsing_not_by_lines_that_look_like_markers():
    from harness_lab.lessons.workbook import sections

    text = textwrap.dedent('''
        import json

        # ==== one (lesson 2) ====
        def one():
            """
        # ==== two (lesson 3) ====
            """
            return 1
        # ==== end ====


        # ==== three (lesson 4) ====
        THREE = 3

        # note
        for _name, _piece in lessons.PIECES.items():
            pass
    ''')
    found = sections(text)
    assert set(found) == {"one", "three"}
    assert "# ==== two (lesson 3) ====" in found["one"][1] and "# ==== end ====" not in found["one"][1]
    assert found["three"] == (4, "THREE = 3")
