"""A class's hand-ins, built from the course's own notebooks and answer batteries (issue 17).

Each builder returns an exercise notebook as a learner would hand it in, with the verdict grading
must reach: a reference solution; a starter whose answer cells hold one of the batteries' wrong
answers (``answers_level1.WRONG``, ``answers_level2.WRONG``, with the criteria and hint keys they
must get); a solution that hangs, exits, or kills its own process or the process grading it; and
tampered copies that try to pass without solving (the grade cell rewritten, a solved output
pasted in, ``check_levelN`` redefined in an answer cell).

A wrong answer goes in as the battery's whole source (its modules joined, so its helpers come along)
followed by the line that picks the answer, in the first answer cell; the other answer cells are emptied.
``tests/grading/test_classroom.py`` and ``benchmarks/grade_class.py`` both build classes from these.
"""

from __future__ import annotations

import ast
import copy
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import answers_level1
import answers_level2
import nbformat
import pytest

import harness_lab.grading  # noqa: F401  # adds the graders' strings to the catalog
from harness_lab.grading.isolation import find_bwrap
from harness_lab.text import CATALOG
from tests.process_ids import landlock_scopes_jobs

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
FILES = {"level1": "level1_tiered_policy.ipynb", "level2": "level2_missing_gate.ipynb"}
BATTERIES = {"level1": answers_level1, "level2": answers_level2}
NAMES = {"level1": "POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS", "level2": "MISSING, run_agent, MAX_TURNS"}
ALL_PASSED = CATALOG["grade.all_passed"][0].format(total=3)
# grade-class refuses to run learner code without bubblewrap's sandbox: so do the tests that use it
SANDBOX_FOUND = find_bwrap() is not None
needs_sandbox = pytest.mark.skipif(
    not SANDBOX_FOUND, reason="bubblewrap is missing (apt-get install bubblewrap; .ci/run does)"
)


@pytest.fixture(scope="module", autouse=True)
def instructor_config(tmp_path_factory):
    """The record's key is made in a folder of the tests' own, never in the real ~/.config.

    A test module that grades a class imports this fixture; the commands it starts inherit it.
    """
    config = tmp_path_factory.mktemp("config")
    before = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = str(config)
    yield config
    if before is None:
        del os.environ["XDG_CONFIG_HOME"]
    else:
        os.environ["XDG_CONFIG_HOME"] = before


# Answer-cell code that ends the notebook's grading process in each way a learner's code can.
# The hang idles: the notebook's limit is in seconds of the clock, so it ends a sleeper as it ends a
# spinner (tests/reliability/test_grader_limits.py spins), and a spin here would only take a core
# from the tests running beside it for those seconds.
HANG = "import time\nwhile True:\n    time.sleep(0.05)\n"
EXIT = "import os\nos._exit(1)\n"
KILL_SELF = "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"
# Every process above the answer cells, from the top down: the grading command, its workers and
# the processes grading this notebook. In the sandbox the cells see only their own notebook's
# processes and the host, which takes no signal from inside: the notebook crashes, nothing else.
# Where the kernel's Landlock scopes signals (Linux 6.12) every process above is outside the cells'
# domain: each kill is refused (PermissionError, passed over), and the answer is graded as written.
KILL_GRADER = (
    "import os, signal\n"
    "def _parent_of(pid):\n"
    "    with open(f'/proc/{pid}/stat') as f:\n"
    "        return int(f.read().rsplit(')', 1)[1].split()[1])\n"
    "above, pid = [], _parent_of(os.getpid())\n"
    "while pid > 1:\n"
    "    above.append(pid)\n"
    "    pid = _parent_of(pid)\n"
    "for pid in reversed(above + [1]):\n"
    "    try:\n"
    "        os.kill(pid, signal.SIGKILL)\n"
    "    except OSError:\n"
    "        pass\n"
)


