"""Two editions kept in step (notebooks/editions.py) and the language a notebook chooses (hl.use_language).

The build refuses to write either edition when their code differs beyond strings and comments (a string
that reads as a name where the Japanese has it is code: a scenario, a piece, a path), in one line naming
the file, the cell and the token; an English cell whose Japanese twin changed since it
was stamped is a stale translation, named here; stamping records the Japanese as it is now. A
notebook's ``hl.use_language`` holds in its kernel and in every process the kernel starts, over
whatever ``HARNESS_LAB_LANG`` says. Nothing here starts a kernel: the notebooks' own runs are in
tests/grading/test_notebooks.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import harness_lab as hl
from harness_lab.text import CATALOG, explicit_language, lang, speaking, t, use_language
from notebooks import build
from notebooks.editions import (
    EditionError,
    check_twins,
    code_shape,
    marker_lines,
    read_source,
    stale_cells,
    stamp,
    twin_of,
)
from notebooks.exercise_build import SOLUTION, STARTER, check_variants, variant

ROOT = Path(__file__).resolve().parents[2]
ENGLISH_SOURCES = sorted((ROOT / "notebooks" / "src" / "en").glob("*.py")) + sorted(
    (ROOT / "exercises" / "src" / "en").glob("*.py")
)


def shape(source: str) -> list[str]:
    return [tok.text for tok in code_shape(textwrap.dedent(source))]


# --- the code two editions share --------------------------------------------------------------------


def test_strings_comments_and_f_string_text_are_the_translators():
    ja = """
        print("こんにちは")  # あいさつ
        msg = f"最大ターン数 {MAX_TURNS} に達しました（{used!r} 使用）"
        note = ("一行目"
                "二行目")
    """
    en = """
        print('Hello')  # greet
        msg = f"{MAX_TURNS} turns reached ({used!r} used)"
        note = ("one line, joined")
    """
    assert shape(ja) == shape(en)


@pytest.mark.parametrize(
    "en",
    [
        'msg = f"{MAX_TURNS + 1} turns reached ({used!r} used)"',  # another expression in a placeholder
        'msg = f"{MAX_TURNS} turns reached ({used} used)"',  # the conversion dropped
        'msg = f"{MAX_TURNS} turns reached"',  # a placeholder dropped
        'msg = "{MAX_TURNS} turns reached ({used!r} used)"',  # no longer an f-string
        'message = f"{MAX_TURNS} turns reached ({used!r} used)"',  # another name
    ],
)
def test_anything_but_the_words_is_code(en):
    assert shape('msg = f"最大ターン数 {MAX_TURNS} に達しました（{used!r} 使用）"') != shape(en)


def twins(tmp_path: Path, ja: str, en: str, folder: str = "notebooks") -> tuple[Path, Path]:
    """A Japanese source and its English twin in a tree shaped like the project's."""
    ja_path = tmp_path / folder / "src" / "01_demo.py"
    en_path = twin_of(ja_path)
    en_path.parent.mkdir(parents=True)
    ja_path.write_text(textwrap.dedent(ja).lstrip(), encoding="utf-8")
    en_path.write_text(textwrap.dedent(en).lstrip(), encoding="utf-8")
    return ja_path, en_path


JA = """
    # %% [markdown]
    # # 見出し

    # %% tags=["setup"]
    import harness_lab as hl

    hl.use_language("ja")  # 日本語

    # %% [markdown]
    # 説明です。

    # %%
    LIMIT = 3
    print(f"上限は {LIMIT} ターンです")
"""
EN = """
    # %% [markdown]
    # # A heading

    # %% tags=["setup"]
    import harness_lab as hl

    hl.use_language("en")  # English

    # %% [markdown]
    # An explanation.

    # %%
    LIMIT = 3
    print(f"The limit is {LIMIT} turns")
"""


def test_twins_that_differ_only_in_words_agree(tmp_path):
    check_twins(*twins(tmp_path, JA, EN))


