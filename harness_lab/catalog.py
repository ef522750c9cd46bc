"""The core's words in both languages: stops, tool results, the terminal demo (bad-input errors: usage_catalog.py).

``text.py`` serves them (``t("stop.max_turns", limit=8)``); the widgets', graders' and lessons'
words sit beside their code in their own ``catalog.py`` and are added to the same table on import.
"""

from __future__ import annotations

# key -> (ja, en)
CORE: dict[str, tuple[str, str]] = {
    # stops (lesson 6's wording for the four valves)
    "stop.max_turns": (
        "最大ターン数 {limit} に達したので、自分から停止します（タスクが難しすぎるか、モデルが行き詰まっている可能性があります）",
        "Reached the maximum of {limit:turns}, so the harness stopped itself (the task may be too hard or the model stuck).",
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
        "次のリクエストは、プロンプトの見積もり {prompt} と返事の上限 max_tokens {reply} を足すと予算 {limit} を超える（使用済み {used}）ので、送らずに停止します",
        "The next request's estimated prompt ({prompt:tokens}) plus its reply's ceiling, max_tokens ({reply}), would cross the budget of {limit} ({used} used), so the harness stopped without sending it.",
    ),
    "stop.no_progress": (
        "{window}ターン連続で同一のツール呼び出しでした（{signature}）。空回りと判定し、自分から停止します",
        "The same tool calls came {window:turns} in a row ({signature}); judged as spinning, the harness stopped itself.",
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
        "応答が max_tokens で打ち切られました。途中で切れたかもしれないツール呼び出しは実行していません",
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
        "[turn {number}] {stop_reason}: {calls} -> {results:results} ({errors:errors}), {tokens:tokens}",
    ),
    "event.approval": (
        "[ターン {turn}] 承認待ち: {call}",
        "[turn {turn}] waiting for approval: {call}",
    ),
    "event.finished": (
        "完了（{stop_reason}）: ツール呼び出し {turns} ターン・合計 {tokens} トークン\n{text}",
        "Finished ({stop_reason}) after {turns:tool turns}, {tokens:tokens} in all\n{text}",
    ),
    "event.stopped": (
        "停止（{valve}）: ツール呼び出し {turns} ターン・合計 {tokens} トークン — {reason}",
        "Stopped ({valve}) after {turns:tool turns}, {tokens:tokens} in all: {reason}",
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
    "result.bad_schema": (
        "ツール {name} の input_schema が JSON Schema として正しくないため、入力を確かめられず、実行していません: {error}",
        "The input_schema of {name} is not valid JSON Schema, so its input could not be checked and it was not run: {error}",
    ),
    "result.truncated": (
        "…（出力が長すぎるため、{total} 文字のうち先頭 {limit} 文字で切り詰めました）",
        "… (output too long: cut to the first {limit} of {total:characters})",
    ),
    "result.unknown_tool": (
        "ツール {name} はこのハーネスにありません。使えるツール: {known}",
        "There is no tool named {name} in this harness. Available tools: {known}",
    ),
    "result.timeout": (
        "ツールが {seconds} 秒以内に終わらなかったため、結果を待たずに打ち切りました",
        "The tool did not finish within {seconds} s, so the harness stopped waiting for it",
    ),
    "result.not_started": (
        "この呼び出しは実行できませんでした（ツールを動かすスレッドを作れなかった: {error}）。実行していません",
        "This call could not be started (no thread to run the tool: {error}); it did not run.",
    ),
    "result.timeout_waiting": (
        "{seconds} 秒待っても、この呼び出しを動かす空きがありませんでした（ほかの呼び出しが止まったままです）。実行していません",
        "No worker came free for this call within {seconds} s (other calls are stuck); it did not run.",
    ),
    "result.failed_harness": (
        "ハーネスの側で問題が起きたため、この呼び出しの結果は分かりません（実行されたかもしれません）",
        "The harness failed while this call was under way; its outcome is unknown (it may have run).",
    ),
    "result.approver_failed": (
        "承認の確認に失敗したため、安全側に倒して拒否しました（{error}）",
        "Asking for approval failed, so the call was denied to stay safe ({error})",
    ),
    "stop.no_progress_window": (
        "直近{window}ターンの中で同じツール呼び出しが繰り返されました（{signature}）。空回りと判定し、自分から停止します",
        "The same tool calls repeated within the last {window:turns} ({signature}); judged as spinning, the harness stopped itself.",
    ),
    "stop.unexpected": (
        "想定していない stop_reason ({stop_reason}) だったので、ツールを実行せずに停止しました",
        "Unexpected stop_reason ({stop_reason}), so the harness stopped without running any tool.",
    ),
    "tool.get_time": (
        "現在時刻を ISO 8601 の文字列（UTC との時差つき）で返す",
        "Return the current time as an ISO 8601 string with its UTC offset",
    ),
    "tool.read_file": (
        "プロジェクトディレクトリ内のテキストファイルの先頭 {limit} 文字を読む",
        "Read the first {limit:characters} of a text file inside the project directory",
    ),
    "tool.write_file": (
        "サンドボックス内のファイルにテキストを書き込む（高インパクト）",
        "Write text to a file inside the sandbox (high impact)",
    ),
    "tool.delete_file": (
        "サンドボックス内のファイルを削除する（高インパクト）",
        "Delete a file inside the sandbox (high impact)",
    ),
    "tool.http_post": (
        "URL に HTTP POST を送る（高インパクト。この教材では記録するだけで送信しない）",
        "Send an HTTP POST to a URL (high impact; this toolkit only records it)",
    ),
    "file.nul": (
        "パスに NUL 文字が含まれているため拒否しました: {path}",
        "Refused a path containing a NUL character: {path}",
    ),
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
    "file.is_directory": (
        "ディレクトリなのでファイルとして扱えません: {path}",
        "This is a directory, not a file: {path}",
    ),
    "file.not_regular": (
        "通常のファイルではない（FIFO・デバイス・ソケットなど）ので扱えません: {path}",
        "Not a regular file (a FIFO, device or socket), so it was left alone: {path}",
    ),
    "file.hard_link": (
        "ハードリンクで {links} つの名前を持つファイルなので扱えません（ほかの名前がプロジェクトの外にあるかもしれません）: {path}",
        "Refused a file with {links:names} (hard links): another name may be outside the project: {path}",
    ),
    "file.changed": (
        "確かめている間にパスの途中が差し替えられたので、何もせずにやめました: {path}",
        "Part of the path was swapped while it was being checked, so nothing was done: {path}",
    ),
    "file.binary": (
        "テキスト（UTF-8）ではないファイルなので読めません: {path}",
        "Not a UTF-8 text file (binary data): {path}",
    ),
    "file.written": ("{path} に {chars} 文字を書き込みました", "Wrote {chars:characters} to {path}"),
    "file.deleted": ("{path} を削除しました", "Deleted {path}"),
    "http.recorded": (
        "{url} への POST（本文 {chars} 文字）を記録しました（この教材では実際には送信しません）",
        "Recorded a POST to {url} ({chars:characters} of body); this toolkit never sends it",
    ),
    "cli.request": ("[turn {turn}] モデルがツールを要求: {call}", "[turn {turn}] the model asks for a tool: {call}"),
    "cli.result": ("[turn {turn}] ツールの返り値: {value}", "[turn {turn}] the tool returned: {value}"),
    "cli.result_error": (
        "[turn {turn}] ツールの返り値 (is_error): {value}",
        "[turn {turn}] the tool returned (is_error): {value}",
    ),
    "cli.pause": (
        "[turn {turn}] サーバー側のループが一時停止 (pause_turn)。そのまま送り返します",
        "[turn {turn}] the server-side loop paused (pause_turn); sending it back",
    ),
    "cli.end": ("[turn {turn}] モデルが切り上げ ({stop_reason})", "[turn {turn}] the model wrapped up ({stop_reason})"),
    "cli.stopped": (
        "[turn {turn}] ハーネスが停止 ({valve}): {reason}",
        "[turn {turn}] the harness stopped ({valve}): {reason}",
    ),
    "cli.approve": (
        "[approve] 高インパクトなアクション {call} を実行しようとしています — Enter で許可 / n で拒否: ",
        "[approve] about to run the high-impact action {call} — Enter to allow / n to deny: ",
    ),
    "cli.approve_no_tty": (
        "[approve] {call} は確認が必要ですが、入力できる端末がないため拒否します（--yes で全て許可）",
        "[approve] {call} needs approval but there is no terminal to ask, so it is denied (--yes allows all)",
    ),
    "cli.no_tty_reason": (
        "確認できる端末がなかったため（--yes で全て許可できます）",
        "there was no terminal to ask (--yes allows all)",
    ),
    "cli.approve_again": (
        "[approve] 「{answer}」は答えとして読み取れませんでした。Enter・y・はい で許可、n・no・いいえ で拒否します（あと {left} 回聞きます。読み取れなければ拒否します）",
        '[approve] could not read "{answer}" as an answer: Enter, y or yes allows; n or no denies ({left:more tries}, then it is denied)',
    ),
    "cli.approve_gave_up": (
        "[approve] 答えを読み取れなかったので、安全側に倒して拒否します",
        "[approve] no answer could be read, so the call is denied (failing closed)",
    ),
    "cli.unread_reason": ("承認の答えを読み取れなかったため", "the approval answer could not be read"),
    "cli.approve_eof": (
        "[approve] 入力が終わった（EOF）ので拒否します",
        "[approve] input ended (EOF), so the call is denied",
    ),
    "cli.eof_reason": ("承認を尋ねている間に入力が終わった（EOF）ため", "input ended (EOF) while approval was asked"),
    "cli.not_utf8": (
        "引数 {name} に UTF-8 として読めないバイトが含まれています。端末の文字コードを UTF-8 にして、入力し直してください",
        "argument {name} is not valid UTF-8; set the terminal's encoding to UTF-8 and type it again",
    ),
    "cli.live_no_key": (
        "--live には ANTHROPIC_API_KEY の設定が必要です（オフラインで試すなら --live を外してください）",
        "--live needs ANTHROPIC_API_KEY to be set (drop --live to run offline)",
    ),
    "client.unknown_scenario": (
        "シナリオ {name} はありません。使えるシナリオ: {known}",
        "unknown scenario {name}; known: {known}",
    ),
    "cli.unknown_model": (
        "エミュレーターにモデル {name} はありません。使えるモデル: {known}（実際の Claude なら --live）",
        "the emulator knows no model {name}; known: {known} (for live Claude, add --live)",
    ),
    "cli.mode_offline": (
        "（オフライン: エミュレーターのシナリオ {scenario}）",
        "(offline: emulator scenario {scenario})",
    ),
    "cli.mode_live": ("（ライブ: {model}）", "(live: {model})"),
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
    "result.approver_odd": (
        '承認の答え {answer} を解釈できないため、安全側に倒して拒否しました（allow() / deny("理由") / True / False のどれかを返してください）',
        'The approval answer {answer} is not one the harness understands, so the call was denied to stay safe (answer allow() / deny("why") / True / False)',
    ),
    # a cell run before the cells it needs (cell_runs.py): which cell to run instead of a NameError's traceback
    "cell.unrun_written": (
        "{name} がまだ定義されていません。{name} を定義するセル（上の TODO のセル）を実行してください。カーネルを再起動したあとなら、Run メニューの Run All Cells で上から順に実行します",
        "{name} is not defined yet: run the cell that defines it (the TODO cell above), or, after a kernel restart, Run All Cells from the Run menu.",
    ),
    "cell.unrun_setup": (
        "{name} がまだ定義されていません。ノートブックの上のほうにある準備のセル（{name} を読み込むか定義するセル）を実行してください。カーネルを再起動したあとなら、Run メニューの Run All Cells で上から順に実行します",
        "{name} is not defined yet: run the setup cells near the top of the notebook (the one that imports or defines {name}), or, after a kernel restart, Run All Cells from the Run menu.",
    ),
    "cell.unrun_above": (
        "{name} がまだ定義されていません。{name} を定義している上のセルを実行してください。カーネルを再起動したあとなら、Run メニューの Run All Cells で上から順に実行します",
        "{name} is not defined yet: run the cell above that defines it, or, after a kernel restart, Run All Cells from the Run menu.",
    ),
    # notebook 06 on a model other than the default (emulator/model_rules.py): what the demo does instead
    "model.asks_to_think": (
        "{model} は頼まないと考えないので、{fields} を足して送ります",
        "{model} thinks only when asked, so these requests add {fields}",
    ),
    "model.drops_rebound_thinking": (
        "{model} は思考ブロックを会話に結び付けるので、先頭を書き換えたあとは前の思考ブロックを捨ててもらいます（thinking.block_binding の drop_block）",
        "{model} binds thinking to its conversation, so once the first message is rewritten it is asked to drop the earlier thinking blocks (drop_block in thinking.block_binding)",
    ),
    "model.no_compaction": (
        "{model} は圧縮を使えない（送ると 400）ので、この1回は {other} に送ります",
        "{model} has no compaction (a 400 if sent), so this one request goes to {other}",
    ),
}
