"""Run by every kernel the course's JupyterLab starts, before its first cell (``PYTHONSTARTUP``, which
``python3 dev.py lab`` sets): a notebook reopened the next day, whose learner runs a cell further down
before the setup cells, gets the one line naming the cell to run (cell_runs.py), not a NameError's
traceback. IPython runs this file in the learner's namespace, so it binds no name there."""

__import__("harness_lab.cell_runs").cell_runs.watch(())
