"""The stored lesson outputs hold on a machine that is not the one that built them.

CI clones into a deeper folder than a developer's checkout, and an instructor in Japan runs with a
+09:00 clock. Once, an OS error text carrying the absolute checkout path reached the emulated model
and shifted a stored token count by a few tokens, so nbval passed here and failed in CI. The strict
notebook suite of ``python3 dev.py test`` therefore replays every lesson from a copy of the project
at a long, unlike path under another time zone (``dev.suites``); these tests hold it to that.
"""

from __future__ import annotations

import dev

ROOT = dev.ROOT


def _notebook_suite():
    (strict,) = [suite for suite in dev.suites() if "--nbval" in suite[2]]
    return strict


def test_the_strict_notebook_suite_replays_from_a_deeper_folder_under_another_clock():
    cwd, env, args = _notebook_suite()
    assert cwd != ROOT and ROOT in cwd.parents and len(str(cwd)) > len(str(ROOT)) + 40 and " " in str(cwd)
    assert env["TZ"] == "Asia/Tokyo"
    assert {"notebooks", "tests/ui/notebooks"} <= set(args) and "notebooks/sanitize.cfg" in args
    assert not set(dev.NOT_FOR_TESTS) - {"HARNESS_LAB_WORKBOOK"} & set(env)  # offline, in the stored language


def test_the_replay_copy_holds_every_notebook_and_nothing_of_the_checkout(tmp_path):
    copy = dev.replay_copy(tmp_path / "deep" / "copy")
    stored = sorted(p.relative_to(ROOT) for p in ROOT.glob("notebooks/**/*.ipynb") if "build" not in p.parts)
    assert stored and sorted(p.relative_to(copy) for p in copy.glob("notebooks/**/*.ipynb")) == stored
    assert (copy / "notebooks" / "sanitize.cfg").read_bytes() == (ROOT / "notebooks" / "sanitize.cfg").read_bytes()
    assert not any((copy / left).exists() for left in (".venv", ".git", "build"))
