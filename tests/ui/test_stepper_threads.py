"""A click handled on another thread (a kernel subshell's) is carried out on the panel's own thread,
after what that thread had already been given, such as the reason typed before a 「拒否」."""

import asyncio
import threading

from harness_lab.events import Turn
from harness_lab.ui import Stepper
from tests.ui.conftest import PROMPT


def _on_another_thread(action) -> None:
    worker = threading.Thread(target=action)
    worker.start()
    worker.join()


def test_a_click_from_another_thread_runs_on_the_panels_thread(make_run):
    async def day() -> None:
        s = Stepper(make_run("high_impact"), PROMPT)
        drawn_on = []
        s.status.observe(lambda _: drawn_on.append(threading.current_thread()), "value")
        _on_another_thread(s.next_button.click)
        assert s.pending is None and not drawn_on  # nothing done on the other thread
        await asyncio.sleep(0.05)
        assert s.pending is not None and s.pending.name == "write_file"
        assert drawn_on and set(drawn_on) == {threading.main_thread()}

    asyncio.run(day())


def test_a_reason_set_before_a_denial_from_another_thread_reaches_the_model(make_run):
    async def day() -> None:
        run = make_run("high_impact")
        s = Stepper(run, PROMPT)
        s.step()
        loop = asyncio.get_running_loop()
        # The click comes on a subshell's thread; the reason was queued on the panel's thread first.
        loop.call_soon(setattr, s.reason, "value", "まだ書かないで")
        _on_another_thread(s.deny_button.click)
        await asyncio.sleep(0.05)
        assert isinstance(s.entries[-1], Turn)
        result = run.messages[2]["content"][0]
        assert result["is_error"] is True and "まだ書かないで" in result["content"]

    asyncio.run(day())


def test_work_handed_home_runs_as_the_panels_own_shell_would():
    # ipykernel keeps the message being answered in a context variable and routes a widget's next
    # messages to the shell that last spoke for it: work handed home must not speak as the subshell.
    from contextvars import ContextVar

    from harness_lab.ui.home_thread import HomeThread

    parent: ContextVar[str] = ContextVar("parent")

    async def day() -> list:
        parent.set("the cell that made the panel")
        home, seen = HomeThread(), []

        def click_on_a_subshell() -> None:
            parent.set("a click on a subshell")
            home.call(lambda: seen.append(parent.get()))

        _on_another_thread(click_on_a_subshell)
        await asyncio.sleep(0.05)
        return seen

    assert asyncio.run(day()) == ["the cell that made the panel"]
