"""The pre-spawn copy of the course (deploy/jupyterhub/course_files.py), on a home in a temp folder.

The account is this process's own uid with a temporary home, so these run without root; the hub
test (test_jupyterhub.py) runs the same function as root for real accounts.
"""

import importlib.util
import os
import pwd
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("course_files", ROOT / "deploy" / "jupyterhub" / "course_files.py")
course_files = importlib.util.module_from_spec(spec)
spec.loader.exec_module(course_files)


def _edition(*folders: str) -> list[str]:
    """The course's notebooks in ``folders`` (notebooks/en, say), as paths from the checkout."""
    return sorted(f"{folder}/{p.name}" for folder in folders for p in (ROOT / folder).glob("*.ipynb"))


EXPECTED = _edition("notebooks", "exercises")
ENGLISH = _edition("notebooks/en", "exercises/en")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A learner called 'learner' whose home is a fresh 0755 folder (what Debian's useradd makes)."""
    home = tmp_path / "home" / "learner"
    home.mkdir(parents=True)
    home.chmod(0o755)
    account = pwd.struct_passwd(("learner", "x", os.getuid(), os.getgid(), "", str(home), "/bin/sh"))
    real = pwd.getpwnam
    monkeypatch.setattr(pwd, "getpwnam", lambda name: account if name == "learner" else real(name))
    return home


def test_a_fresh_home_gets_every_lesson_and_exercise_and_becomes_private(home):
    copied, refused = course_files.give_course("learner", ROOT)
    assert (sorted(copied), refused) == (EXPECTED, [])
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    for name in copied:
        assert (home / name).read_bytes() == (ROOT / name).read_bytes()
        assert stat.S_IMODE((home / name).stat().st_mode) == 0o600
    assert not (home / "exercises" / "solutions").exists()
    assert sorted(p.name for p in (home / "exercises").iterdir()) == sorted(
        p.name for p in (ROOT / "exercises").glob("*.ipynb")
    )  # no conftest.py, no sanitize.cfg


@pytest.mark.parametrize("edition", ["en", "both"])
def test_an_english_or_bilingual_class_gets_the_english_edition_where_the_checkout_has_it(home, edition):
    copied, refused = course_files.give_course("learner", ROOT, edition)
    assert (sorted(copied), refused) == (sorted(ENGLISH + (EXPECTED if edition == "both" else [])), [])
    for name in copied:
        assert (home / name).read_bytes() == (ROOT / name).read_bytes()
    for folder in ("notebooks", "exercises", "notebooks/en", "exercises/en"):
        assert stat.S_IMODE((home / folder).stat().st_mode) == 0o700
    # the English lessons link to ../../exercises/en/ as they do in the checkout
    assert (home / "notebooks" / "en" / ".." / ".." / "exercises" / "en" / "level1_tiered_policy.ipynb").is_file()
    assert not (home / "exercises" / "en" / "solutions").exists()


def test_an_unknown_edition_is_refused_naming_the_choices(home, tmp_path):
    with pytest.raises(ValueError, match="'jp' is not an edition of the course: use ja, en or both"):
        course_files.give_course("learner", ROOT, "jp")
    assert list(home.iterdir()) == []


def test_the_image_gets_one_edition_in_the_checkouts_layout(tmp_path):
    """What the Kubernetes image runs (docs/classroom.md): course_files.py --edition en /opt/course."""
    script = ROOT / "deploy" / "jupyterhub" / "course_files.py"
    done = subprocess.run(
        [sys.executable, "-I", str(script), "--edition", "en", str(tmp_path / "course")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    found = sorted(str(p.relative_to(tmp_path / "course")) for p in (tmp_path / "course").rglob("*.ipynb"))
    assert found == ENGLISH
    done = subprocess.run(
        [sys.executable, "-I", str(script), "--edition", "fr", str(tmp_path / "other")], capture_output=True, text=True
    )
    assert done.returncode == 2 and "--edition 'fr' is not an edition of the course: use ja, en or both" in done.stderr
    assert not (tmp_path / "other").exists()


def test_a_second_start_keeps_the_learners_work_and_restores_only_what_is_missing(home):
    course_files.give_course("learner", ROOT)
    answer = home / "exercises" / "level1_tiered_policy.ipynb"
    answer.write_text("my answer", encoding="utf-8")
    (home / "notebooks" / "01_bare_loop.ipynb").unlink()
    copied, _ = course_files.give_course("learner", ROOT)
    assert copied == ["notebooks/01_bare_loop.ipynb"]
    assert answer.read_text(encoding="utf-8") == "my answer"


def test_a_symlinked_folder_is_refused_and_its_target_untouched(home, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (home / "notebooks").symlink_to(elsewhere)
    copied, refused = course_files.give_course("learner", ROOT)
    assert refused == ["notebooks"]
    assert list(elsewhere.iterdir()) == []
    assert copied and all(name.startswith("exercises/") for name in copied)


def test_a_planted_symlink_file_is_not_written_through(home, tmp_path):
    target = tmp_path / "target.txt"
    target.write_text("not yours", encoding="utf-8")
    (home / "exercises").mkdir()
    (home / "exercises" / "level1_tiered_policy.ipynb").symlink_to(target)
    copied, _ = course_files.give_course("learner", ROOT)
    assert "exercises/level1_tiered_policy.ipynb" not in copied
    assert target.read_text(encoding="utf-8") == "not yours"


def test_a_symlinked_home_is_refused(tmp_path, monkeypatch):
    real_home = tmp_path / "real"
    real_home.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real_home)
    account = pwd.struct_passwd(("learner", "x", os.getuid(), os.getgid(), "", str(link), "/bin/sh"))
    monkeypatch.setattr(pwd, "getpwnam", lambda name: account)
    with pytest.raises(PermissionError, match="not a plain directory"):
        course_files.give_course("learner", ROOT)
    assert list(real_home.iterdir()) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the home to another uid")
def test_a_home_owned_by_someone_else_is_refused(home):
    os.chown(home, 65534, 65534)
    with pytest.raises(PermissionError, match="not to learner"):
        course_files.give_course("learner", ROOT)
    assert list(home.iterdir()) == []


def test_an_unknown_account_and_a_wrong_course_folder_say_what_to_do(home, tmp_path):
    with pytest.raises(LookupError, match="useradd -m nobody-here"):
        course_files.give_course("nobody-here", ROOT)
    with pytest.raises(FileNotFoundError, match="HARNESS_HUB_COURSE"):
        course_files.give_course("learner", tmp_path / "not-a-checkout")
    assert list(home.iterdir()) == []


def test_the_pods_start_copies_what_the_learner_lacks_in_the_same_layout(tmp_path):
    """The postStart command of docs/en/classroom.md's config.yaml, on an image's /opt/course of both editions."""
    guide = (ROOT / "docs" / "en" / "classroom.md").read_text(encoding="utf-8")
    (command,) = [line.strip()[2:] for line in guide.splitlines() if line.strip().startswith("- cd /opt/course")]
    course, home = tmp_path / "course", tmp_path / "home"
    course_files.copy_edition(ROOT, "both", course)
    answer = home / "exercises" / "en" / "level1_tiered_policy.ipynb"
    answer.parent.mkdir(parents=True)
    answer.write_text("my answer", encoding="utf-8")
    command = command.replace("/opt/course", str(course))
    done = subprocess.run(["sh", "-c", command], env={"HOME": str(home), "PATH": os.environ["PATH"]})
    assert done.returncode == 0
    found = sorted(str(p.relative_to(home)) for p in home.rglob("*.ipynb"))
    assert found == sorted(EXPECTED + ENGLISH)
    assert answer.read_text(encoding="utf-8") == "my answer"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--edition", "ja"], "course_files.py: エラー: 次の引数が必要です: FOLDER"),
        (["--edition", "en"], "course_files.py: error: the following arguments are required: FOLDER"),
        (["--edition", "ja", "a", "b"], "course_files.py: エラー: 知らない引数です: b"),
        (["--edition"], "course_files.py: エラー: 引数 --edition には値が1つ必要です"),
    ],
)
def test_a_mistyped_command_is_told_in_the_language_of_the_edition_asked_for(argv, said):
    # argparse said "error: the following arguments are required: FOLDER" to a class building its Japanese image
    script = ROOT / "deploy" / "jupyterhub" / "course_files.py"
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_HUB_EDITION"}
    done = subprocess.run([sys.executable, "-I", str(script), *argv], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and said in done.stderr.splitlines(), done.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the home to another uid")
def test_a_file_swapped_in_for_a_new_folder_is_not_given_to_the_learner(tmp_path, monkeypatch):
    """The learner owns their home, so between the hub's mkdir of ~/notebooks and its chown they may put a
    hard link to a file of root's there (one they may read and write: fs.protected_hardlinks 1; any file where
    it is 0). A chown by name then gave them that file; the hub must give only the folder it made."""
    home = tmp_path / "home" / "learner"
    home.mkdir(parents=True)
    os.chown(home, 65534, 65534)
    account = pwd.struct_passwd(("learner", "x", 65534, 65534, "", str(home), "/bin/sh"))
    monkeypatch.setattr(pwd, "getpwnam", lambda name: account)
    victim = tmp_path / "roots-file"
    victim.write_text("root's", encoding="utf-8")
    real_mkdir = os.mkdir

    def mkdir_then_swapped(name, mode=0o777, *, dir_fd=None):
        real_mkdir(name, mode, dir_fd=dir_fd)
        if name == "notebooks" and dir_fd is not None:  # the learner wins the race on the first folder
            os.rmdir(name, dir_fd=dir_fd)
            os.link(victim, name, dst_dir_fd=dir_fd)

    monkeypatch.setattr(os, "mkdir", mkdir_then_swapped)
    copied, refused = course_files.give_course("learner", ROOT)
    assert (victim.stat().st_uid, victim.stat().st_gid) == (0, 0)
    assert refused == ["notebooks"]
    assert copied and all(name.startswith("exercises/") for name in copied)