@pytest.mark.parametrize(
    ("en", "expected"),
    [
        (
            EN.replace("print(f", "print(LIMIT, f"),
            "notebooks/src/en/01_demo.py cell 4 (line 14): the code differs from the Japanese at token 7: "
            "'LIMIT' where the Japanese has '<str>' (only strings and comments may differ)",
        ),
        (
            EN.replace("{LIMIT} turns", "{LIMIT + 1} turns"),
            "notebooks/src/en/01_demo.py cell 4 (line 14): the code differs from the Japanese at token 8: "
            "'{LIMIT + 1}' where the Japanese has '{LIMIT}' (only strings and comments may differ)",
        ),
        (EN.replace('# %% tags=["setup"]', "# %%"), "notebooks/src/en/01_demo.py cell 2: its tags/metadata {} differ"),
        (EN.replace("# %% [markdown]\n    # An explanation.\n", ""), "notebooks/src/en/01_demo.py: 3 cells, but"),
        (
            EN.replace("# %%\n    LIMIT", "# %% [markdown]\n    # LIMIT"),
            "notebooks/src/en/01_demo.py cell 4: a markdown",
        ),
    ],
    ids=["a token added", "a placeholder changed", "a tag dropped", "a cell dropped", "a kind changed"],
)
def test_code_drift_is_refused_in_one_line_naming_file_cell_and_token(tmp_path, en, expected):
    ja_path, en_path = twins(tmp_path, JA, en)
    with pytest.raises(EditionError) as raised:
        check_twins(ja_path, en_path)
    message = str(raised.value).replace(str(tmp_path) + "/", "")
    assert message.startswith(expected) and "\n" not in message, message


@pytest.mark.parametrize(
    ("ja_code", "en_code"),
    [
        ('hl.Run(hl.connect("long_task"))', 'hl.Run(hl.connect("abab"))'),
        ('lessons.check("run_agent", fn)', 'lessons.check("run_tools", fn)'),
        ('open("sandbox/report.md")', 'open("sandbox/notes.md")'),
        ('LANGUAGE = "ja"', 'LANGUAGE = "en"'),  # "ja" -> "en" only as what use_language is given
        ('hl.use_language("ja")', 'hl.use_language("fr")'),
    ],
    ids=["a scenario", "a piece", "a path", "a language outside use_language", "another language"],
)
def test_a_string_that_reads_as_a_name_is_code(tmp_path, ja_code, en_code):
    ja_path, en_path = twins(tmp_path, JA.replace("LIMIT = 3", ja_code), EN.replace("LIMIT = 3", en_code))
    with pytest.raises(EditionError) as raised:
        check_twins(ja_path, en_path)
    message = str(raised.value).replace(str(tmp_path) + "/", "")
    assert message.startswith("notebooks/src/en/01_demo.py cell 4 (line 13): the code differs"), message
    assert "a string that reads as a name is code" in message


def test_a_japanese_string_leaves_its_english_free_even_when_the_english_reads_as_a_name(tmp_path):
    ja = JA.replace("LIMIT = 3", 'DONE, SEP, LANG = "送信しました", "／ 回", "ja"\nhl.use_language(LANG)')
    en = EN.replace("LIMIT = 3", 'DONE, SEP, LANG = "Sent.", "/", "ja"\nhl.use_language(LANG)')
    check_twins(*twins(tmp_path, ja, en))


@pytest.mark.parametrize(
    ("where", "before", "after"),
    [('"budget_burning", "{}"]', "long_task", "abab"), ('lessons.check("{}", ', "run_agent", "run_tools")],
    ids=["a scenario name", "the piece a check judges"],
)
def test_the_course_refuses_a_renamed_scenario_or_piece_in_english_naming_the_cell(tmp_path, where, before, after):
    """The audit's drift (issue 25.2): notebook 05's English with a scenario or a piece renamed."""
    ja_path = tmp_path / "notebooks" / "src" / "05_full_harness.py"
    en_path = twin_of(ja_path)
    en_path.parent.mkdir(parents=True)
    shutil.copy(ROOT / "notebooks" / "src" / ja_path.name, ja_path)
    text = (ROOT / "notebooks" / "src" / "en" / ja_path.name).read_text(encoding="utf-8")
    old, new = where.format(before), where.format(after)
    assert text.count(old) == 1
    en_path.write_text(text.replace(old, new), encoding="utf-8")
    cell = next(n for n, c in enumerate(read_source(en_path).cells, start=1) if new in c.source)
    with pytest.raises(EditionError) as raised:
        check_twins(ja_path, en_path)
    message = str(raised.value)
    assert f"05_full_harness.py cell {cell} (line " in message and "\n" not in message, message
    assert f"the string {after!r} where the Japanese has {before!r}" in message


def test_the_build_writes_neither_edition_when_they_differ(tmp_path, capsys):
    ja_path, _ = twins(tmp_path, JA, EN.replace("LIMIT = 3", "LIMIT = 4"))
    assert build.main([str(ja_path)]) == 1
    assert list(tmp_path.rglob("*.ipynb")) == []
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cell 4 (line 13)" in err and "'4' where the Japanese has '3'" in err


# --- stale translations and stamping ----------------------------------------------------------------


