"""Run by every kernel the course's JupyterLab starts, before its first cell (``PYTHONSTARTUP``, which
``python3 dev.py lab`` and the classroom hub, deploy/jupyterhub, set): a notebook reopened the next day, whose learner runs a cell further down
before the setup cells, gets the one line naming the cell to run (cell_runs.py), not a NameError's
traceback.

IPython runs this file in the learner's namespace, so it binds no name there; and it imports nothing
until a NameError comes: harness_lab imported while the kernel was still starting left the Stepper's
paced 「最後まで」 without its event loop (it ran every turn at once, and 「停止」 came too late).
The mark tells cell_runs.watch (the setup cell) that the handler is already in place."""

try:
    get_ipython().set_custom_exc(  # type: ignore[name-defined]
        (NameError,),
        lambda shell, *error, **where: __import__("harness_lab.cell_runs").cell_runs.show(shell, *error, **where),
    )
    get_ipython()._harness_lab_hints_unrun_cells = True  # type: ignore[name-defined]
except NameError:  # a plain python started in the lab's terminal reads this file too, and has no IPython
    pass
