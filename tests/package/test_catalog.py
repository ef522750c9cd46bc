"""The ja/en catalog: both languages take the same placeholders, every key the code uses exists,
and every entry is used somewhere.

Keys are found in the source: string literals shaped like a key (``"stop.max_turns"``) and keys built
by an f-string (``t(f"ui.valve.{name}")``), whose family (``ui.valve.``) must have entries, and whose
every member the code can produce is checked where the code lists them (the diagram's nodes and steps,
the stops that are not valves, the four valves).
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

import harness_lab.cli_catalog  # the command's help; these four imports add their entries
import harness_lab.grading
import harness_lab.lessons
import harness_lab.ui  # noqa: F401
from harness_lab.steps import STEPS
from harness_lab.text import CATALOG, speaking, t
from harness_lab.ui.diagram import LESSON_VALVES, NODES, OTHER_STOPS
from notebooks.edition_prose import models_differ, numbers_differ

PACKAGE = Path(__file__).resolve().parents[2] / "harness_lab"
FAMILIES = (
    "stop",
    "event",
    "result",
    "usage",
    "file",
    "tool",
    "cli",
    "client",
    "http",
    "ui",
    "grade",
    "lesson",
    "model",
    "cell",
)
KEY = re.compile(rf"(?:{'|'.join(FAMILIES)})\.[a-z0-9_]+(?:\.[a-z0-9_]+)*")
PREFIX = re.compile(rf"(?:{'|'.join(FAMILIES)})\.[a-z0-9_.]*")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def source_keys() -> tuple[set[str], set[str]]:
    """(keys written out whole, prefixes of keys built by f-strings) in the package's source."""
    whole, prefixes = set(), set()
    for path in PACKAGE.rglob("*.py"):
        if path.name.endswith("catalog.py"):  # the catalogs define keys, not use them
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
        for node in ast.walk(tree):
            head = None
            if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                head = node.values[0].value  # f"ui.valve.{name}": the family "ui.valve."
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, ast.Constant):
                head = node.left.value  # "grade.l2.gap." + key
            elif (
                isinstance(node, ast.Constant)
                and id(node) not in parts
                and isinstance(node.value, str)
                and KEY.fullmatch(node.value)
            ):
                whole.add(node.value)
            if isinstance(head, str) and PREFIX.fullmatch(head):
                prefixes.add(head)
    return whole, prefixes


WHOLE, PREFIXES = source_keys()


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_japanese_and_english_take_the_same_placeholders(key):
    ja, en = CATALOG[key]
    assert placeholders(ja) == placeholders(en), key
    assert ja.strip() and en.strip()