def test_a_japanese_cell_changed_after_stamping_names_its_stale_twin(tmp_path):
    ja_path, en_path = twins(tmp_path, JA, EN)
    assert len(stale_cells(ja_path, en_path)) == 4  # never stamped
    assert stamp(en_path) == 4
    assert stale_cells(ja_path, en_path) == []
    ja_path.write_text(
        ja_path.read_text(encoding="utf-8").replace("説明です。", "説明を直しました。"), encoding="utf-8"
    )
    assert stale_cells(ja_path, en_path) == [
        f"stale translation: {en_path} cell 3 — its Japanese source changed since the English was written"
    ]
    # the translator updates the English, then stamps: only the marker lines change
    before = en_path.read_text(encoding="utf-8").splitlines()
    assert stamp(en_path) == 1
    after = en_path.read_text(encoding="utf-8").splitlines()
    assert stale_cells(ja_path, en_path) == []
    changed = [n for n, (a, b) in enumerate(zip(before, after)) if a != b]
    assert len(before) == len(after) and changed == [marker_lines("\n".join(after))[2]]
    assert after[changed[0]].startswith("# %% [markdown] ja=")


def test_a_changed_comment_or_string_in_japanese_code_is_stale_too(tmp_path):
    ja_path, en_path = twins(tmp_path, JA, EN)
    stamp(en_path)
    ja_path.write_text(ja_path.read_text(encoding="utf-8").replace("上限は", "上限はいま"), encoding="utf-8")
    assert [line.split(" — ")[0][-6:] for line in stale_cells(ja_path, en_path)] == ["cell 4"]


def test_stamping_refuses_twins_whose_code_differs(tmp_path):
    _, en_path = twins(tmp_path, JA, EN.replace("LIMIT = 3", "LIMIT = 4"))
    text = en_path.read_text(encoding="utf-8")
    with pytest.raises(EditionError, match="cell 4"):
        stamp(en_path)
    assert en_path.read_text(encoding="utf-8") == text


def test_the_build_option_stamps_and_check_reports(tmp_path, capsys):
    ja_path, en_path = twins(tmp_path, JA, EN)
    assert build.main(["--check", str(ja_path)]) == 1
    assert capsys.readouterr().err.count("stale translation:") == 4
    assert build.main(["--stamp", "--check", str(en_path)]) == 0
    assert build.main(["--stamp", str(ja_path)]) == 1  # a Japanese source is never stamped
    assert "--stamp takes an English source" in capsys.readouterr().err


def test_a_real_source_edited_in_japanese_only_goes_stale(tmp_path):
    """The course's own twins, copied: one Japanese prose cell changed, its twin named."""
    ja_path = tmp_path / "exercises" / "src" / "level1_tiered_policy.py"
    twin_of(ja_path).parent.mkdir(parents=True)
    shutil.copy(ROOT / "exercises" / "src" / ja_path.name, ja_path)
    shutil.copy(ROOT / "exercises" / "src" / "en" / ja_path.name, twin_of(ja_path))
    text = ja_path.read_text(encoding="utf-8")
    ja_path.write_text(text.replace("# ## 課題\n", "# ## 課題（改訂）\n"), encoding="utf-8")
    assert [line.split(" — ")[0].rsplit(" ", 2)[1:] for line in stale_cells(ja_path, twin_of(ja_path))] == [
        ["cell", "2"]
    ]


