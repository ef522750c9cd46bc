"""harness_lab: hand-write an agent loop on the Messages API and fit it with four control valves."""

from .events import ApprovalRequest, Decision, Finished, Stopped, Turn, Usage, allow, deny
from .messages import text_of, tool_calls, tool_result
from .text import t
