"""harness_lab: hand-write an agent loop on the Messages API and fit it with four control valves.

``import harness_lab as hl`` gives the lesson-6 harness (``hl.Run``, ``hl.run``), its valves, the
tools, the event values and ``hl.connect()`` (live Claude with a key, the offline emulator without).
The widgets and plots live in ``harness_lab.ui`` and the exercise graders in ``harness_lab.grading``;
neither is imported here, so importing the package stays light and prints nothing.
"""

import typing

from . import lazy
from .drain import Outcome, drain, run
from .events import ApprovalRequest, Decision, Finished, Stopped, Turn, Usage, allow, deny
from .messages import assistant, text_of, tool_calls, tool_result, tool_results, user
from .text import t, use_language
from .tools import (
    Tool,
    delete_file,
    get_time,
    http_post,
    make_delete_file,
    make_http_post,
    make_read_file,
    make_write_file,
    read_file,
    tool,
    write_file,
)
from .valves import Approval, MaxTurns, NoProgress, Policy, Rule, TokenBudget, signature_of

if typing.TYPE_CHECKING:
    from .client import MODEL, connect, mode_line
    from .loop import Run

# The names whose modules import the anthropic SDK load on first use (lazy.py says why).
__getattr__, __dir__ = lazy.lazy_names(
    __name__, {"MODEL": "client", "connect": "client", "mode_line": "client", "Run": "loop"}
)

__all__ = [
    "Approval",
    "ApprovalRequest",
    "Decision",
    "Finished",
    "MODEL",
    "MaxTurns",
    "NoProgress",
    "Outcome",
    "Policy",
    "Rule",
    "Run",
    "Stopped",
    "TokenBudget",
    "Tool",
    "Turn",
    "Usage",
    "allow",
    "assistant",
    "connect",
    "delete_file",
    "deny",
    "drain",
    "get_time",
    "http_post",
    "make_delete_file",
    "make_http_post",
    "make_read_file",
    "make_write_file",
    "mode_line",
    "read_file",
    "run",
    "signature_of",
    "t",
    "text_of",
    "tool",
    "tool_calls",
    "tool_result",
    "tool_results",
    "use_language",
    "user",
    "write_file",
]
