"""The named places in the loop where a valve can sit (lesson 6: 「それぞれがループのどのステップに属するか」).

Each valve says which one it belongs to in its ``step``; the loop calls the valves of a step at that
step and nowhere else, and the loop diagram reads the same names. In the order a turn meets them::

    before_send       right before a request goes out       the budget, when it checks the next prompt
    loop_top          top of the while body, after          max turns, token budget
                      stop_reason said tool_use, before
                      the turn counter moves
    before_tools      the response's calls are known,        no-progress detection
                      none has run yet
    before_each_tool  one tool_use, right before it runs     approval (allow / ask / deny)
"""

from __future__ import annotations

__all__ = ["STEPS"]

STEPS = ("before_send", "loop_top", "before_tools", "before_each_tool")