@dataclass
class Handed:
    """A notebook to hand in, and the row grading must give it."""

    exercise: str
    notebook: nbformat.NotebookNode
    status: str = "ok"
    failed: dict[int, str] = field(default_factory=dict)  # criterion -> hint key (status "ok")
    key: str = ""  # the notebook's one key when status is not "ok"
    edition: str = "ja"  # the grades.csv's edition: "" for bytes that are not JSON

    def hint_keys(self) -> str:
        return " ".join(self.failed[n] for n in sorted(self.failed)) if self.status == "ok" else self.key

    def write(self, submissions: Path, learner: str, name: str | None = None) -> Path:
        folder = submissions / learner
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / (name or FILES[self.exercise])
        nbformat.write(self.notebook, path)
        return path


def read(path: Path) -> nbformat.NotebookNode:
    return nbformat.read(path, as_version=4)


def solution(exercise: str) -> nbformat.NotebookNode:
    return read(EXERCISES / "solutions" / FILES[exercise])


def english_solution(exercise: str) -> nbformat.NotebookNode:
    return read(EXERCISES / "solutions" / "en" / FILES[exercise])


def starter(exercise: str) -> nbformat.NotebookNode:
    return read(EXERCISES / FILES[exercise])


def answer_cells(nb: nbformat.NotebookNode) -> list:
    return [c for c in nb.cells if c.cell_type == "code" and "answer" in c.metadata.get("tags", [])]


def grade_cell(nb: nbformat.NotebookNode):
    return next(c for c in nb.cells if "grade" in c.metadata.get("tags", []))


def battery_source(module: str) -> str:
    """The battery ``module``'s source after the sources of the battery modules it imports from.

    A battery is split into modules (``answers_level1_runners`` ...) to keep files short, but an answer
    cell holds one source: the imports between them are dropped, and ``from __future__``, which must
    open the cell, goes once at the top.
    """
    sources: list[str] = []

    def join(name: str) -> None:
        source = Path(sys.modules[name].__file__ or "").read_text(encoding="utf-8")
        lines = source.splitlines(keepends=True)
        for node in ast.parse(source).body:
            part = (node.module or "") if isinstance(node, ast.ImportFrom) else ""
            if part == "__future__" or part.startswith("answers_level"):
                lines[node.lineno - 1 : node.end_lineno] = [""] * ((node.end_lineno or 0) - node.lineno + 1)
            if part.startswith("answers_level") and part not in joined:
                joined.add(part)
                join(part)
        sources.append("".join(lines))

    joined = {module}
    join(module)
    return "from __future__ import annotations\n\n" + "\n".join(sources)


def right(exercise: str) -> Handed:
    return Handed(exercise, solution(exercise))


def wrong(exercise: str, name: str) -> Handed:
    """The starter with the battery's wrong answer ``name`` in its answer cells."""
    battery = BATTERIES[exercise]
    _, expected = battery.WRONG[name]
    nb = starter(exercise)
    cells = answer_cells(nb)
    source = battery_source(battery.__name__)
    cells[0].source = f"{source}\n{NAMES[exercise]} = WRONG[{name!r}][0]\n"
    for cell in cells[1:]:
        cell.source = ""
    return Handed(exercise, nb, failed=dict(expected))


def breaking(exercise: str, code: str, status: str, key: str) -> Handed:
    """The solution with ``code`` added to its first answer cell."""
    nb = solution(exercise)
    answer_cells(nb)[0].source += "\n" + code
    return Handed(exercise, nb, status=status, key=key)


def exiting(exercise: str) -> Handed:
    return breaking(exercise, EXIT, "error", "grade.nb.crashed")


def killing_itself(exercise: str) -> Handed:
    return breaking(exercise, KILL_SELF, "error", "grade.nb.crashed")


def killing_the_grader(exercise: str) -> Handed:
    if landlock_scopes_jobs():
        return breaking(exercise, KILL_GRADER, "ok", "")
    return breaking(exercise, KILL_GRADER, "error", "grade.nb.crashed")


def grade_cell_rewritten(exercise: str, name: str) -> Handed:
    handed = wrong(exercise, name)
    grade_cell(handed.notebook).source = f'print("""{ALL_PASSED}""")'
    return handed