# 、。「」, kana, kanji, full-width forms
JAPANESE_SCRIPT = re.compile(r"[\u3001-\u303f\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_each_side_is_written_in_its_own_language(key):
    # The English approval prompt said "n, no or いいえ denies" (and no はい): a Japanese word left in the
    # English side. A Japanese side without Japanese is an untranslated English one, unless both are code.
    ja, en = CATALOG[key]
    assert not JAPANESE_SCRIPT.search(en), en
    assert JAPANESE_SCRIPT.search(ja) or ja == en, ja


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_both_sides_state_the_same_numbers_and_models(key):
    # The English said a refused response "went into the history twice" where the Japanese said once more,
    # and left out the Japanese "(0回か、2回以上)": a count one side states and the other does not is drift.
    # Numbers are compared as written each language's way (notebooks/edition_prose.py: 100万 / a million),
    # and a model as its family and version, which the numbers do not see in an id (claude-sonnet-4-6).
    ja, en = CATALOG[key]
    assert numbers_differ(ja, en) == "", f"{ja}\n{en}"
    assert models_differ(ja, en) == "", f"{ja}\n{en}"


def test_every_key_written_in_the_code_exists():
    assert sorted(WHOLE - CATALOG.keys()) == []


def test_every_key_family_built_by_an_f_string_has_entries():
    assert PREFIXES, "the scan found no f-string keys: it is broken"
    assert sorted(p for p in PREFIXES if not any(k.startswith(p) for k in CATALOG)) == []


def test_every_member_the_ui_builds_exists():
    built = [f"ui.diagram.{n}" for n in (*NODES, *STEPS, "end")]
    built += [f"ui.stop_name.{s}" for s in OTHER_STOPS]
    built += [f"ui.valve.{v.name}" for v in LESSON_VALVES]
    assert sorted(k for k in built if k not in CATALOG) == []
    for key in built:  # and they format without values
        assert t(key)


def said_members() -> tuple[set[str], list[str]]:
    """(the ``lesson.said.*`` keys the lessons' ``said(scene, what)`` calls name outright, the calls whose
    ``what`` is only known when they run). ``_said = partial(said, "l2")`` fixes the scene, in its module and
    in the modules that import it."""
    trees = {path.stem: ast.parse(path.read_text(encoding="utf-8")) for path in (PACKAGE / "lessons").glob("*.py")}
    scene_of = {  # (module, alias) -> scene
        (module, node.targets[0].id): node.value.args[1].value
        for module, tree in trees.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and ast.unparse(node.value.func) == "partial"
        and ast.unparse(node.value.args[0]) == "said"
    }
    built, loose = set(), []
    for module, tree in trees.items():
        names = {alias: scene for (where, alias), scene in scene_of.items() if where == module}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module in trees:
                names |= {
                    a.name: scene_of[node.module, a.name] for a in node.names if (node.module, a.name) in scene_of
                }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id in names:
                scene, what = ast.Constant(names[node.func.id]), node.args[0]
            elif node.func.id == "said" and len(node.args) >= 2:
                scene, what = node.args[:2]
            else:
                continue
            if isinstance(scene, ast.Constant) and isinstance(what, ast.Constant):
                built.add(f"lesson.said.{scene.value}.{what.value}")
            else:
                loose.append(f"{module}: {ast.unparse(node)}")
    return built, loose


def said_in_loops() -> set[str]:
    """The ``lesson.said.*`` keys built from a loop's variable, as the code that builds them asks for them."""
    from harness_lab.grading.spies import Recorder
    from harness_lab.lessons import diagnosis, lesson5, scenes

    asked: set[str] = set()
    real = scenes.t
    scenes.t = lambda key, **values: asked.add(key) or real(key, **values)
    try:
        diagnosis.outputs(), scenes.scene_tools(), lesson5._tools(Recorder())
    finally:
        scenes.t = real
    return asked


# The calls whose ``what`` is a loop's variable, each asked for by ``said_in_loops``.
SAID_IN_LOOPS = [
    "diagnosis: said('l6_outputs', name)",
    "lesson5: _said(name)",
    "scenes: said('tools', name)",
]


def test_every_member_the_lessons_and_graders_build_exists_in_both_languages():
    # Keys reached only through a prefix built when the code runs: the prefix scan above finds the family
    # (lesson.said.), never a member one scene or one ANSWERS option names that the catalog lacks.
    from harness_lab.grading.level1_scene import ANSWER_OPTIONS

    named, loose = said_members()
    assert sorted(loose) == SAID_IN_LOOPS  # a new loop's keys: ask for them in said_in_loops
    said = named | said_in_loops()
    options = {f"grade.l1.opt.{q}.{key}" for q, keys in ANSWER_OPTIONS.items() for key in keys}
    options |= {f"grade.l1.options.{q}" for q in ANSWER_OPTIONS}
    assert len(said) >= 78 and len(options) >= 13 + 3, "the scan lost members: it is broken"
    assert sorted((said | options) - CATALOG.keys()) == []
    assert (
        sorted(k for k in CATALOG if k.startswith(("lesson.said.", "grade.l1.opt.")) and k not in said | options) == []
    )
    for key in said | options:
        assert all(side.strip() for side in CATALOG[key]), key


def test_every_entry_is_used():
    used = {k for k in CATALOG if k in WHOLE or any(k.startswith(p) for p in PREFIXES)}
    assert sorted(CATALOG.keys() - used) == []


def test_a_key_defined_twice_is_refused():
    from harness_lab.text import add

    with pytest.raises(ValueError, match=r"stop\.max_turns"):
        add({"stop.max_turns": ("x", "x")})


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_stuck_answer_cell_is_named_as_a_raising_one_is(language):
    # Both get the code cell's number: "answer のセル 2" read as the second answer cell, in English.
    with speaking(language):
        raised = t("grade.nb.cell_raised", cell=3, error="ValueError")
        stuck = t("grade.nb.cell_timeout", cell=3, seconds="10")
    named = re.search(r"答えのセル（3番目のコードセル）|An answer cell \(code cell 3\)", raised).group()
    assert named in stuck


# What grade-class prints with a count of one: "1 timeouts", "1 meet every criterion" read wrong.
COUNTED = {
    "grade.class.progress": {"done": 1, "total": 1, "timeouts": 1, "errors": 1},
    "grade.class.done": {"total": 1, "seconds": "1.0", "graded": 1, "reused": 1},
    "grade.class.summary": dict.fromkeys(
        ("learners", "notebooks", "passed", "failed", "timeouts", "errors", "missing", "skipped"), 1
    ),
    "grade.class.interrupted": {"done": 1, "state": "state.json"},
    "grade.class.rates_note": {"total": 1},
    "grade.class.record_untrusted": {"count": 1, "state": "state.json"},
    "grade.class.report_incomplete": {"count": 1, "out": "r"},
}


@pytest.mark.parametrize("key", sorted(COUNTED))
def test_a_count_of_one_reads_right_in_english(key):
    with speaking("en"):
        text = t(key, **COUNTED[key])
    assert not re.search(r"\b1 (learners|notebooks|timeouts|errors|files|entries|meet)\b", text), text


# Hints for code a check or the grader cut off at its time limit: the learner reads that the limit ended
# it (no error of the code's own), then the cause the hint names.
CUT_OFF = (
    "lesson.timeout",
    "lesson.l2.run_agent.stalled",
    "lesson.l6.run_agent.not_generator_stalled",
    "grade.timeout",
    "grade.l1.c1.tiers_unseen",
)


@pytest.mark.parametrize("key", CUT_OFF)
def test_a_hint_for_code_cut_off_says_the_time_limit_stopped_it(key):
    ja, en = CATALOG[key]
    assert re.search(r"(確認|採点)の.*制限時間.*を過ぎても.*打ち切りました", ja), ja
    assert re.search(r"ran past the .*time limit.*, so the (check|grader) stopped it", en), en