@pytest.mark.parametrize("en_path", ENGLISH_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_english_source_matches_its_japanese_twin_and_is_up_to_date(en_path):
    check_twins(twin_of(en_path), en_path)
    assert stale_cells(twin_of(en_path), en_path) == []


def test_the_english_sources_are_found():
    assert [p.name for p in ENGLISH_SOURCES if p.parent.parent.parent.name == "exercises"] == [
        "level1_tiered_policy.py",
        "level2_missing_gate.py",
    ]


def test_an_exercise_source_pairs_each_starter_with_its_solution(tmp_path):
    source = tmp_path / "exercises" / "src" / "level1_demo.py"
    source.parent.mkdir(parents=True)
    header = "# ---\n# jupyter:\n#   harness_lab:\n#     exercise: level1\n# ---\n\n"
    starter = '# %% tags=["answer", "starter"]\nPOLICY = {}\n\n'
    solved = '# %% tags=["answer", "solution"]\nPOLICY = {"get_time": "allow"}\n\n'
    source.write_text(header + starter + solved + '# %% tags=["grade"]\ncheck()\n', encoding="utf-8")
    nb = read_source(source)
    check_variants(nb, source)
    assert [c.source for c in variant(nb, STARTER).cells] == ["POLICY = {}", "check()"]
    assert [c.metadata["tags"] for c in variant(nb, SOLUTION).cells] == [["answer"], ["grade"]]
    assert [c.id for c in variant(nb, SOLUTION).cells] == ["l1-01", "l1-02"]
    source.write_text(header + solved + starter, encoding="utf-8")
    with pytest.raises(EditionError, match=r"level1_demo.py cell 1: a solution cell must follow its starter cell"):
        check_variants(read_source(source), source)


# --- the language a notebook chooses ----------------------------------------------------------------


def test_use_language_overrides_the_environment_and_speaking_is_a_block(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "ja")
    assert lang() == "ja"
    use_language("en")
    assert lang() == "en" and os.environ["HARNESS_LAB_LANG"] == "en"
    with speaking("ja"):
        assert t("stop.max_turns", limit=3).startswith("最大ターン数 3")
    assert t("stop.max_turns", limit=3).startswith("Reached the maximum of 3 turns")


def test_nobody_chose_when_the_environment_names_no_language_we_speak(monkeypatch):
    monkeypatch.setenv("HARNESS_LAB_LANG", "fr")
    assert explicit_language() is None and lang() == "ja"
    monkeypatch.setenv("HARNESS_LAB_LANG", "en_US")
    assert explicit_language() == "en"


def test_an_unknown_language_is_a_clear_error():
    with pytest.raises(ValueError, match=r"use_language には \"ja\" か \"en\" を渡してください.*'english'"):
        use_language("english")
    assert explicit_language() is None


def _misuses():
    from harness_lab.messages import block_dict
    from harness_lab.ui import card
    from harness_lab.ui.diagram import LoopDiagram
    from harness_lab.ui.plots import turn_usages

    return {
        "a dollar limit of -1": (lambda: hl.TokenBudget(usd=-1), "0 より大きいドル額", "dollars > 0"),
        "a place the diagram lacks": (lambda: LoopDiagram(highlight="nowhere"), "ループ図に", "no place 'nowhere'"),
        "a card for a number": (lambda: card(3), "カードにできません", "No card for int"),
        "a number's usage plotted": (lambda: turn_usages(3), "使用量を読み取れません", "per-turn usage from int"),
        "a number as a content block": (lambda: block_dict(3), "内容ブロックではありません", "not a content block"),
    }


@pytest.mark.parametrize(
    "misuse",
    [
        "a number as a content block",
        "a dollar limit of -1",
        "a place the diagram lacks",
        "a card for a number",
        "a number's usage plotted",
    ],
)
@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_misused_valve_or_panel_is_refused_in_the_notebooks_language(language, misuse):
    call, japanese, english = _misuses()[misuse]
    with speaking(language), pytest.raises((TypeError, ValueError)) as refused:
        call()
    assert (japanese if language == "ja" else english) in str(refused.value)


CHILDREN = """
import multiprocessing, subprocess, sys
import harness_lab as hl
from harness_lab.grading import run_limited
from harness_lab.text import t

def said():
    return t("stop.max_turns", limit=3)[:12]

if __name__ == "__main__":
    hl.use_language(sys.argv[1])
    print(said())
    print(run_limited(said, timeout=20).value)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        print(pool.apply(said))
    code = "from harness_lab.text import t; print(t('stop.max_turns', limit=3)[:12])"
    print(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip())
"""


@pytest.mark.parametrize(("chosen", "environment"), [("en", "ja")])
def test_the_kernels_choice_holds_in_forked_and_spawned_children(tmp_path, chosen, environment):
    script = tmp_path / "children.py"
    script.write_text(CHILDREN, encoding="utf-8")
    env = {**os.environ, "HARNESS_LAB_LANG": environment}
    done = subprocess.run(
        [sys.executable, str(script), chosen], env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    with speaking(chosen):  # t formats an English count (the catalog's "{limit:turns}"), str.format does not
        expected = t("stop.max_turns", limit=3)[:12]
    assert [line.strip() for line in done.stdout.splitlines()] == [expected.strip()] * 4, done.stdout + done.stderr


def test_after_use_language_every_layer_speaks_it_whatever_the_environment(monkeypatch, capsys):
    """The setup cell's call comes after the imports: checks, panels, plots and the diagram follow it."""
    monkeypatch.setenv("HARNESS_LAB_LANG", "ja")
    import harness_lab as hl
    from harness_lab import lessons
    from harness_lab.ui import Stepper, diagram
    from harness_lab.ui.plots import plot_token_burn

    hl.use_language("en")

    def run_tools(content, impls):
        raise NotImplementedError  # the TODO cell as shipped

    lessons.check("run_tools", run_tools)
    english = CATALOG["lesson.check.unwritten"][1]
    assert capsys.readouterr().out.strip() == english.format(name="run_tools", show='lessons.show("run_tools")')
    stepper = Stepper(hl.Run(hl.connect("weather"), tools=[hl.get_time], valves=[]), "What time is it?")
    assert stepper.next_button.description == CATALOG["ui.button.next"][1]
    stepper.run_all()
    assert CATALOG["ui.plot.burn_title"][1] in [ax.get_title() for ax in plot_token_burn(stepper).axes]
    assert CATALOG["ui.diagram.title"][1] in str(diagram()._repr_mimebundle_())