def output_forged(exercise: str, name: str) -> Handed:
    handed = wrong(exercise, name)
    solved = grade_cell(solution(exercise))
    grade_cell(handed.notebook).outputs = copy.deepcopy(solved.outputs)
    grade_cell(handed.notebook).execution_count = solved.execution_count
    return handed


def checker_redefined(exercise: str, name: str) -> Handed:
    handed = wrong(exercise, name)
    answer_cells(handed.notebook)[
        -1
    ].source += f"\n\ndef check_{exercise}(*args, **kwargs):\n    print({ALL_PASSED!r})\n"
    return handed


# An answer cell that, run unsandboxed as the instructor, forges the record of grades (it passes
# itself and fails a classmate, with the right SHA-256 of both notebooks and the grader's version),
# keeps a copy of its forgery, blocks the record's old partial file name with a folder, and plants
# links in the report folder: two partial files to an instructor's file, ``feedback`` to a folder.
FORGE = """
import hashlib, json, os, pathlib
try:
    try:
        from harness_lab.grading.record import _FORMAT
    except ImportError:  # the grader before the record was signed
        from harness_lab.grading.classroom import _FORMAT
    from harness_lab.grading.classroom import grader_version
    report, subs = pathlib.Path({report!r}), pathlib.Path({subs!r})
    def entry(learner, passed):
        notebook = subs / learner / {notebook!r}
        checks = [[n, "", passed, "", "", ""] for n in (1, 2, 3)]
        grade = dict(path=learner + "/" + notebook.name, exercise={exercise!r}, status="ok", error="", key="",
                     notes=[], reports=[dict(exercise={exercise!r}, checks=checks)])
        digest = hashlib.sha256(notebook.read_bytes()).hexdigest()
        return dict(sha256=digest, timeout=1e9, grade=grade, answer="", lang="ja", mac="0" * 64)
    entries = {{learner + "/" + {notebook!r}: entry(learner, learner == {forger!r}) for learner in {learners!r}}}
    forgery = json.dumps(dict(format=_FORMAT, grader=grader_version(), entries=entries))
    (report / "state.json").write_text(forgery)
    pathlib.Path({keep!r}).write_text(forgery)
    (report / "state.json.part").mkdir(exist_ok=True)
    for name, target in (("index.html.part", {victim!r}), ("grades.csv.part", {victim!r}), ("feedback", {folder!r})):
        if not os.path.lexists(report / name):
            os.symlink(target, report / name)
except Exception:
    pass
"""


def forging(exercise: str, forger: str, learners: list[str], places: dict[str, Path]) -> Handed:
    """The unsolved starter with ``FORGE`` after its answer: graded, it must earn the starter's own grade.

    ``places``: report, subs, keep (where the forgery's copy goes), victim (a file), folder (a folder).
    """
    nb = starter(exercise)
    code = FORGE.format(
        exercise=exercise,
        notebook=FILES[exercise],
        forger=forger,
        learners=learners,
        **{name: str(path) for name, path in places.items()},
    )
    answer_cells(nb)[0].source += "\n" + code
    return Handed(exercise, nb)


# An answer cell that looks for the instructor's record key in its own process's memory (the key's
# file it reads itself, as learner code graded unsandboxed could), and appends how many copies other
# than its own it found to a file.
KEY_HUNT = """
import ctypes, os
def _hunt():
    # The grader made this process undumpable before learner code ran; reading one's own memory
    # needs it dumpable again, which learner code may do (the key must not be there to find).
    ctypes.CDLL(None, use_errno=True).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE
    fd = os.open({key!r}, os.O_RDONLY)
    key = bytearray(os.fstat(fd).st_size)
    os.readv(fd, [key])
    os.close(fd)
    mine = ctypes.addressof((ctypes.c_char * len(key)).from_buffer(key))
    found = 0
    with open("/proc/self/maps") as maps:
        regions = [line.split() for line in maps]
    with open("/proc/self/mem", "rb", buffering=0) as mem:
        for fields in regions:
            start, end = (int(x, 16) for x in fields[0].split("-"))
            if "r" not in fields[1] or fields[-1] in ("[vvar]", "[vsyscall]", "[vvar_vclock]"):
                continue
            at = start
            while at < end:
                size = min(16 << 20, end - at)
                try:
                    mem.seek(at)
                    chunk = mem.read(min(size + len(key) - 1, end - at))
                except OSError:
                    break
                hit = chunk.find(key)
                while hit != -1:
                    found += at + hit != mine
                    hit = chunk.find(key, hit + 1)
                at += size
    with open({out!r}, "a") as f:
        f.write(str(found) + "\\n")
_hunt()
"""


