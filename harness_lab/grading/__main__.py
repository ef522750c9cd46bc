"""``python -P -m harness_lab.grading NOTEBOOK...``: the course's grading command (see ``command.py``)."""

import sys

from ..command_line import requested_language
from ..text import lang, speaking, t
from .adopted import adopt
from .command import main

if not sys.flags.safe_path:  # -m put the working folder, which learner code can write to, first on sys.path
    # said before the arguments are parsed (--help too), in the --lang they ask for, if any
    with speaking(requested_language(sys.argv[1:]) or lang()):
        print(t("grade.nb.unsafe_path"), file=sys.stderr)
adopt()  # this process is the command: what its hosts' learner code leaves comes to it, to be ended
sys.exit(main())
