#!/bin/sh
# Hand-in: copy each learner's exercise notebooks to SUBMISSIONS/<learner>/<exercise>.ipynb, the
# layout `harness-lab grade-class SUBMISSIONS --out REPORT` reads. Run as root on the hub's server:
#
#     deploy/jupyterhub/collect.sh /srv/submissions/week6 alice bob
#     deploy/jupyterhub/collect.sh /srv/submissions/week6 $(getent group learners | cut -d: -f4 | tr , ' ')
#
# Each notebook is read with the learner's own rights (runuser), so a symlink planted in a home
# hands in nothing its owner could not read. Only the course's exercise names are collected (the
# exercises/*.ipynb of this checkout, or of HARNESS_HUB_COURSE), and SUBMISSIONS mirrors the homes
# at collection time: a notebook no longer there is removed from it too.
set -eu
if [ "$#" -lt 2 ]; then
  echo "usage: $0 SUBMISSIONS LEARNER..." >&2
  exit 2
fi
submissions=$1
shift
course=${HARNESS_HUB_COURSE:-$(cd "$(dirname "$0")/../.." && pwd)}
umask 077
mkdir -p "$submissions"
status=0
for learner in "$@"; do
  if ! home=$(getent passwd "$learner" | cut -d: -f6) || [ -z "$home" ]; then
    echo "$learner: no such account" >&2
    status=1
    continue
  fi
  mkdir -p "$submissions/$learner"
  handed=0
  total=0
  for starter in "$course"/exercises/*.ipynb; do
    name=$(basename "$starter")
    total=$((total + 1))
    part="$submissions/$learner/.$name.part"
    if runuser -u "$learner" -- cat "$home/exercises/$name" >"$part" 2>/dev/null; then
      mv "$part" "$submissions/$learner/$name"
      handed=$((handed + 1))
    else
      rm -f "$part" "$submissions/$learner/$name"
      echo "$learner: $name not handed in"
    fi
  done
  echo "$learner: $handed of $total exercise notebooks collected"
done
exit "$status"
