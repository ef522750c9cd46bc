"""``harness-lab run "..."``: lesson 6's terminal demo, offline by default (lesson 6: the entry point).

It wires the two toy tools and the four valves into a ``Run`` and prints the lesson's trace, one
line per step::

    [turn 1] モデルがツールを要求: read_file({"path":"README.md"})
    [turn 1] ツールの返り値: "# エージェントハーネスの基礎\\n..."
    [turn 3] モデルが切り上げ (end_turn)

Exit codes: 0 when the model finished, 1 when the harness stopped it, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Callable, TextIO

from .events import ApprovalRequest, Decision, Finished, Stopped, Turn, deny
from .messages import tool_calls
from .text import t

__all__ = ["main", "shorten", "terminal_approver"]

SHOWN_CHARS = 40  # how much of a tool's output the trace shows
STOPPED_TEXT_CHARS = 200  # how much of a held-back response a stop shows


def compact(value: Any) -> str:
    """JSON as the lesson prints it: no spaces, Japanese as is."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def shorten(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` JSON-quoted, cut after its first line (or at ``limit`` characters) with ``...``."""
    newline = text.find("\n")
    if 0 <= newline < limit and newline + 1 < len(text):
        head = text[: newline + 1]
    elif len(text) > limit:
        head = text[:limit]
    else:
        return json.dumps(text, ensure_ascii=False)
    return json.dumps(head, ensure_ascii=False)[:-1] + '..."'


def terminal_approver(
    yes: bool = False,
    ask: Callable[[str], str] = input,
    interactive: Callable[[], bool] = lambda: sys.stdin is not None and sys.stdin.isatty(),
    out: TextIO | None = None,
) -> Callable[[ApprovalRequest], bool | Decision]:
    """The lesson's ``approveInTerminal``: Enter allows, ``n`` denies; no terminal or EOF denies."""

    def approve(request: ApprovalRequest) -> bool:
        call = f"{request.name}({compact(request.input)})"
        if yes:
            return True
        if not interactive():
            print(t("cli.approve_no_tty", call=call), file=out or sys.stdout)
            return deny(t("cli.no_tty_reason"))
        try:
            answer = ask(t("cli.approve", call=call))
        except EOFError:
            return False
        return answer.strip().lower() not in ("n", "no")

    return approve


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:  # else argparse says "invalid _positive value"
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer: {text}")
    return value


def _prompt(text: str) -> str:
    # An empty prompt is a usage error here, not a traceback from Run.start.
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="harness-lab", description="Lesson 6's agent harness in the terminal.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run the agent on one prompt and print its trace")
    run.add_argument("prompt", type=_prompt)
    run.add_argument("--max-turns", type=_positive, default=8, help="valve 1: tool rounds allowed (default 8)")
    run.add_argument("--budget", type=_positive, default=40_000, help="valve 2: token budget (default 40000)")
    run.add_argument("--scenario", default="lesson6", help="the emulator's scenario when offline (default lesson6)")
    run.add_argument("--live", action="store_true", help="use live Claude (needs ANTHROPIC_API_KEY)")
    run.add_argument("--model", default=None, help="model id (default: HARNESS_LAB_MODEL or claude-sonnet-5)")
    run.add_argument("--lang", choices=("ja", "en"), default=None, help="language of the messages")
    run.add_argument("--yes", action="store_true", help="allow every approval without asking")
    run.add_argument("--high-impact", action="store_true",
                     help="also wire the sandboxed write_file, delete_file and http_post")
    return parser


def _client(args: argparse.Namespace) -> Any:
    from .client import connect  # imported here: only the command needs a client

    if args.live:
        return connect(live=True, model=args.model)
    return connect(args.scenario, live=False, model=args.model)


def _tools(high_impact: bool) -> list:
    from .tools import get_time, make_delete_file, make_http_post, make_read_file, make_write_file

    tools = [make_read_file(), get_time]
    if high_impact:
        tools += [make_write_file(), make_delete_file(), make_http_post()]
    return tools


def _printer(harness: Any, out: TextIO) -> Callable[[Any], None]:
    announced = []  # turns whose tool requests are already printed (before an approval prompt)

    def requests(number: int, content: Any) -> None:
        if number not in announced:
            announced.append(number)
            for call in tool_calls(content):
                print(t("cli.request", turn=number, call=f"{call['name']}({compact(call['input'])})"), file=out)

    def show(event: Any) -> None:
        turn = harness.state.model_calls
        if isinstance(event, ApprovalRequest):
            requests(event.request_number, harness.state.pending.content)
        elif isinstance(event, Turn):
            if event.stop_reason == "pause_turn" and not event.results:
                print(t("cli.pause", turn=event.request_number), file=out)
            requests(event.request_number, event.response.content)
            for result in event.results:
                key = "cli.result_error" if result.get("is_error") else "cli.result"
                print(t(key, turn=event.request_number, value=shorten(result["content"])), file=out)
        elif isinstance(event, Finished):
            print(t("cli.end", turn=turn, stop_reason=event.stop_reason), file=out)
            print(f"\n{event.text}", file=out)
        elif isinstance(event, Stopped):
            print(t("cli.stopped", turn=turn, valve=event.cause, reason=event.reason), file=out)
            if event.text:  # what the model said in the turn that was held back: a glimpse is enough
                glimpse = event.text if len(event.text) <= STOPPED_TEXT_CHARS else event.text[:STOPPED_TEXT_CHARS] + "…"
                print(f"\n{glimpse}", file=out)
        out.flush()

    return show


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    args = _parser().parse_args(argv)  # exits with 2 on a usage error
    out = out or sys.stdout
    if args.lang:
        os.environ["HARNESS_LAB_LANG"] = args.lang
    if args.live and not os.environ.get("ANTHROPIC_API_KEY"):
        print(t("cli.live_no_key"), file=sys.stderr)
        return 2
    from .emulator.scenarios import scenario_names

    if not args.live and args.scenario not in scenario_names():
        print(f"unknown scenario {args.scenario!r}; known: {', '.join(scenario_names())}", file=sys.stderr)
        return 2

    from .loop import Run, drain
    from .valves import Approval, MaxTurns, NoProgress, TokenBudget

    client = _client(args)
    model = args.model or getattr(client, "_harness_lab_model", None)
    mode = t("cli.mode_live", model=model) if args.live else t("cli.mode_offline", scenario=args.scenario)
    print(mode, file=sys.stderr)
    valves = [MaxTurns(args.max_turns), TokenBudget(args.budget), NoProgress(), Approval()]
    harness = Run(client, _tools(args.high_impact), valves, model=model)
    end = drain(harness.start(args.prompt), terminal_approver(args.yes), _printer(harness, out))
    return 0 if isinstance(end, Finished) else 1


if __name__ == "__main__":
    sys.exit(main())
