"""deploy/jupyterhub/collect.sh, run as root, against learners who point it at things.

Two throwaway accounts: cora plants something where an exercise notebook should be, dan (collected
after her) hands in plain notebooks. Whatever cora plants, the collection must refuse it with a
reason, take her other notebook, go on to dan, and end by itself: a run still going at
DEADLINE (a FIFO that blocks the collector, say) fails with subprocess's TimeoutExpired. Every run is held to 256 MB
of written file (RLIMIT_FSIZE), so a collector that follows a link to /dev/zero fails this test
instead of filling the disk. Needs root, useradd and runuser; skipped, saying why, without them.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import resource
import shutil
import signal
import stat
import subprocess
from pathlib import Path

import hub_accounts
import pytest
from hub_processes import table

ROOT = Path(__file__).resolve().parents[2]
COLLECT = ROOT / "deploy" / "jupyterhub" / "collect.sh"
# One pair of accounts per xdist worker: two workers sharing names would delete each other's.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
LEARNERS = tuple(f"hltest-{name}{WORKER}" for name in ("cora", "dan"))
CORA, DAN = LEARNERS
EXERCISES = sorted(p.name for p in (ROOT / "exercises").glob("*.ipynb"))
FIRST, OTHER = EXERCISES[0], EXERCISES[1]
WRITE_CAP = 256 << 20
DEADLINE = 60  # seconds for a whole run, ten times what a loaded machine needs: a net, not a measure


@pytest.fixture(scope="module")
def homes():
    if os.name != "posix" or os.geteuid() != 0:
        pytest.skip("needs root: the collector reads each home as its learner")
    if missing := hub_accounts.missing_tools():
        pytest.skip(f"missing {', '.join(missing)} (package passwd / util-linux): cannot make test learners")
    made = []
    try:
        for name in LEARNERS:
            hub_accounts.create(name)
            made.append(name)
        yield {name: Path(pwd.getpwnam(name).pw_dir) for name in LEARNERS}
    finally:
        # A collector that blocks (on a FIFO, say) leaves readers running as the learner: end them first.
        uids = {pwd.getpwnam(name).pw_uid for name in made}
        for proc in table().values():
            if proc.uid in uids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(proc.pid, signal.SIGKILL)
        for name in made:
            hub_accounts.remove(name)


def notebook(learner: str, exercise: str) -> bytes:
    return f'{{"cells": [], "learner": "{learner}", "exercise": "{exercise}"}}'.encode()


@pytest.fixture
def fresh(homes):
    """Both homes hold exactly their own two notebooks, owned by their learner."""
    for learner, home in homes.items():
        folder = home / "exercises"
        if folder.is_symlink() or folder.is_file():
            folder.unlink()
        elif folder.exists():
            shutil.rmtree(folder)
        for name in ("elsewhere", "real-exercises"):
            shutil.rmtree(home / name, ignore_errors=True)
        assert hub_accounts.as_user(learner, "mkdir", "-m", "700", str(folder)).returncode == 0
        for exercise in EXERCISES:
            path = folder / exercise
            path.write_bytes(notebook(learner, exercise))
            os.chown(path, *_ids(learner))
    return homes


def _ids(learner: str) -> tuple[int, int]:
    account = pwd.getpwnam(learner)
    return account.pw_uid, account.pw_gid


def collect(submissions: Path, *args: str | bytes, edition: str | None = "en") -> subprocess.CompletedProcess:
    """collect.sh as root runs it; its lines in the language of ``edition`` (None: root's shell names none)."""

    def cap_writes() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (WRITE_CAP, WRITE_CAP))

    return subprocess.run(
        [str(COLLECT), str(submissions), *args],
        capture_output=True,
        text=True,
        errors="backslashreplace",
        stdin=subprocess.DEVNULL,
        timeout=DEADLINE,
        preexec_fn=cap_writes,
        env={
            **{k: v for k, v in os.environ.items() if k != "HARNESS_HUB_EDITION"},
            "HARNESS_HUB_COURSE": str(ROOT),
            **({"HARNESS_HUB_EDITION": edition} if edition else {}),
        },
    )


def handed(submissions: Path, learner: str) -> dict[str, bytes]:
    folder = submissions / learner
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}


def as_cora(*command: str) -> None:
    done = hub_accounts.as_user(CORA, *command)
    assert done.returncode == 0, (command, done.stderr)


