"""Tools the model can call (lessons 2, 5 and 6): their definitions, how they run, and the built-ins.

- ``definition``: ``@tool`` and ``Tool``, the ``tools`` list entry read from a function.
- ``execution``: ``run_calls`` runs one turn's calls in parallel, each with a timeout, and answers
  every call with ``(text, is_error)``; ``run_tool_uses`` is lesson 6's ``runToolUses``.
- ``files`` and ``builtin``: ``read_file``, ``write_file``, ``delete_file``, ``get_time``, ``http_post``.
"""

from .builtin import get_time, http_post, make_http_post
from .definition import NAME_PATTERN, Tool, ToolError, as_tools, schema_of, tool
from .execution import MAX_RESULT_CHARS, ToolsInterrupted, describe, result_text, run_calls, run_tool
from .files import delete_file, make_delete_file, make_read_file, make_write_file, read_file, write_file

__all__ = [
    "MAX_RESULT_CHARS",
    "NAME_PATTERN",
    "Tool",
    "ToolError",
    "ToolsInterrupted",
    "as_tools",
    "delete_file",
    "describe",
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
    "schema_of",
    "tool",
    "write_file",
]
