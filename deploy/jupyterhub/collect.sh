#!/bin/sh
# Hand-in, as root on the hub's server: copy each learner's exercise notebooks to
# SUBMISSIONS/<learner>/<exercise>.ipynb, the layout `harness-lab grade-class` reads.
#
#     deploy/jupyterhub/collect.sh /srv/submissions/week6 alice bob
#     deploy/jupyterhub/collect.sh /srv/submissions/week6 $(getent group learners | cut -d: -f4 | tr , ' ')
#
# collect.py does the work (how it reads homes safely is written there); -I keeps root's Python
# from importing anything from the current folder or PYTHON* variables.
# It speaks HARNESS_HUB_EDITION's language (the hub's setting); without it, Japanese and English.
exec python3 -I "$(dirname "$0")/collect.py" "$@"
