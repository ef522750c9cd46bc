"""``harness-lab run "..."``: lesson 6's terminal demo, offline by default (lesson 6: the entry point).

It wires the two toy tools and the four valves into a ``Run`` and prints the lesson's trace, one
line per step::

    [turn 1] モデルがツールを要求: read_file({"path":"README.md"})
    [turn 1] ツールの返り値: "# エージェントハーネスの基礎\\n..."
    [turn 3] モデルが切り上げ (end_turn)

Everything that came from the model or a tool is printed through ``terminal.visible()``, so an escape sequence
in a model's text or a tool's output is shown, not obeyed by the terminal. Approval answers are read
by ``read_answer()``: Enter allows, as in the lesson, and only a recognisable yes or no decides.

Exit codes: 0 when the model finished, 1 when the harness stopped it, 2 for usage errors.

``harness-lab grade NOTEBOOK...`` (one learner) and ``harness-lab grade-class SUBMISSIONS --out REPORT``
(a class) hand over to ``grading/``, imported only inside those subcommands: this module is the
package's top layer, and ``run`` never loads the graders. The arguments and their help, in the
language asked for, are ``cli_parser.py``'s.
"""

from __future__ import annotations

import argparse
import os
import sys
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from .cli_parser import build_parser, requested_language
from .events import ApprovalRequest, Decision, Finished, Stopped, Turn, deny
from .messages import tool_calls
from .terminal import compact, shorten, visible
from .text import t

if TYPE_CHECKING:  # the tools are imported only by the command that runs them
    from .tools import Tool

__all__ = ["main", "read_answer", "terminal_approver"]

STOPPED_TEXT_CHARS = 200  # how much of a held-back response a stop shows
ANSWER_TRIES = 3  # unreadable approval answers before the call is denied
SHOWN_ANSWER_CHARS = 20  # how much of an unreadable answer the hint repeats

# The lesson's approveInTerminal denies only when the answer is exactly "n" (`!== "n"`): with the
# Japanese IME on, "n" arrives as 「ｎ」 and "no" as 「の」, and 「いいえ」 or "deny" is not "n"
# either, so each of them lets the tool run. The harness keeps "Enter allows" but decides only on a
# word it recognises, and asks again on anything else. Katakana is read as hiragana (ダメ = だめ).
YES_WORDS = frozenset(
    {
        "y",
        "yes",
        "yeah",
        "yep",
        "ok",
        "okay",
        "sure",
        "allow",
        "approve",
        "はい",
        "うん",
        "ええ",
        "おっけー",
        "許可",
        "承認",
        "実行",
    }
)
NO_WORDS = frozenset(
    {
        "n",
        "no",
        "nope",
        "nah",
        "deny",
        "reject",
        "refuse",
        "cancel",
        "stop",
        "abort",
        "don't",
        "dont",
        "never",
        "いいえ",
        "いえ",
        "いや",
        "嫌",
        "だめ",
        "駄目",
        "のー",
        "拒否",
        "却下",
        "不可",
        "きゃんせる",
        "中止",
        "やめて",
        "やめる",
        "止めて",
        "しない",
        "ん",
        "の",
    }
)  # "n" and "no" typed with the IME on in kana mode
# Left out on purpose, so they are asked again: 「いいです」「結構です」「大丈夫」 mean yes or
# "no, thank you" depending on the tone, and 「はい？」 is "pardon?", which is why "?" is not trimmed.
_TRAILING = ".。!,、~〜"  # sentence ends that change nothing: "no." and 「いいえ。」 are still no
_KATAKANA_TO_HIRAGANA = {code: code - 0x60 for code in range(ord("ァ"), ord("ヶ") + 1)}


