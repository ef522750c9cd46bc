"""The learner-facing string catalog: Japanese by default, English beside it.

``HARNESS_LAB_LANG=en`` switches the language; ``t("key", **values)`` formats one entry. Every
message a learner reads (stop reasons, approval prompts, widget labels, grader feedback) lives here,
so the two languages stay side by side and nothing is translated in two places.
"""

from __future__ import annotations

import os

__all__ = ["CATALOG", "lang", "t"]

# key -> (ja, en)
CATALOG: dict[str, tuple[str, str]] = {
    # stops (lesson 6's wording for the four valves)
    "stop.max_turns": (
        "最大ターン数 {limit} に達したので、自分から停止します（タスクが難しすぎるか、モデルが行き詰まっている可能性があります）",
        "Reached the maximum of {limit} turns, so the harness stopped itself (the task may be too hard or the model stuck).",
    ),
    "stop.token_budget": (
        "トークン予算 {limit} に達したので、自分から停止します（使用量 {used}）",
        "Reached the token budget of {limit}, so the harness stopped itself ({used} used).",
    ),
    "stop.usd_budget": (
        "費用の上限 ${limit} に達したので、自分から停止します（見積もり ${used}）",
        "Reached the cost limit of ${limit}, so the harness stopped itself (estimated ${used}).",
    ),
    "stop.token_budget_preflight": (
        "次のリクエストは見積もり {estimate} トークンで、予算 {limit} を超える（使用済み {used}）ので送らずに停止します",
        "The next request is estimated at {estimate} tokens and would cross the budget of {limit} ({used} used), so it was not sent.",
    ),
    "stop.no_progress": (
        "{window}ターン連続で同一のツール呼び出しでした（{signature}）。空回りと判定し、自分から停止します",
        "The same tool calls came {window} turns in a row ({signature}); judged as spinning, the harness stopped itself.",
    ),
    "stop.api_error": (
        "API エラーで停止しました（SDK の再試行の後）: {error}",
        "Stopped on an API error (after the SDK's retries): {error}",
    ),
    "stop.interrupted": (
        "中断しました。途中のターンは履歴に入れていないので、履歴は有効なまま再開できます",
        "Interrupted. Any unfinished turn was left out of the history, so the history stays valid and the run can resume.",
    ),
    "stop.interrupted_tools": (
        "ツールの実行中に中断しました。終わった呼び出しの結果と、終わらなかった呼び出しの「中断」の結果を履歴に入れたので、再開しても同じ呼び出しを二度実行することはありません",
        "Interrupted while tools ran. The finished calls' results and an 'interrupted' result for the others are in the history, so resuming never runs the same call twice.",
    ),
    "stop.max_tokens": (
        "応答が max_tokens で打ち切られました。途中で切れたツール呼び出しは実行していません",
        "The response was cut at max_tokens; a possibly truncated tool call was not run.",
    ),
    "stop.refusal": (
        "モデルが応答を辞退しました（refusal）{detail}",
        "The model declined to respond (refusal){detail}",
    ),
    "stop.model_context_window_exceeded": (
        "コンテキストウィンドウが一杯になり、応答が打ち切られました",
        "The context window is full; the response was truncated.",
    ),
    # one-line event summaries (print(event) in a script)
    "event.turn": (
        "[ターン {number}] {stop_reason}: {calls} → 結果 {results} 件（うちエラー {errors}）・{tokens} トークン",
        "[turn {number}] {stop_reason}: {calls} -> {results} results ({errors} errors), {tokens} tokens",
    ),
    "event.approval": (
        "[ターン {turn}] 承認待ち: {call}",
        "[turn {turn}] waiting for approval: {call}",
    ),
    "event.finished": (
        "完了（{stop_reason}）: ツール {turns} ラウンド・{tokens} トークン\n{text}",
        "Finished ({stop_reason}) after {turns} tool rounds, {tokens} tokens\n{text}",
    ),
    "event.stopped": (
        "停止（{valve}）: ツール {turns} ラウンド・{tokens} トークン — {reason}",
        "Stopped ({valve}) after {turns} tool rounds, {tokens} tokens: {reason}",
    ),
    # tool results the model reads
    "result.denied": (
        "ユーザーがこの高インパクトなアクションを拒否したため、実行していません。",
        "The user denied this high-impact action, so it was not run.",
    ),
    "result.denied_reason": (
        "ユーザーがこの高インパクトなアクションを拒否したため、実行していません。理由: {reason}",
        "The user denied this high-impact action, so it was not run. Reason: {reason}",
    ),
    "result.forbidden": (
        "ツール {name} はポリシーで禁止されているため、実行していません。",
        "The tool {name} is forbidden by policy, so it was not run.",
    ),
    "result.failed": (
        "ツールの実行に失敗しました: {error}",
        "The tool failed: {error}",
    ),
    "result.skipped": (
        "ハーネスが停止したため、このツール呼び出しは実行していません。",
        "The harness stopped, so this tool call was not run.",
    ),
    "result.interrupted": (
        "ツールの実行中にユーザーが中断しました。この呼び出しが終わったかどうか（副作用が起きたかどうか）は分かりません。",
        "The user interrupted while this tool was running; whether it finished (and had its effect) is unknown.",
    ),
    "result.skipped_steered": (
        "同じ呼び出しの繰り返しでハーネスが止まり、ユーザーが新しい指示を出したため、この呼び出しは実行していません。",
        "The harness stopped this repeated call and the user gave a new instruction, so it was not run.",
    ),
    # harness: tool results, built-in tools, approval, the terminal demo (tools.py, loop.py, cli.py)
    "result.input_not_object": (
        "ツールの入力がオブジェクト（JSON の {{}}）ではありません",
        "The tool input is not an object (a JSON {{}})",
    ),
    "result.invalid_input": (
        "ツール {name} の入力が input_schema に合いません: {problem}",
        "The input for {name} does not match its input_schema: {problem}",
    ),
    "result.truncated": (
        "…（出力が長すぎるため、{total} 文字のうち先頭 {limit} 文字で切り詰めました）",
        "… (output too long: cut to the first {limit} of {total} characters)",
    ),
    "result.unknown_tool": (
        "ツール {name} はこのハーネスにありません。使えるツール: {known}",
        "There is no tool named {name} in this harness. Available tools: {known}",
    ),
    "result.timeout": (
        "ツールが {seconds} 秒以内に終わらなかったため、結果を待たずに打ち切りました",
        "The tool did not finish within {seconds} s, so the harness stopped waiting for it",
    ),
    "result.approver_failed": (
        "承認の確認に失敗したため、安全側に倒して拒否しました（{error}）",
        "Asking for approval failed, so the call was denied to stay safe ({error})",
    ),
    "stop.no_progress_window": (
        "直近{window}ターンの中で同じツール呼び出しが繰り返されました（{signature}）。空回りと判定し、自分から停止します",
        "The same tool calls repeated within the last {window} turns ({signature}); judged as spinning, the harness stopped itself.",
    ),
    "stop.unexpected": (
        "想定していない stop_reason ({stop_reason}) だったので、ツールを実行せずに停止しました",
        "Unexpected stop_reason ({stop_reason}), so the harness stopped without running any tool.",
    ),
    "tool.get_time": ("現在時刻を ISO 8601 の文字列（UTC との時差つき）で返す", "Return the current time as an ISO 8601 string with its UTC offset"),
    "tool.read_file": (
        "プロジェクトディレクトリ内のテキストファイルの先頭 {limit} 文字を読む",
        "Read the first {limit} characters of a text file inside the project directory",
    ),
    "tool.write_file": ("サンドボックス内のファイルにテキストを書き込む（高インパクト）", "Write text to a file inside the sandbox (high impact)"),
    "tool.delete_file": ("サンドボックス内のファイルを削除する（高インパクト）", "Delete a file inside the sandbox (high impact)"),
    "tool.http_post": ("URL に HTTP POST を送る（高インパクト。この教材では記録するだけで送信しない）", "Send an HTTP POST to a URL (high impact; this toolkit only records it)"),
    "file.nul": ("パスに NUL 文字が含まれているため拒否しました: {path}", "Refused a path containing a NUL character: {path}"),
    "file.unreadable": ("パスを解決できませんでした: {path}（{error}）", "Could not resolve the path {path} ({error})"),
    "file.outside_root": (
        "プロジェクトディレクトリ外のパスの読み書きを拒否しました: {path}",
        "Refused a path outside the project directory: {path}",
    ),
    "file.outside_sandbox": (
        "サンドボックス {sandbox}/ の外には書き込めません: {path}",
        "Refused a path outside the sandbox {sandbox}/: {path}",
    ),
    "file.not_found": ("ファイルが見つかりません: {path}", "No such file: {path}"),
    "file.is_directory": ("ディレクトリなのでファイルとして扱えません: {path}", "This is a directory, not a file: {path}"),
    "file.not_regular": ("通常のファイルではないので読めません: {path}", "Not a regular file: {path}"),
    "file.binary": ("テキスト（UTF-8）ではないファイルなので読めません: {path}", "Not a UTF-8 text file (binary data): {path}"),
    "file.written": ("{path} に {chars} 文字を書き込みました", "Wrote {chars} characters to {path}"),
    "file.deleted": ("{path} を削除しました", "Deleted {path}"),
    "http.recorded": (
        "{url} への POST（本文 {chars} 文字）を記録しました（この教材では実際には送信しません）",
        "Recorded a POST to {url} ({chars} characters of body); this toolkit never sends it",
    ),
    "cli.request": ("[turn {turn}] モデルがツールを要求: {call}", "[turn {turn}] the model asks for a tool: {call}"),
    "cli.result": ("[turn {turn}] ツールの返り値: {value}", "[turn {turn}] the tool returned: {value}"),
    "cli.result_error": ("[turn {turn}] ツールの返り値 (is_error): {value}", "[turn {turn}] the tool returned (is_error): {value}"),
    "cli.pause": ("[turn {turn}] サーバー側のループが一時停止 (pause_turn)。そのまま送り返します", "[turn {turn}] the server-side loop paused (pause_turn); sending it back"),
    "cli.end": ("[turn {turn}] モデルが切り上げ ({stop_reason})", "[turn {turn}] the model wrapped up ({stop_reason})"),
    "cli.stopped": ("[turn {turn}] ハーネスが停止 ({valve}): {reason}", "[turn {turn}] the harness stopped ({valve}): {reason}"),
    "cli.approve": (
        "[approve] 高インパクトなアクション {call} を実行しようとしています — Enter で許可 / n で拒否: ",
        "[approve] about to run the high-impact action {call} — Enter to allow / n to deny: ",
    ),
    "cli.approve_no_tty": (
        "[approve] {call} は確認が必要ですが、入力できる端末がないため拒否します（--yes で全て許可）",
        "[approve] {call} needs approval but there is no terminal to ask, so it is denied (--yes allows all)",
    ),
    "cli.no_tty_reason": ("確認できる端末がなかったため（--yes で全て許可できます）", "there was no terminal to ask (--yes allows all)"),
    "cli.live_no_key": (
        "--live には ANTHROPIC_API_KEY の設定が必要です（オフラインで試すなら --live を外してください）",
        "--live needs ANTHROPIC_API_KEY to be set (drop --live to run offline)",
    ),
    "cli.mode_offline": ("（オフライン: エミュレーターのシナリオ {scenario}）", "(offline: emulator scenario {scenario})"),
    "cli.mode_live": ("（ライブ: {model}）", "(live: {model})"),
    # ui: block cards, the Stepper, the loop diagram and the plots (harness_lab/ui)
    "ui.card.text": ("テキスト", "text"),
    "ui.card.tool_use": ("ツール呼び出し tool_use", "tool call (tool_use)"),
    "ui.card.tool_result": ("ツールの結果 tool_result", "tool result (tool_result)"),
    "ui.card.error": ("エラー (is_error: true)", "error (is_error: true)"),
    "ui.card.usage": ("使用量", "usage"),
    "ui.card.usage_line": (
        "入力 {input_tokens} ・ 出力 {output_tokens} ・ キャッシュ書き込み {cache_creation_input_tokens} ・ キャッシュ読み込み {cache_read_input_tokens}（合計 {total} トークン）",
        "input {input_tokens} · output {output_tokens} · cache write {cache_creation_input_tokens} · cache read {cache_read_input_tokens} ({total} tokens in all)",
    ),
    "ui.card.other": ("その他のブロック {type}", "other block {type}"),
    "ui.card.truncated": ("…（残り {n} 文字は省略）", "… ({n} more characters not shown)"),
    "ui.card.role_user": ("ユーザー (user)", "user"),
    "ui.card.role_assistant": ("モデル (assistant)", "assistant"),
    "ui.card.turn": ("ターン {number}", "turn {number}"),
    "ui.card.signature": ("署名", "signature"),
    "ui.card.readings": ("弁の計器", "valve gauges"),
    "ui.card.approval": ("承認待ち: {name} を実行しますか？", "Approval needed: run {name}?"),
    "ui.card.decision_allow": ("許可しました", "Allowed"),
    "ui.card.decision_deny": ("拒否しました", "Denied"),
    "ui.card.finished": ("完了", "Finished"),
    "ui.card.stopped": ("ハーネスが停止 ({valve})", "Stopped by the harness ({valve})"),
    "ui.card.answer": ("最終回答", "final answer"),
    "ui.card.empty": ("（まだ何もありません）", "(nothing yet)"),
    "ui.button.next": ("次のターン", "Next turn"),
    "ui.button.all": ("最後まで", "Run to end"),
    "ui.button.stop": ("停止", "Stop"),
    "ui.button.approve": ("許可", "Allow"),
    "ui.button.deny": ("拒否", "Deny"),
    "ui.reason.placeholder": ("拒否の理由（任意）", "reason for denying (optional)"),
    "ui.gauge.turns": ("ターン", "turns"),
    "ui.gauge.tokens": ("トークン", "tokens"),
    "ui.gauge.signature": ("直前の署名", "last signature"),
    "ui.gauge.none": ("—", "—"),
    "ui.status.ready": ("準備完了: 「次のターン」で1ターン進めます", "Ready: press Next turn to run one turn"),
    "ui.status.waiting": ("承認待ち: 「許可」か「拒否」を押してください", "Waiting for approval: press Allow or Deny"),
    "ui.status.running": ("実行中…", "Running…"),
    "ui.status.paused": ("ターンの合間で一時停止しています", "Paused between turns"),
    "ui.status.finished": ("完了 (stop_reason: {stop_reason})", "Finished (stop_reason: {stop_reason})"),
    "ui.status.stopped": ("停止: {reason}", "Stopped: {reason}"),
    "ui.status.error": (
        "エラーで止まりました: {error}（履歴はそのままです。原因を直してから resume() で続けられます）",
        "Stopped by an error: {error} (the history is intact: fix the cause, then resume())",
    ),
    "ui.stop.denied_on_stop": ("停止ボタンが押されたため拒否しました", "Denied because Stop was pressed"),
    "ui.diagram.title": ("エージェントループと4つの制御弁", "The agent loop and its four control valves"),
    "ui.diagram.request": ("リクエスト送信", "send request"),
    "ui.diagram.response": ("応答を受け取る", "receive response"),
    "ui.diagram.stop_reason": ("stop_reason を確認", "check stop_reason"),
    "ui.diagram.tools": ("ツールを実行", "run tools"),
    "ui.diagram.results": ("tool_result を返す", "send tool_results"),
    "ui.diagram.end": ("終了: テキストを返す", "end: return the text"),
    "ui.diagram.end_edge": ("end_turn など", "end_turn etc."),
    "ui.diagram.loop_edge": ("履歴を携えて次のターンへ", "next turn, with the whole history"),
    "ui.diagram.before_request": ("リクエストの前", "before the request"),
    "ui.diagram.after_response": ("応答の後", "after the response"),
    "ui.diagram.before_tool": ("ツール実行の前", "before the tool runs"),
    "ui.diagram.here": ("現在地", "you are here"),
    "ui.diagram.fired": ("発動した弁", "valve that fired"),
    "ui.diagram.fired_badge": ("発動", "fired"),
    "ui.diagram.acted": ("作動した弁（実行は続く）", "valve that acted (the run goes on)"),
    "ui.diagram.acted_badge": ("作動", "acted"),
    "ui.diagram.stopped_by": ("止まった理由", "why it stopped"),
    "ui.diagram.step_label": ("{step}（{label}）", "{step} ({label})"),
    "ui.stop_name.interrupted": ("中断 (interrupted)", "interrupted"),
    "ui.stop_name.max_tokens": ("出力が max_tokens で切れた", "output cut off at max_tokens"),
    "ui.stop_name.refusal": ("モデルが応答を拒否 (refusal)", "the model refused (refusal)"),
    "ui.stop_name.model_context_window_exceeded": (
        "コンテキストウィンドウ超過 (model_context_window_exceeded)",
        "context window exceeded (model_context_window_exceeded)",
    ),
    "ui.stop_name.pause_turn": ("サーバー側ループの一時停止 (pause_turn)", "server-side loop paused (pause_turn)"),
    "ui.stop_name.api_error": ("API エラー (api_error)", "API error (api_error)"),
    "ui.stop_name.unexpected": ("想定外の stop_reason (unexpected)", "unexpected stop_reason (unexpected)"),
    "ui.valve.max_turns": ("最大ターン数", "max turns"),
    "ui.valve.token_budget": ("トークン予算", "token budget"),
    "ui.valve.no_progress": ("無進捗検知", "no-progress check"),
    "ui.valve.approval": ("承認弁", "approval"),
    "ui.plot.burn_title": ("モデル呼び出しごとのトークン消費", "Tokens burned per model call"),
    "ui.plot.total_title": ("累計トークンと予算", "Cumulative tokens against the budget"),
    "ui.plot.compare_title": ("実行の比較: 累計トークン", "Runs compared: cumulative tokens"),
    "ui.plot.call": ("モデル呼び出し（回目）", "model call (nth)"),
    "ui.card.turn_approvals": ("ターン {number} — 承認待ち", "turn {number} — approvals"),
    "ui.plot.tokens": ("トークン", "tokens"),
    "ui.plot.input": ("入力（キャッシュなし）", "input (uncached)"),
    "ui.plot.cache_write": ("キャッシュ書き込み", "cache write"),
    "ui.plot.cache_read": ("キャッシュ読み込み", "cache read"),
    "ui.plot.output": ("出力", "output"),
    "ui.plot.cumulative": ("累計", "cumulative"),
    "ui.plot.budget": ("予算 {limit}", "budget {limit}"),
    "ui.plot.stop": ("停止: {valve}", "stopped: {valve}"),
    "ui.plot.usd": ("費用の見積もり (USD)", "estimated cost (USD)"),
    "ui.plot.prompt_title": ("リクエストごとのプロンプト長（履歴ごと再送）", "Prompt size per request (the whole history is re-sent)"),
    "ui.plot.prices": (
        'usd_prices が {got} でした（{problem}）。100万トークンあたりの USD を {{"input": 3.0, "output": 15.0}} の形で渡してください。'
        '"cache_write" と "cache_read" は任意で、省略すると入力の 1.25 倍と 0.1 倍になります',
        'usd_prices was {got} ({problem}). Pass USD per million tokens as {{"input": 3.0, "output": 15.0}}; '
        '"cache_write" and "cache_read" are optional and default to 1.25x and 0.1x the input price',
    ),
    "ui.plot.prices_type": ("辞書ではありません", "not a dict"),
    "ui.plot.prices_missing": ("足りないキー: {keys}", "missing keys: {keys}"),
    "ui.plot.prices_unknown": ("知らないキー: {keys}", "unknown keys: {keys}"),
    "ui.plot.prices_value": ("0 以上の数ではない値: {keys}", "not a number >= 0: {keys}"),
    # client: connect() and its mode line (client.py)
    "client.live_no_key": (
        "live=True には環境変数 ANTHROPIC_API_KEY の設定が必要です（オフラインで試すなら live を指定しないでください）",
        "live=True needs the ANTHROPIC_API_KEY environment variable (leave live unset to run offline)",
    ),
    "client.mode_live": ("モード: ライブ（Claude API、モデル {model}）", "Mode: live (Claude API, model {model})"),
    "client.mode_offline": (
        "モード: オフライン（エミュレーター、シナリオ {scenario}。ANTHROPIC_API_KEY を設定すると本物の Claude に切り替わります）",
        "Mode: offline (emulator, scenario {scenario}; set ANTHROPIC_API_KEY to switch to live Claude)",
    ),
    "client.live_ignores": (
        "ANTHROPIC_API_KEY が設定されているのでライブの Claude につなぎます。{names} はエミュレーター専用なので使われません（オフラインのまま試すなら live=False）",
        "ANTHROPIC_API_KEY is set, so this connects to live Claude; {names} only work in the emulator and are ignored (pass live=False to stay offline)",
    ),
    # bad input: raised where the mistake is made, each saying what to write instead
    "usage.client": (
        "client には anthropic.Anthropic のクライアントを渡してください（例: client = hl.connect(\"lesson6\")）。渡されたのは {got} です",
        "client must be an anthropic.Anthropic client (e.g. client = hl.connect(\"lesson6\")), not {got}",
    ),
    "usage.valves": (
        "valves にはバルブのリストを渡してください（例: valves=[hl.MaxTurns(8), hl.Approval()]）。渡されたのは {got} です",
        "valves must be a list of valves (e.g. valves=[hl.MaxTurns(8), hl.Approval()]), not {got}",
    ),
    "usage.valve_class": (
        "{name} はクラスのままです。valves=[{name}(...)] のように、呼び出して作ったバルブを渡してください",
        "{name} is the class itself; pass a valve made from it, as in valves=[{name}(...)]",
    ),
    "usage.valve": (
        "{got} はバルブではありません。バルブは name・step・check(state)・reading(state) を持つもの（hl.MaxTurns(8)、hl.TokenBudget(40_000)、hl.NoProgress()、hl.Approval()）です",
        "{got} is not a valve; a valve has name, step, check(state) and reading(state) (hl.MaxTurns(8), hl.TokenBudget(40_000), hl.NoProgress(), hl.Approval())",
    ),
    "usage.max_tokens": (
        "max_tokens は 1 以上の整数です（渡されたのは {got}）。1回の応答の上限で、実行全体の予算は valves=[hl.TokenBudget(...)] で決めます",
        "max_tokens must be a whole number >= 1 (got {got}); it caps one response, the run's budget is valves=[hl.TokenBudget(...)]",
    ),
    "usage.option": (
        "{name} は run() の引数ではありません（使えるのは {known}）。{hint}",
        "{name} is not an argument of run() (it takes {known}). {hint}",
    ),
    "usage.option_valve": (
        "それはバルブの役目です: valves=[{valve}]",
        "That is a valve's job: valves=[{valve}]",
    ),
    "usage.prompt": (
        "プロンプトには空でない文字列（またはコンテンツブロックの空でないリスト）を渡してください。渡されたのは {got} です",
        "The prompt must be a non-empty string (or a non-empty list of content blocks), not {got}",
    ),
    "usage.steer": (
        "steer() には空でない文字列を渡してください。渡されたのは {got} です",
        "steer() takes a non-empty string, not {got}",
    ),
    "usage.running": (
        "この Run は途中です（動いている generator か、保留中の応答があります）。続けるなら run.resume()、指示を足すなら run.steer(text) のあと run.resume()、別の会話なら新しい Run を作ってください",
        "This Run is still under way (a generator is running or a response is held back). Continue with run.resume(), add an instruction with run.steer(text) then run.resume(), or make a new Run for a new conversation",
    ),
    "usage.not_started": (
        "この Run はまだ始まっていません。先に run.start(prompt) を呼んでください",
        "This Run has not started yet; call run.start(prompt) first",
    ),
    "usage.approve": (
        "approve には ApprovalRequest を受け取って allow() / deny(\"理由\") / True / False を返す関数を渡してください。渡されたのは {got} です",
        "approve must be a function that takes an ApprovalRequest and returns allow() / deny(\"why\") / True / False, not {got}",
    ),
    "usage.decision": (
        "Decision の allowed は True か False にしてください（許可は hl.allow()、拒否は hl.deny(\"理由\")）。渡されたのは {got} です",
        "Decision's allowed must be True or False (hl.allow() to allow, hl.deny(\"why\") to deny), not {got}",
    ),
    "usage.decision_reason": (
        "Decision の reason は文字列にしてください。渡されたのは {got} です",
        "Decision's reason must be a string, not {got}",
    ),
    "usage.tools": (
        "tools にはツールのリストを渡してください（例: tools=[hl.get_time]）。渡されたのは {got} です",
        "tools must be a list of tools (e.g. tools=[hl.get_time]), not {got}",
    ),
    "usage.tool_not_callable": (
        "ツールには関数を渡してください。{got} は呼び出せません（組み込みなら hl.read_file のように関数そのもの、自作なら @hl.tool を付けた関数を渡します）",
        "A tool must be a function; {got} is not callable (pass the function itself, like hl.read_file, or one decorated with @hl.tool)",
    ),
    "usage.tool_generator": (
        "ツール {name} はジェネレーター関数です。ツールの結果は1つの値なので、yield ではなく return で返してください",
        "The tool {name} is a generator function; a tool result is one value, so return it instead of yielding",
    ),
    "usage.tool_name": (
        "ツール名 {name} は API が受け付けません（英数字・_・- で 1〜64 文字）。@hl.tool(name=\"my_tool\") のように名前を付けてください",
        "The API does not accept the tool name {name} (1-64 letters, digits, _ or -); name it with @hl.tool(name=\"my_tool\")",
    ),
    "usage.tool_duplicate": (
        "ツール名 {name} が2つあります。API は同じ名前のツールを受け付けないので、片方に @hl.tool(name=\"...\") で別の名前を付けてください",
        "Two tools are named {name}; the API refuses duplicate names, so rename one with @hl.tool(name=\"...\")",
    ),
    "usage.annotation": (
        "ツール {tool} の引数 {param} の型 {annotation} は JSON で受け渡せません。str / int / float / bool / list / dict / Literal[...] / Optional[...] にするか、@hl.tool(input_schema={{...}}) でスキーマを直接書いてください",
        "Parameter {param} of tool {tool} is annotated {annotation}, which JSON cannot carry; use str / int / float / bool / list / dict / Literal[...] / Optional[...], or write the schema with @hl.tool(input_schema={{...}})",
    ),
    "usage.annotation_unresolved": (
        "ツール {tool} の型注釈を解決できません（{error}）。その型を import するか、@hl.tool(input_schema={{...}}) でスキーマを直接書いてください",
        "The annotations of tool {tool} cannot be resolved ({error}); import the type, or write the schema with @hl.tool(input_schema={{...}})",
    ),
    "usage.script": (
        "エミュレーターのシナリオには、シナリオ名（例: \"lesson6\"）、返答のリスト（say(...) / call(...) / reply(...)）、リクエストを受け取って返答を返す関数、Emulator のどれかを渡してください。渡されたのは {got} です",
        "An emulator scenario is a scenario name (e.g. \"lesson6\"), a list of replies (say(...) / call(...) / reply(...)), a function from request to reply, or an Emulator, not {got}",
    ),
    "usage.policy": (
        "Policy にはツール名 → 段階（\"allow\" / \"ask\" / \"deny\"）の dict を渡してください（例: hl.Policy({{\"write_file\": \"ask\"}})）。渡されたのは {got} です",
        "Policy takes a dict of tool name -> tier (\"allow\" / \"ask\" / \"deny\"), e.g. hl.Policy({{\"write_file\": \"ask\"}}), not {got}",
    ),
    "usage.approval_policy": (
        "Approval の policy には hl.Policy(...) を渡してください（例: hl.Approval(hl.Policy({{\"write_file\": \"ask\"}}))）。渡されたのは {got} です",
        "Approval's policy must be an hl.Policy(...) (e.g. hl.Approval(hl.Policy({{\"write_file\": \"ask\"}}))), not {got}",
    ),
    "usage.approver": (
        "approver には ApprovalRequest を受け取って allow() / deny(\"理由\") / True / False を返す関数を渡してください。渡されたのは {got} です",
        "approver must be a function that takes an ApprovalRequest and returns allow() / deny(\"why\") / True / False, not {got}",
    ),
    "result.approver_odd": (
        "承認の答え {answer} を解釈できないため、安全側に倒して拒否しました（allow() / deny(\"理由\") / True / False のどれかを返してください）",
        "The approval answer {answer} is not one the harness understands, so the call was denied to stay safe (answer allow() / deny(\"why\") / True / False)",
    ),
    # exercise graders (harness_lab/grading)
    "grade.criterion": (
        '基準{number}',
        'Criterion {number}',
    ),
    "grade.hint": (
        'ヒント',
        'Hint',
    ),
    "grade.all_passed": (
        '🎉 {total}つの基準をすべて満たしました。お見事です！',
        '🎉 All {total} criteria are met. Well done!',
    ),
    "grade.some_passed": (
        '結果: {total}つの基準のうち {score}つを満たしています。❌ の行のヒントを手がかりに直して、もう一度このセルを実行しましょう。',
        'Result: {score} of {total} criteria met. Use the hints on the ❌ lines, fix your code and run this cell again.',
    ),
    "grade.l2.c3.stale_response": (
        "API がリクエストを拒否しました（`tool_use` ids must be unique）: 前の周と同じ古い応答を、もう一度履歴に積んでいます。"
        "ループ本体の最後で response = client.messages.create(...) と再代入していますか？（レッスン4 のデッドループ）",
        "The API refused a request (`tool_use` ids must be unique): the same old response went into the history twice. "
        "Does the end of the loop body reassign response = client.messages.create(...)? (lesson 4's dead loop)",
    ),
    "grade.raised": (
        'あなたのコードが例外を送出しました: {error}。どこで何が起きたかを、例外の種類とメッセージから追ってみましょう',
        'Your code raised an exception: {error}. Use its type and message to find where and why.',
    ),
    "grade.timeout": (
        'あなたのコードが制限時間内に終わらなかったので、採点のために止めました。無限ループになっていませんか',
        'Your code did not finish within the time limit, so the grader stopped it. Is there an endless loop?',
    ),
    "grade.crashed": (
        'あなたのコードを実行したプロセスが、結果を返す前に終了しました',
        'The process running your code ended before it returned a result.',
    ),
    "grade.raised_at": (
        '（{function} の `{line}` の行）',
        ' (the line `{line}` in {function})',
    ),
    "grade.try.raised": (
        '例外が送出されました: {error}',
        'An exception was raised: {error}',
    ),
    "grade.try.timeout": (
        '{seconds}秒たっても終わらなかったので止めました。無限ループになっていませんか',
        'It did not finish within {seconds} seconds, so it was stopped. Is there an endless loop?',
    ),
    "grade.try.cut": (
        '（出力が長いので、最初の {limit} 文字だけを表示しました）',
        '(the output was long: only its first {limit} characters are shown)',
    ),
    "grade.l1.c1.title": (
        '3段階（allow / ask / deny）のポリシーと、未記載のツールが落ちるデフォルトの段階がある',
        'a policy with three tiers (allow / ask / deny) and a default tier for unlisted tools',
    ),
    "grade.l1.c1.no_default": (
        'DEFAULT_TIER が {value} です。ポリシーに載っていないツールがどの段階に落ちるかを、"allow" / "ask" / "deny" のどれかで決めましょう',
        'DEFAULT_TIER is {value}. Decide which tier ("allow" / "ask" / "deny") a tool missing from the policy falls to.',
    ),
    "grade.l1.c1.empty_policy": (
        'POLICY が空です。課題の表にあるツールそれぞれの段階を、あなたのポリシー構造に書き込みましょう',
        "POLICY is empty. Write the tier of each tool in the exercise's table into your policy structure.",
    ),
    "grade.l1.c1.unlisted_error": (
        'ポリシーに載っていないツール {tool} を呼んだところ、例外になりました: {error}。表にない名前が来たときにどうするかを考えましょう',
        'Calling {tool}, which is not in the policy, raised: {error}. Think about what happens when a name is not in the table.',
    ),
    "grade.l1.c1.mismatch": (
        '{tool} は {expected} のはずが、{seen} として振る舞いました。課題の表と、あなたのポリシーの引き方を見比べましょう',
        "{tool} should be {expected} but behaved as {seen}. Compare the exercise's table with how your code looks the tier up.",
    ),
    "grade.l1.c1.default_ignored": (
        'ポリシーに載っていないツール {tool} が、DEFAULT_TIER（{default}）ではなく {seen} として振る舞いました。デフォルトの段階は宣言するだけでなく、実際に使われていますか',
        '{tool}, which is not in the policy, behaved as {seen} instead of DEFAULT_TIER ({default}). Is the default actually used, not just declared?',
    ),
    "grade.l1.c1.allow_warning": (
        'デフォルトが allow です。基準は満たしますが、新しく足したツールが確認なしで走ってしまいます。ask か deny に倒すほうが安全です',
        'The default is allow. The criterion is met, but a newly added tool would run unchecked; ask or deny is safer.',
    ),
    "grade.l1.c2.title": (
        'ポリシーは tool_use ごとに、ツールを実行する前に評価され、ask は承認のコールバックを再利用している',
        'the policy is checked per tool_use before the tool runs, and ask reuses the approval callback',
    ),
    "grade.l1.c2.deny_ran": (
        'deny のツール（send_email）が実際に実行されてしまいました。結果を捨てても、メールはもう送られています',
        'The deny tool (send_email) actually ran. Discarding its result does not unsend the email.',
    ),
    "grade.l1.c2.not_asked": (
        'ask のツール（write_file）で approve が呼ばれませんでした。ask の段階では、既存の承認の仕組み（approve）に判断を委ねましょう',
        'approve was not called for the ask tool (write_file). For ask, hand the decision to the existing approval callback.',
    ),
    "grade.l1.c2.ran_before_asking": (
        'write_file が、人間の答えを聞く前に実行されました。「いいえ」と言われたときには、ファイルはもう書かれています。尋ねる位置を見直しましょう',
        'write_file ran before the human answered; by the time they say no, the file is already written. Look again at where you ask.',
    ),
    "grade.l1.c2.approved_not_run": (
        '承認された write_file が実行されませんでした（実行回数 {count}）。approve の返り値を正しく読めていますか',
        "The approved write_file did not run exactly once (ran {count} times). Do you read approve's return value correctly?",
    ),
    "grade.l1.c2.per_call": (
        '1つの応答に write_file が2回あり、1回目は承認、2回目は拒否されましたが、実行がそのとおりに分かれていません。判定は tool_use ブロック1つずつに行いましょう',
        'One response held two write_file calls, the first approved and the second refused, but what ran does not match. Decide per tool_use block.',
    ),
    "grade.l1.c2.allowed_skipped": (
        'allow・ask・deny のツールが1つの応答に混ざっていると、allow のツールが実行されませんでした。拒否や禁止のあとも、残りの呼び出しの処理を続けましょう',
        'With allow, ask and deny tools in one response, an allow tool did not run. Keep handling the remaining calls after a refusal or a deny.',
    ),
    "grade.l1.c3.title": (
        'deny でも is_error: true の tool_result でポリシーによる禁止を伝え、すべての tool_use に順番どおり1つずつ結果を返す',
        'deny still returns an is_error: true tool_result saying the policy forbids it, and every tool_use gets one result, in order',
    ),
    "grade.l1.c3.deny_no_result": (
        'deny のツールだけを呼ぶ応答に、tool_result が {count} 個返りました。呼び出しを宙ぶらりんにせず、ちょうど1つ返しましょう',
        'A response calling only a deny tool got {count} tool_results back. Leave no call dangling: return exactly one.',
    ),
    "grade.l1.c3.count": (
        'tool_use が {uses} 個ある応答に、tool_result が {results} 個返りました。実行しなかった呼び出しにも結果が要ります',
        'A response with {uses} tool_use blocks got {results} tool_results back. Calls you did not run need a result too.',
    ),
    "grade.l1.c3.type": (
        '返した要素に、type が "tool_result" でないものがあります',
        'Some returned items do not have type "tool_result".',
    ),
    "grade.l1.c3.order": (
        'tool_result の並びが tool_use の順番と違います。呼び出しの順に返しましょう',
        'The tool_results are not in the order of the tool_use blocks. Return them in call order.',
    ),
    "grade.l1.c3.ids": (
        'tool_result の tool_use_id が、対応する tool_use の id と一致していません',
        'The tool_use_id of a tool_result does not match the id of its tool_use.',
    ),
    "grade.l1.c3.no_id": (
        '{position}番目の tool_result に、文字列の tool_use_id がありません。どの tool_use への答えかを '
        '"tool_use_id": block.id で示しましょう（キーの名前は id ではなく tool_use_id です）',
        'Result {position} has no tool_use_id string. Say which tool_use it answers with '
        '"tool_use_id": block.id (the key is tool_use_id, not id).',
    ),
    "grade.l1.c3.deny_not_error": (
        'deny のときの tool_result に is_error: true が付いていません。これでは、呼び出しが成功しなかったことがモデルに伝わりません',
        'The tool_result for a deny lacks is_error: true, so the model is not told the call did not succeed.',
    ),
    "grade.l1.c3.deny_no_reason": (
        'deny のときの tool_result の内容から、そのツールがポリシーで禁止されていることがモデルに伝わりません。モデルが別の道を選べるよう、理由を書きましょう',
        'The deny tool_result does not tell the model that the tool is forbidden by policy. State the reason so the model can take another route.',
    ),
    "grade.l1.c3.refused_not_error": (
        '人間が拒否した write_file の tool_result に is_error: true が付いていません',
        'The tool_result for the write_file the human refused lacks is_error: true.',
    ),
    "grade.l1.c3.output_missing": (
        '実行された {tool} の出力が、エラーでない tool_result の content に入っていません',
        'The output of {tool}, which ran, is not in the content of a non-error tool_result.',
    ),
    "grade.l1.c3.api_rejected": (
        'この結果を次の user メッセージとして送ると、API が 400 を返します: {error}',
        'Sent as the next user message, these results get a 400 from the API: {error}',
    ),
    "grade.l2.options.gaps": (
        'MISSING の選択肢（裸のループに欠けている制御）:',
        'Options for MISSING (controls the bare loop lacks):',
    ),
    "grade.l2.options.runaways": (
        'RUNAWAYS の選択肢（その欠落が生む暴走の振る舞い）:',
        'Options for RUNAWAYS (runaway behaviours the gaps cause):',
    ),
    "grade.l2.gap.stop_condition": (
        '止まるか続けるかをモデルの stop_reason にまるごと委ねていて、ハーネス側の明示的な停止条件（ハードな上限）がない',
        "it leaves stop-or-continue entirely to the model's stop_reason: the harness has no explicit stop condition (hard limit)",
    ),
    "grade.l2.gap.token_budget": (
        '累計トークンの上限（予算）がない',
        'there is no cap on total tokens (budget)',
    ),
    "grade.l2.gap.no_progress": (
        '同じツール呼び出しの繰り返し（足踏み）を検知する仕組みがない',
        'nothing detects the same tool call repeating (spinning)',
    ),
    "grade.l2.gap.approval": (
        '高インパクトなアクションを実行前に人間に確認する仕組みがない',
        'nothing asks a human before a high-impact action runs',
    ),
    "grade.l2.gap.keep_history": (
        'モデルの応答（assistant の content）を履歴に残していない',
        "it does not keep the model's response (assistant content) in the history",
    ),
    "grade.l2.gap.tools_followup": (
        '2回目以降のリクエストに tools を渡していない',
        'it does not pass tools on the follow-up requests',
    ),
    "grade.l2.gap.reassign": (
        'ループの末尾で response を再代入していない',
        'it does not reassign response at the end of the loop body',
    ),
    "grade.l2.gap.one_user_message": (
        '1ターン分の tool_result を1つの user メッセージにまとめていない',
        "it does not put one turn's tool_results into a single user message",
    ),
    "grade.l2.runaway.endless_turns": (
        'モデルが tool_use を返し続けるかぎり、ターンが際限なく回り続ける',
        'as long as the model keeps returning tool_use, turns go on without end',
    ),
    "grade.l2.runaway.budget_burn": (
        '履歴が伸びるたびに1回あたりの入力トークンが増え、費用が燃え尽きるまで止まらない',
        "each request's input tokens grow with the history, and nothing stops the spending",
    ),
    "grade.l2.runaway.spinning": (
        '同じツールを同じ引数で何度も呼ぶ足踏みに、誰も気づかない',
        'nobody notices the model calling the same tool with the same arguments again and again',
    ),
    "grade.l2.runaway.early_stop": (
        'テキストとツール呼び出しが同じ応答に並ぶと、ツールを実行せずに止まってしまう',
        'when text and a tool call come in one response, it stops without running the tool',
    ),
    "grade.l2.runaway.api_400": (
        'tool_result が足りず、次のリクエストが 400 エラーで失敗する',
        'tool_results are missing, so the next request fails with a 400',
    ),
    "grade.l2.runaway.dead_loop": (
        'response が更新されず、古い stop_reason のまま同じリクエストを繰り返す',
        'response is never updated, so the same request repeats on a stale stop_reason',
    ),
    "grade.l2.unknown": (
        '選択肢にないキーがあります: {keys}。level2_options() の一覧からキーを選びましょう',
        'Some keys are not options: {keys}. Choose keys from the level2_options() list.',
    ),
    "grade.l2.c1.title": (
        '止まるか続けるかの判断がモデル任せで、明示的な停止条件がないことを指摘している',
        'it points out that stop-or-continue is left to the model, with no explicit stop condition',
    ),
    "grade.l2.c1.not_missing": (
        "'{option}'（{desc}）は、このループでは実はできています。コードをもう一度1行ずつ読んでみましょう",
        "'{option}' ({desc}): this loop actually does that. Read the code again line by line.",
    ),
    "grade.l2.c1.no_stop_condition": (
        'いちばん根本の欠落が挙がっていません。モデルが tool_use を返し続けたら、このループを止めるのは誰でしょう',
        'The most basic gap is not named. If the model keeps returning tool_use, who stops this loop?',
    ),
    "grade.l2.c2.title": (
        '暴走の振る舞いを少なくとも2種類（ターン/予算の暴走と、無進捗の足踏み）挙げている',
        'it names at least two runaway behaviours (turns/budget running away, and no-progress spinning)',
    ),
    "grade.l2.c2.not_this_loop": (
        "'{option}'（{desc}）は、このループでは起きません。このループが実際にやっていることと見比べましょう",
        "'{option}' ({desc}) does not happen in this loop. Compare it with what the loop actually does.",
    ),
    "grade.l2.c2.no_turns": (
        'モデルがいつまでも切り上げないとき、ターンや費用がどうなるかが挙がっていません',
        'Nothing says what happens to turns or cost when the model never wraps up.',
    ),
    "grade.l2.c2.no_spinning": (
        'ターン数も予算も上限に届いていないのに少しも進んでいない、という種類の暴走が挙がっていません',
        'The kind of runaway where neither turns nor budget hit a limit, yet nothing moves forward, is missing.',
    ),
    "grade.l2.c3.title": (
        'MAX_TURNS のチェックで、止まらないモデルでもちょうど N ラウンドで止まって停止メッセージを返し、普通のタスクはモデルの答えで終わる',
        "with the MAX_TURNS check, a model that never stops gets exactly N rounds and a stop message, and a normal task ends with the model's answer",
    ),
    "grade.l2.c3.bad_max_turns": (
        'MAX_TURNS が {value} です。2〜20 の整数にしましょう',
        'MAX_TURNS is {value}. Make it an integer from 2 to 20.',
    ),
    "grade.l2.c3.runaway": (
        'tool_use を返し続けるモデルに対して、ループが止まりませんでした。ハーネス側の上限は、実際にループを止めていますか',
        "Against a model that keeps returning tool_use, the loop did not stop. Does the harness's limit actually stop the loop?",
    ),
    "grade.l2.c3.one_early": (
        'MAX_TURNS={n} なのに、ツール実行 {rounds} ラウンド・モデル呼び出し {calls} 回で止まりました。1ラウンド早すぎます。カウンターを進めるのと上限を問うのは、どちらが先でしょう',
        'With MAX_TURNS={n} it stopped after {rounds} tool rounds and {calls} model calls: one round early. Which comes first, moving the counter or asking about the limit?',
    ),
    "grade.l2.c3.results_unsent": (
        'ツールを {rounds} ラウンド実行したのに、最後の結果をモデルに返さないまま止まりました（モデル呼び出し {calls} 回）。上限は「この一周に入る前に」問うものです',
        'It ran {rounds} tool rounds but stopped without sending the last results to the model ({calls} model calls). The limit is asked before entering a round.',
    ),
    "grade.l2.c3.counts": (
        'MAX_TURNS={n} で、ツール実行 {rounds} ラウンド・モデル呼び出し {calls} 回でした。ツール実行は MAX_TURNS ラウンド、モデル呼び出しはそれより1回多くなるはずです',
        'With MAX_TURNS={n} there were {rounds} tool rounds and {calls} model calls. Expected MAX_TURNS tool rounds and one model call more.',
    ),
    "grade.l2.c3.no_stop_message": (
        '上限で止まったときの返り値が {shown} でした。上限に達して止まったことが分かるメッセージ（ターン数や上限に触れる文）を返しましょう',
        'When stopped at the limit it returned {shown}. Return a message that says the run stopped at the limit (mention the turns or the limit).',
    ),
    "grade.l2.c3.normal_runaway": (
        'モデルが自分で答えを返す普通のタスクで、ループが止まりませんでした。モデルが切り上げた（end_turn）ことに気づけていますか',
        'On a normal task where the model answers by itself, the loop did not stop. Does it notice that the model wrapped up (end_turn)?',
    ),
    "grade.l2.c3.normal_raised": (
        'モデルが自分で切り上げる普通のタスクで、例外になりました: {error}。end_turn の後もループを回していませんか',
        'On a normal task where the model wraps up by itself, your code raised: {error}. Does the loop go on after end_turn?',
    ),
    "grade.l2.c3.normal_answer": (
        '普通のタスクで、モデルの最後の答えが返りませんでした（返り値: {shown}）',
        "On a normal task, the model's final answer was not returned (returned: {shown}).",
    ),
    "grade.l2.c3.cut_at_cap": (
        'ちょうど {n} ラウンドで答えるタスクが、モデルの答えではなく {shown} で終わりました。MAX_TURNS={n} は {n} ラウンドまでを許すはずです。判定の位置を見直しましょう',
        "A task that answers after exactly {n} rounds ended with {shown}, not the model's answer. MAX_TURNS={n} should allow {n} rounds; check where you test the limit.",
    ),
    "grade.l2.c3.normal_calls": (
        '普通のタスクでのモデル呼び出しが {calls} 回でした（{expected} 回のはず）',
        'The normal task made {calls} model calls ({expected} expected).',
    ),
    # exercise graders (harness_lab/grading)
    "grade.l1.c2.refusal_ignored": (
        'approve に「いいえ」と言われた write_file が実行されました。尋ねたあと、その答えで実行するかどうかを決めていますか',
        'write_file ran although approve said no. After asking, do you use the answer to decide whether to run?',
    ),
}


def lang() -> str:
    """The active language: ``HARNESS_LAB_LANG`` ("ja" or "en"), Japanese when unset or unknown."""
    return "en" if os.environ.get("HARNESS_LAB_LANG", "ja").lower().startswith("en") else "ja"


def t(key: str, **values: object) -> str:
    """The catalog entry ``key`` in the active language, formatted with ``values``."""
    ja, en = CATALOG[key]
    return (en if lang() == "en" else ja).format(**values)
