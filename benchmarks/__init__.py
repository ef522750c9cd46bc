"""Side-by-side benchmarks of harness_lab (issue 8): run them all with ``python -m benchmarks``.

One module per contender (``bare_loop``, ``harness``, ``tool_runner``, ``pydantic_agent``) on the
shared ``workload``; one module per other measure (``parallel_tools``, ``import_time``,
``nbval_suite``, ``growth``); ``timing`` interleaves and summarises, ``report`` writes docs/.
"""