# An answer cell that looks for the instructor's record key wherever it might be (the path the
# grading command uses, ~/.config of the caller's home and of root's), signs a forged record with it
# that passes the thief and fails a classmate, writes it over REPORT/state.json, and then says in
# its own error what it found, so the report shows that the attempt ran and how far it got.
KEY_THEFT = """
import hashlib, hmac, json, os, pathlib
def _steal():
    tried, key = [], None
    for path in ({key!r}, {home_key!r}, "/root/.config/harness_lab/record.key",
                 os.path.expanduser("~/.config/harness_lab/record.key")):
        try:
            key = pathlib.Path(path).read_bytes()
            break
        except OSError as exc:
            tried.append(type(exc).__name__)
    if key is None:
        return "key not found: " + ",".join(tried)
    from harness_lab.grading.classroom import grader_version
    from harness_lab.grading.record import _FORMAT
    subs, entries = pathlib.Path({subs!r}), {{}}
    for learner in {learners!r}:
        notebook = subs / learner / {notebook!r}
        checks = [[n, "", learner == {thief!r}, "", "", ""] for n in (1, 2, 3)]
        grade = dict(path=learner + "/" + notebook.name, exercise={exercise!r}, status="ok", error="", key="",
                     notes=[], reports=[dict(exercise={exercise!r}, checks=checks)])
        where = learner + "/" + notebook.name
        body = dict(sha256=hashlib.sha256(notebook.read_bytes()).hexdigest(), timeout=1e9, grade=grade, answer="",
                    lang="ja")
        signed = json.dumps([_FORMAT, grader_version(), where, body], sort_keys=True, ensure_ascii=True,
                            separators=(",", ":"))
        entries[where] = dict(body, mac=hmac.new(key, signed.encode("ascii"), hashlib.sha256).hexdigest())
    state = dict(format=_FORMAT, grader=grader_version(), entries=entries)
    try:
        pathlib.Path({report!r}, "state.json").write_text(json.dumps(state))
        return "key stolen and the record forged"
    except OSError as exc:
        return "key stolen, record not written: " + type(exc).__name__
raise RuntimeError("THEFT " + _steal())
"""


def stealing_the_key(exercise: str, thief: str, learners: list[str], key: Path, subs: Path, report: Path) -> Handed:
    """The unsolved starter with ``KEY_THEFT`` after its answer: the row's message says what it found."""
    nb = starter(exercise)
    home_key = Path.home() / ".config" / "harness_lab" / "record.key"
    code = KEY_THEFT.format(
        key=str(key),
        home_key=str(home_key),
        subs=str(subs),
        report=str(report),
        learners=learners,
        thief=thief,
        notebook=FILES[exercise],
        exercise=exercise,
    )
    answer_cells(nb)[0].source += "\n" + code
    return Handed(exercise, nb)


def hunting_the_key(exercise: str, key: Path, out: Path) -> Handed:
    """A right solution whose answer cell runs ``KEY_HUNT``: it must still pass."""
    nb = solution(exercise)
    answer_cells(nb)[0].source += "\n" + KEY_HUNT.format(key=str(key), out=str(out))
    return Handed(exercise, nb)


def loud(exercise: str, megabytes: int = 3) -> Handed:
    """A solution that prints megabytes when graded and stores megabytes of output in the file."""
    nb = solution(exercise)
    answer_cells(nb)[0].source += f"\nprint('x' * {megabytes << 20})\n"
    cell = answer_cells(nb)[0]
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="y" * (megabytes << 20))]
    return Handed(exercise, nb)
