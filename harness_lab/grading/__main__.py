"""``python -P -m harness_lab.grading NOTEBOOK...``: the course's grading command (see ``command.py``)."""

import argparse
import sys

from ..text import LANGUAGES, lang, speaking, t
from .command import main

if not sys.flags.safe_path:  # -m put the working folder, which learner code can write to, first on sys.path
    # said before the arguments are parsed (--help too), in the --lang they ask for, if any
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang")
    asked = early.parse_known_args()[0].lang
    with speaking(asked if asked in LANGUAGES else lang()):
        print(t("grade.nb.unsafe_path"), file=sys.stderr)
sys.exit(main())
