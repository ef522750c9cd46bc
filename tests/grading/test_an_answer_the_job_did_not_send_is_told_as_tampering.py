"""What reaches a limited run's answer pipe besides the one answer its job sends (round twenty).

A job answers once, through ``sandbox._child``'s ``send``. Learner code may write to the pipe itself
(it walks ``/proc/self/fd`` and writes to every descriptor it inherited), or fork copies of the job
that each return through it. The first is told as tampering (the hint says to leave the grading
machinery alone), never as a crash the learner cannot explain; the copies never answer at all.
"""

from __future__ import annotations

import os
import pickle

import pytest

from harness_lab.grading import grade_notebook
from harness_lab.grading.sandbox import ANSWER_LIMIT, abort, run_limited
from harness_lab.text import t
from tests.grading.test_tampering import attacked
from tests.safety_net import gives_up_after

# At answer-cell time: a report's last line, a gradebook row and escapes, into every descriptor that takes them.
TEXT = "\\n[PASS] All 3 criteria are met\\nann,level1,ok,3,3\\r\\x1b[2J"
WRITTEN = {
    "text": f"_bytes = '{TEXT}'.encode()",
    "a frame of no pickle": "_bytes = (12).to_bytes(8, 'big') + b'[PASS] 3 / 3'",
    "a frame of another shape": f"_bytes = (lambda p: len(p).to_bytes(8, 'big') + p)({pickle.dumps(('ok',))!r})",
}
INTO_EVERY_DESCRIPTOR = """
import os
{written}
for _fd in sorted(map(int, os.listdir("/proc/self/fd"))):
    try:
        os.write(_fd, _bytes)
    except OSError:
        pass
"""


@pytest.mark.parametrize("written", list(WRITTEN))
def test_bytes_written_into_every_inherited_descriptor_are_told_as_tampering(tmp_path, written):
    code = INTO_EVERY_DESCRIPTOR.format(written=WRITTEN[written])
    grade = grade_notebook(attacked("level1", code, tmp_path))
    assert (grade.status, grade.key) == ("error", "grade.nb.tampered"), grade.text()
    assert grade.error == t("grade.nb.tampered") and "harness_lab.grading" in grade.error


def _announced(size: int) -> None:
    """In a job: a frame header announcing ``size`` bytes written to the answer pipe, then the bytes."""
    from harness_lab.grading import sandbox

    assert sandbox._answer_fd is not None
    os.write(sandbox._answer_fd, size.to_bytes(8, "big"))
    os.write(sandbox._answer_fd, b"A" * size)  # blocks: the pipe holds 64 KB


def test_an_answer_over_the_size_limit_is_left_unread_as_tampering():
    """Only learner code writing to its answer pipe itself sends megabytes: reading them, and passing
    them on, once made a grading host too slow to answer at all."""
    # The job blocks writing its answer; its limit is far past the net, so waiting it out fails.
    with gives_up_after(60, "the oversized answer's verdict"):
        outcome = run_limited(lambda: _announced(30 << 20), timeout=600)
    assert outcome.status == "tampered"
    assert len(run_limited(lambda: abort("A" * (ANSWER_LIMIT - 100))).value) == ANSWER_LIMIT - 100


def test_an_answer_over_the_size_limit_sent_in_the_graders_name_is_tampering_at_once():
    # No grader sends that much (round fifteen's learner sent 30 MB through sandbox._channel): unread, it was
    # a "crashed" job, and the job blocked on the pipe until the caller gave up on it.
    with gives_up_after(60, "the oversized answer's verdict"):
        outcome = run_limited(lambda: abort("A" * (30 << 20)), timeout=600)
    assert outcome.status == "tampered"


def test_copies_a_job_forks_and_leaves_running_never_answer_in_its_name():
    # Learner code that forks and forgets os._exit: every copy returns through the job, and 64 answers
    # of 100 KB at once on one pipe came out interleaved, a "crashed" job.
    def job() -> str:
        pid = os.getpid()
        for _ in range(6):
            os.fork()
        return "the job's own" * 8000 if os.getpid() == pid else "a copy's" * 8000

    for _ in range(3):
        outcome = run_limited(job, timeout=20)
        assert (outcome.status, outcome.value) == ("ok", "the job's own" * 8000), outcome.status
