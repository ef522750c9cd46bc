"""``python -P -m harness_lab.grading NOTEBOOK...``: the course's grading command (see ``command.py``)."""

import sys

from ..text import t
from .command import main

if not sys.flags.safe_path:  # -m put the working folder, which learner code can write to, first on sys.path
    print(t("grade.nb.unsafe_path"), file=sys.stderr)
sys.exit(main())