def read_answer(text: str) -> bool | None:
    """Read a typed approval answer: ``True`` allows, ``False`` denies, ``None`` means "ask again".

    Enter alone (nothing, or only spaces) allows, as in lesson 6. Otherwise the answer is
    NFKC-normalised (full-width ｎｏ becomes no, half-width ｷｬﾝｾﾙ becomes キャンセル), stripped of every
    space (U+3000 included, so "N o" is no), case-folded, read with katakana as hiragana and with
    trailing "." "。" "!" "、" trimmed, then looked up in ``YES_WORDS`` and ``NO_WORDS``. Anything
    else is ``None``, never a yes.
    """
    word = "".join(unicodedata.normalize("NFKC", text).split())
    if not word:
        return True
    word = word.casefold().translate(_KATAKANA_TO_HIRAGANA).rstrip(_TRAILING)
    if word in YES_WORDS:
        return True
    if word in NO_WORDS:
        return False
    return None


def _has_terminal() -> bool:
    return sys.stdin is not None and sys.stdin.isatty()


def terminal_approver(
    yes: bool = False,
    ask: Callable[[str], str] = input,
    interactive: Callable[[], bool] = _has_terminal,
    out: TextIO | None = None,
) -> Callable[[ApprovalRequest], bool | Decision]:
    """The lesson's ``approveInTerminal``, failing closed: Enter or a yes allows, a no denies.

    An answer ``read_answer`` cannot read is asked again with a hint, ``ANSWER_TRIES`` times in all,
    then denied; no terminal or EOF (Ctrl-D) denies. Ctrl-C is left to ``drain``, which stops the run.
    """

    def approve(request: ApprovalRequest) -> bool | Decision:
        call = visible(f"{request.name}({compact(request.input)})")
        if yes:
            return True
        if not interactive():
            print(t("cli.approve_no_tty", call=call), file=out or sys.stdout)
            return deny(t("cli.no_tty_reason"))
        for left in reversed(range(ANSWER_TRIES)):
            try:
                answer = ask(t("cli.approve", call=call))
            except EOFError:
                print("\n" + t("cli.approve_eof"), file=out or sys.stdout)  # the cursor is still after the prompt
                return deny(t("cli.eof_reason"))
            except UnicodeDecodeError:  # bytes the terminal's encoding cannot read: not an answer
                answer = "\ufffd"
            decision = read_answer(answer)
            if decision is not None:
                return decision
            shown = answer if len(answer) <= SHOWN_ANSWER_CHARS else answer[:SHOWN_ANSWER_CHARS] + "…"
            print(
                t("cli.approve_again", answer=visible(shown), left=left) if left else t("cli.approve_gave_up"),
                file=out or sys.stdout,
            )
        return deny(t("cli.unread_reason"))

    return approve


def _grade(args: argparse.Namespace, out: TextIO) -> int:
    # The graders are imported here, so `import harness_lab` and `harness-lab run` never load them.
    if args.command == "grade":
        from .grading.command import grade_files

        return grade_files(args.notebooks, timeout=args.timeout, out=out)
    from .grading.class_command import grade_class_command

    return grade_class_command(
        args.submissions, args.out, jobs=args.jobs, timeout=args.timeout, stdout=out, unsandboxed=args.unsandboxed
    )


def _client(args: argparse.Namespace) -> Any:
    from .client import connect  # imported here: only the command needs a client

    if args.live:
        return connect(live=True, model=args.model)
    return connect(args.scenario, live=False, model=args.model)


def _tools(high_impact: bool) -> list[Tool]:
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
                print(
                    t("cli.request", turn=number, call=visible(f"{call['name']}({compact(call['input'])})")), file=out
                )

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
                print(t(key, turn=event.request_number, value=visible(shorten(result["content"]))), file=out)
        elif isinstance(event, Finished):
            print(t("cli.end", turn=turn, stop_reason=visible(str(event.stop_reason))), file=out)
            print(f"\n{visible(event.text, lines=True)}", file=out)
        elif isinstance(event, Stopped):
            print(t("cli.stopped", turn=turn, valve=event.cause, reason=visible(event.reason)), file=out)
            if event.text:  # what the model said in the turn that was held back: a glimpse is enough
                glimpse = event.text if len(event.text) <= STOPPED_TEXT_CHARS else event.text[:STOPPED_TEXT_CHARS] + "…"
                print(f"\n{visible(glimpse, lines=True)}", file=out)
        out.flush()

    return show


