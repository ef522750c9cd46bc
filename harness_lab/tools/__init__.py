"""Tools the model can call (lessons 2, 5 and 6): their definitions, how they run, and the built-ins.

- ``definition``: ``@tool`` and ``Tool``, the ``tools`` list entry read from a function.
- ``uses``: ``run_tool_uses`` is lesson 6's ``runToolUses``: each call put to valve 4 (the loop
  passes ``valves.approval.decide``) or answered from a fork's record, the rest run together.
- ``execution``: running calls (``run_calls``, ``run_tool``): in parallel on a bounded pool of
  worker threads, each with a timeout, every call answered.
- ``files`` and ``builtin``: ``read_file``, ``write_file``, ``delete_file``, ``get_time``, ``http_post``.
"""

from .builtin import get_time, http_post, make_http_post
from .definition import NAME_PATTERN, Tool, ToolError, as_tools, schema_of, tool
from .execution import MAX_RESULT_CHARS, PARALLEL_CALLS, Limits, result_text, run_calls, run_tool
from .files import delete_file, make_delete_file, make_read_file, make_write_file, read_file, write_file
from .uses import Approve, ToolsFailed, ToolsInterrupted, run_tool_uses

__all__ = [
    "Approve",
    "Limits",
    "MAX_RESULT_CHARS",
    "NAME_PATTERN",
    "PARALLEL_CALLS",
    "Tool",
    "ToolError",
    "ToolsFailed",
    "ToolsInterrupted",
    "as_tools",
    "delete_file",
    "get_time",
    "http_post",
    "make_delete_file",
    "make_http_post",
    "make_read_file",
    "make_write_file",
    "read_file",
    "result_text",
    "run_calls",
    "run_tool",
    "run_tool_uses",
    "schema_of",
    "tool",
    "write_file",
]
