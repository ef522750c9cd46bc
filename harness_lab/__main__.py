"""``python -m harness_lab``: the ``harness-lab`` command, for where the venv's ``bin`` is not on PATH."""

import sys

from .cli import main

sys.exit(main())