def _not_utf8(args: argparse.Namespace) -> str | None:
    """The first argument that is not UTF-8 text (``$'\\xff'`` arrives as a lone surrogate), or None."""
    for name, value in (("prompt", args.prompt), ("--model", args.model or "")):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return name
    return None


def _not_emulated(args: argparse.Namespace) -> str | None:
    """Why the emulator cannot run this offline, or None. A model it does not know would get its 404
    only after the run started, as an API error stop: named here with the ones it knows."""
    from .emulator import KNOWN_MODELS, scenario_names

    if args.scenario not in scenario_names():
        return t("client.unknown_scenario", name=visible(repr(args.scenario)), known=", ".join(scenario_names()))
    if args.model is not None and args.model not in KNOWN_MODELS:
        return t("cli.unknown_model", name=visible(repr(args.model)), known=", ".join(sorted(KNOWN_MODELS)))
    return None


def main(
    argv: list[str] | None = None,
    out: TextIO | None = None,
    *,
    client: Any = None,
    ask: Callable[[str], str] = input,
    interactive: Callable[[], bool] | None = None,
) -> int:
    """Run ``harness-lab``; ``client`` replaces the one ``--scenario`` / ``--live`` would make, and
    ``ask`` / ``interactive`` go to ``terminal_approver`` (a test types its answers through them)."""
    try:
        code = _command(argv, out, client=client, ask=ask, interactive=interactive)
        sys.stdout.flush()  # here, not at exit, so that a reader gone is seen below
        return code
    except BrokenPipeError:
        # The reader stopped reading (`| head -1`): nothing is left to say, and no traceback about it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _command(argv: list[str] | None, out: TextIO | None, **given: Any) -> int:
    client, ask, interactive = given["client"], given["ask"], given["interactive"]
    asked = requested_language(sys.argv[1:] if argv is None else argv)
    if asked:  # before parsing: the help and the usage errors are printed while argparse parses
        os.environ["HARNESS_LAB_LANG"] = asked
    args = build_parser().parse_args(argv)  # exits with 2 on a usage error
    out = out or sys.stdout
    language = args.lang or args.lang_first  # the one after the command wins
    if language:
        os.environ["HARNESS_LAB_LANG"] = language
    if args.command != "run":
        if argv is None:  # this process is the command itself, not a caller's: it adopts what hosts leave
            from .grading.adopted import adopt

            adopt()
        return _grade(args, out)
    bad = _not_utf8(args)
    if bad:  # refused at the door: it could never be sent to the API as JSON
        print(t("cli.not_utf8", name=bad), file=sys.stderr)
        return 2
    if args.live and client is None and not os.environ.get("ANTHROPIC_API_KEY"):
        print(t("cli.live_no_key"), file=sys.stderr)
        return 2
    if not args.live and client is None:
        refused = _not_emulated(args)
        if refused:
            print(refused, file=sys.stderr)
            return 2

    from .drain import drain
    from .emulator import emulator_of
    from .loop import Run
    from .valves import Approval, MaxTurns, NoProgress, TokenBudget, Valve

    client = client if client is not None else _client(args)
    model = args.model or getattr(client, "_harness_lab_model", None)
    emulator = emulator_of(client)  # None: a live client
    mode = t("cli.mode_live", model=model) if emulator is None else t("cli.mode_offline", scenario=emulator.name)
    print(mode, file=sys.stderr)
    valves: list[Valve] = [MaxTurns(args.max_turns), TokenBudget(args.budget), NoProgress(), Approval()]
    harness = Run(client, _tools(args.high_impact), valves, model=model)
    approve = terminal_approver(args.yes, ask, interactive or _has_terminal, out)
    end = drain(harness.start(args.prompt), approve, _printer(harness, out))
    return 0 if isinstance(end, Finished) else 1


if __name__ == "__main__":
    sys.exit(main())