def test_plain_notebooks_are_collected_and_the_folder_mirrors_the_homes(fresh, tmp_path):
    submissions = tmp_path / "week6"
    done = collect(submissions, *LEARNERS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{name}: 2 of 2 exercise notebooks collected" for name in LEARNERS]
    for learner in LEARNERS:
        assert handed(submissions, learner) == {e: notebook(learner, e) for e in EXERCISES}
        assert stat.S_IMODE((submissions / learner).stat().st_mode) == 0o700
    as_cora("rm", str(fresh[CORA] / "exercises" / OTHER))
    done = collect(submissions, *LEARNERS)
    assert f"{CORA}: {OTHER} not handed in" in done.stdout.splitlines()
    assert handed(submissions, CORA) == {FIRST: notebook(CORA, FIRST)}


def _link_to(target):
    """Plant, as cora, a link to ``target(homes)`` in place of her first notebook."""
    return lambda homes: as_cora("ln", "-s", target(homes), str(homes[CORA] / "exercises" / FIRST))


def _as_cora(*command: str):
    return lambda homes: as_cora(*command, str(homes[CORA] / "exercises" / FIRST))


ATTACKS = {
    "a link to /dev/zero": (_link_to(lambda homes: "/dev/zero"), "refused: a symbolic link, not a regular file"),
    "a link to /etc/shadow": (_link_to(lambda homes: "/etc/shadow"), "refused: a symbolic link, not a regular file"),
    "a link to a classmate's notebook": (
        _link_to(lambda homes: str(homes[DAN] / "exercises" / FIRST)),
        "refused: a symbolic link, not a regular file",
    ),
    "a FIFO": (_as_cora("mkfifo"), "refused: a FIFO, not a regular file"),
    "a sparse 100 GB file": (
        _as_cora("truncate", "-s", "100G"),
        "refused: 107,374,182,400 bytes, over the 8 MB limit",
    ),
    # what grade-class would refuse to grade is not collected either (grading/classroom.py's cap)
    "a 9 MB notebook": (_as_cora("truncate", "-s", "9M"), "refused: 9,437,184 bytes, over the 8 MB limit"),
    "a folder with the notebook's name": (_as_cora("mkdir"), "refused: a folder, not a regular file"),
}


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_planted_file_is_refused_with_its_reason_and_the_collection_goes_on(fresh, tmp_path, attack):
    plant, reason = ATTACKS[attack]
    (fresh[CORA] / "exercises" / FIRST).unlink()
    plant(fresh)
    submissions = tmp_path / "week6"
    done = collect(submissions, *LEARNERS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{CORA}: {FIRST} {reason}",
        f"{CORA}: 1 of 2 exercise notebooks collected, 1 refused",
        f"{DAN}: 2 of 2 exercise notebooks collected",
    ], f"{attack}:\n{done.stdout}{done.stderr}"
    assert handed(submissions, CORA) == {OTHER: notebook(CORA, OTHER)}
    assert handed(submissions, DAN) == {e: notebook(DAN, e) for e in EXERCISES}


@pytest.mark.parametrize("target", ["her own folder", "her classmate's folder"])
def test_a_link_in_a_parent_folder_is_refused(fresh, tmp_path, target):
    """~/exercises replaced by a link: to a folder of cora's own, or to dan's."""
    home = fresh[CORA]
    if target == "her own folder":
        as_cora("mv", str(home / "exercises"), str(home / "elsewhere"))
        as_cora("ln", "-s", "elsewhere", str(home / "exercises"))
    else:
        as_cora("rm", "-r", str(home / "exercises"))
        as_cora("ln", "-s", str(fresh[DAN] / "exercises"), str(home / "exercises"))
    submissions = tmp_path / "week6"
    done = collect(submissions, *LEARNERS)
    assert done.returncode == 0, done.stderr
    why = f"refused: exercises on the way to {home}/exercises is a symbolic link"
    assert done.stdout.splitlines() == [
        f"{CORA}: {FIRST} {why}",
        f"{CORA}: {OTHER} {why}",
        f"{CORA}: 0 of 2 exercise notebooks collected, 2 refused",
        f"{DAN}: 2 of 2 exercise notebooks collected",
    ], done.stdout
    assert handed(submissions, CORA) == {}
    assert handed(submissions, DAN) == {e: notebook(DAN, e) for e in EXERCISES}


def test_odd_names_in_a_home_or_on_the_command_line_are_never_taken_for_others(fresh, tmp_path):
    folder = fresh[CORA] / "exercises"
    fake_line = f"{FIRST}\n{DAN}: 2 of 2 exercise notebooks collected"
    for odd in (f"{FIRST}\n", fake_line, f" {FIRST}", f"{FIRST}\udcff"):
        path = folder / odd
        path.write_bytes(b"not a submission")
        os.chown(path, *_ids(CORA))
    forged = f"{CORA}\n{DAN}: 2 of 2 exercise notebooks collected"
    odd_learners = [forged, b"hltest-\xff", "../" + DAN]
    submissions = tmp_path / "week6"
    done = collect(submissions, CORA, *odd_learners, DAN)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [f"{name}: 2 of 2 exercise notebooks collected" for name in LEARNERS]
    assert done.stderr.splitlines() == [
        f"{forged!a}: no such account",
        "'hltest-\\udcff': no such account",
        f"../{DAN}: no such account",
    ]
    assert sorted(p.name for p in submissions.iterdir()) == sorted(LEARNERS)
    assert handed(submissions, CORA) == {e: notebook(CORA, e) for e in EXERCISES}


def test_a_notebook_not_read_within_the_time_limit_is_refused_and_no_reader_is_left(fresh, tmp_path):
    submissions = tmp_path / "week6"
    done = collect(submissions, *LEARNERS)
    assert handed(submissions, CORA)
    # A reader the learner stops (SIGSTOP), or one stuck on a hung network mount, never answers;
    # a limit shorter than any fork makes every reader one of those, deterministically.
    done = collect(submissions, *LEARNERS, "--seconds", "0.000001")
    assert done.returncode == 0, done.stderr
    for learner in LEARNERS:
        assert f"{learner}: {FIRST} refused: still not read after 1e-06 s" in done.stdout.splitlines()
        assert f"{learner}: 0 of 2 exercise notebooks collected, 2 refused" in done.stdout.splitlines()
        assert handed(submissions, learner) == {}
    uids = {_ids(name)[0] for name in LEARNERS}
    assert not [p.line() for p in table().values() if p.uid in uids]


def _hand_in_english(learner: str, home: Path, exercises: list[str], saved: float | None = None) -> None:
    """The learner's ~/exercises/en/ holds their English notebooks (saved at ``saved``, if given)."""
    folder = home / "exercises" / "en"
    assert hub_accounts.as_user(learner, "mkdir", "-p", "-m", "700", str(folder)).returncode == 0
    for exercise in exercises:
        path = folder / exercise
        path.write_bytes(notebook(learner, f"en/{exercise}"))
        os.chown(path, *_ids(learner))
        if saved is not None:
            os.utime(path, (saved, saved))


def test_a_learner_of_the_english_edition_hands_in_their_english_notebooks(fresh, tmp_path):
    shutil.rmtree(fresh[DAN] / "exercises")
    _hand_in_english(DAN, fresh[DAN], EXERCISES)
    submissions = tmp_path / "week6"
    done = collect(submissions, *LEARNERS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{name}: 2 of 2 exercise notebooks collected" for name in LEARNERS]
    assert handed(submissions, DAN) == {e: notebook(DAN, f"en/{e}") for e in EXERCISES}
    assert handed(submissions, CORA) == {e: notebook(CORA, e) for e in EXERCISES}


def test_of_both_editions_the_one_the_learner_worked_on_is_collected(fresh, tmp_path):
    """A bilingual class: cora answered FIRST in English and left the Japanese as the course gave it;
    she changed both editions of OTHER, the Japanese one last."""
    home = fresh[CORA]
    starter = home / "exercises" / FIRST
    starter.write_bytes((ROOT / "exercises" / FIRST).read_bytes())
    os.utime(starter, (2_000_000_000, 2_000_000_000))  # saved after her English answer: still not hers
    os.utime(home / "exercises" / OTHER, (1_900_000_000, 1_900_000_000))
    _hand_in_english(CORA, home, EXERCISES, saved=1_800_000_000)
    submissions = tmp_path / "week6"
    done = collect(submissions, CORA)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{CORA}: {FIRST} is in both editions; collected en/{FIRST} (the other is as the course gave it)",
        f"{CORA}: {OTHER} is in both editions; collected {OTHER} (saved last)",
        f"{CORA}: 2 of 2 exercise notebooks collected",
    ]
    assert handed(submissions, CORA) == {FIRST: notebook(CORA, f"en/{FIRST}"), OTHER: notebook(CORA, OTHER)}


@pytest.mark.parametrize("planted, kind", [("a link to dan's folder", "a symbolic link"), ("a file", "a file")])
def test_a_planted_english_folder_is_refused_and_the_japanese_notebooks_still_collected(fresh, tmp_path, planted, kind):
    english = fresh[CORA] / "exercises" / "en"
    if planted == "a file":
        as_cora("touch", str(english))
    else:
        as_cora("ln", "-s", str(fresh[DAN] / "exercises"), str(english))
    submissions = tmp_path / "week6"
    done = collect(submissions, CORA)
    assert done.returncode == 0, done.stderr
    why = f"refused: en on the way to {english} is {kind}"
    assert done.stdout.splitlines() == [
        f"{CORA}: en/{FIRST} {why}",
        f"{CORA}: en/{OTHER} {why}",
        f"{CORA}: 2 of 2 exercise notebooks collected",
    ]
    assert handed(submissions, CORA) == {e: notebook(CORA, e) for e in EXERCISES}


@pytest.mark.parametrize(
    ("edition", "said"),
    [
        ("ja", ["練習ノートブック 2 冊のうち 1 冊を回収しました（1 冊は断りました）"]),
        (
            "both",
            [
                "練習ノートブック 2 冊のうち 1 冊を回収しました（1 冊は断りました）",
                "1 of 2 exercise notebooks collected, 1 refused",
            ],
        ),
        (
            None,
            [
                "練習ノートブック 2 冊のうち 1 冊を回収しました（1 冊は断りました）",
                "1 of 2 exercise notebooks collected, 1 refused",
            ],
        ),
    ],
)
def test_it_speaks_the_class_editions_language_or_both_when_it_cannot_know(fresh, tmp_path, edition, said):
    as_cora("mkfifo", str(fresh[CORA] / "exercises" / f"{FIRST}.fifo"))
    (fresh[CORA] / "exercises" / FIRST).unlink()
    as_cora("mv", str(fresh[CORA] / "exercises" / f"{FIRST}.fifo"), str(fresh[CORA] / "exercises" / FIRST))
    done = collect(tmp_path / "subs", *LEARNERS, edition=edition)
    lines = done.stdout.splitlines()
    assert [line.split(": ", 1)[1] for line in lines if line.startswith(f"{CORA}: ") and FIRST not in line] == said
    refused = [line for line in lines if line.startswith(f"{CORA}: {FIRST} ")]
    assert refused[0] == f"{CORA}: {FIRST} 断りました: FIFOで、通常のファイルではありません" and len(refused) == len(
        said
    )


@pytest.mark.parametrize(
    ("edition", "spoken", "unspoken"),
    [
        ("ja", ["回収先のフォルダー", "制限時間（秒、既定 10）"], ["the folder to collect into"]),
        ("en", ["the folder to collect into", "time limit per notebook (seconds, default 10)"], ["回収先"]),
        (None, ["回収先のフォルダー", "the folder to collect into"], []),
    ],
)
def test_its_help_speaks_the_class_editions_language(edition, spoken, unspoken):
    done = collect(Path("/nonexistent"), "--help", edition=edition)
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())  # argparse wraps lines at the terminal's width
    assert all(text in said for text in spoken) and not any(text in said for text in unspoken), said


# What an instructor types wrong: no learner named, a size cap that is no number, an option that does not exist
MISTYPED = {
    "no learner": [],
    "a size cap that is no number": ["alice", "--max-mb", "lots"],
    "a typo": ["alice", "--sconds"],
}


@pytest.mark.parametrize("mistake", sorted(MISTYPED))
@pytest.mark.parametrize(("edition", "japanese", "english"), [("ja", 1, 0), ("en", 0, 1), (None, 1, 1)])
def test_a_mistyped_command_is_told_in_the_class_editions_language(tmp_path, mistake, edition, japanese, english):
    done = collect(tmp_path / "subs", *MISTYPED[mistake], edition=edition)
    assert done.returncode == 2 and not (tmp_path / "subs").exists()
    errors = [line for line in done.stderr.splitlines() if line.startswith("collect.sh: ")]
    assert [line.startswith("collect.sh: エラー: ") for line in errors] == [True] * japanese + [False] * english, errors
    assert all(re.search(r"[ぁ-んァ-ン]", line) for line in errors[:japanese]), errors  # no argparse English left
