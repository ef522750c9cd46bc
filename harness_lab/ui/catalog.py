"""The Stepper's, cards', diagram's and plots' strings (ja, en), added to the catalog on import."""

from __future__ import annotations

from ..text import add

add(
    {
        "ui.card.text": ("テキスト", "Text"),
        "ui.card.tool_use": ("ツール呼び出し tool_use", "Tool call (tool_use)"),
        "ui.card.tool_result": ("ツールの結果 tool_result", "Tool result (tool_result)"),
        "ui.card.error": ("エラー (is_error: true)", "Error (is_error: true)"),
        "ui.card.usage": ("使用量", "Usage"),
        "ui.card.usage_counted": (
            "合計 {total} トークン（ループが自分で数えた値）",
            "{total:tokens} in all (as the loop counted them)",
        ),
        "ui.card.usage_line": (
            "入力 {input_tokens} ・ 出力 {output_tokens} ・ キャッシュ書き込み {cache_creation_input_tokens} ・ キャッシュ読み込み {cache_read_input_tokens}（合計 {total} トークン）",
            "input {input_tokens} · output {output_tokens} · cache write {cache_creation_input_tokens} · cache read {cache_read_input_tokens} ({total:tokens} in all)",
        ),
        "ui.card.usage_fast": (" ・ 高速モード（料金 2 倍）", " · fast mode (billed at twice the price)"),
        "ui.card.usage_us": (" ・ 米国内の推論（料金 1.1 倍）", " · US-only inference (billed at 1.1x)"),
        "ui.card.other": ("その他のブロック {type}", "Other block {type}"),
        "ui.card.thinking": ("思考", "Thinking"),
        "ui.card.thinking_omitted": ("思考（本文は非表示）", "Thinking (text not shown)"),
        "ui.card.thinking_head": ("{label} ・ signature {n} 文字", "{label} · signature of {n:characters}"),
        "ui.card.thinking_redacted": (
            "思考（暗号化済み redacted_thinking） ・ データ {n} 文字",
            "Thinking (encrypted: redacted_thinking) · data of {n:characters}",
        ),
        "ui.card.output_thinking": ("{output}（うち思考 {thinking}）", "{output} (thinking {thinking} of it)"),
        "ui.card.thinking_omitted_note": (
            "API は本文を返していません（display: omitted）。ツールの結果を返すときも、このブロックは signature ごと"
            "そのまま assistant の内容に残します",
            "The API sent no text (display: omitted). When the tool results go back, this block stays in the "
            "assistant turn as it came, signature and all",
        ),
        "ui.card.thinking_redacted_note": (
            "暗号化されていて読めません。受け取ったまま、次のリクエストの履歴に残します",
            "Encrypted and unreadable: it stays in the history of the next request exactly as it came",
        ),
        "ui.card.truncated": ("…（残り {n} 文字は省略）", "… ({n:more characters} not shown)"),
        "ui.card.role_user": ("ユーザー (user)", "User"),
        "ui.card.role_assistant": ("モデル (assistant)", "Model (assistant)"),
        "ui.card.role_system": ("システム (system)", "System"),
        "ui.card.turn": ("ターン {number}", "Turn {number}"),
        "ui.card.signature": ("署名", "Signature"),
        "ui.card.readings": ("このターンを終えた時点の制御弁のゲージ", "Valve gauges as this turn ended"),
        "ui.card.approval": ("△ 承認待ち: {name} を実行しますか？", "△ Approval needed: run {name}?"),
        "ui.card.approval_answered": ("承認弁: {name}", "Approval valve: {name}"),
        "ui.card.decision_allow": ("○ 許可しました", "○ Allowed"),
        "ui.card.decision_deny": ("× 拒否しました", "× Denied"),
        "ui.card.finished": ("◎ 完了", "◎ Finished"),
        "ui.card.stopped": ("× ハーネスが停止 ({valve})", "× Stopped by the harness ({valve})"),
        "ui.card.answer": ("最終回答", "Final answer"),
        "ui.card.empty": ("（まだ何もありません）", "(nothing yet)"),
        "ui.button.next": ("次のターン", "Next turn"),
        "ui.button.all": ("最後まで", "Run to end"),
        "ui.button.stop": ("停止", "Stop"),
        "ui.button.approve": ("許可", "Allow"),
        "ui.button.deny": ("拒否", "Deny"),
        "ui.reason.placeholder": ("拒否の理由（任意）", "reason for denying (optional)"),
        "ui.gauge.turns": ("ターン", "Turns"),
        "ui.gauge.tokens": ("トークン", "Tokens"),
        "ui.gauge.signature": ("直前の署名", "Last signature"),
        "ui.gauge.none": ("—", "—"),
        "ui.status.ready": ("準備完了: 「次のターン」で1ターン進めます", "Ready: press Next turn to run one turn"),
        "ui.status.waiting": (
            "△ 承認待ち: 「許可」か「拒否」を押してください",
            "△ Waiting for approval: press Allow or Deny",
        ),
        "ui.status.running": ("実行中…", "Running…"),
        "ui.status.paused": ("ターンの合間で一時停止しています", "Paused between turns"),
        "ui.status.finished": ("◎ 完了 (stop_reason: {stop_reason})", "◎ Finished (stop_reason: {stop_reason})"),
        # A stop the package worded names its cause itself; one a learner wrote is preceded by its cause.
        "ui.status.stopped": ("× {reason}", "× {reason}"),
        "ui.status.stopped_by": ("× 停止（{cause}）: {reason}", "× Stopped ({cause}): {reason}"),
        # After a stop: its reason, then what Resume needs, as a sentence of its own (a reason often ends
        # in its own parenthesis: a second one right after it read 「…あります）（上限を…）」).
        "ui.status.stopped_then": ("{stopped}。{hint}", "{stopped}. {hint}"),
        "ui.status.hint_resume": ("「再開」で続けられます", "Press Resume to go on."),
        "ui.status.hint_limit": (
            "上限を上げて「再開」を押すと続けられます",
            "Raise the limit, then press Resume to go on.",
        ),
        "ui.status.hint_steer": (
            "同じ呼び出しをまた出すだけなので、モデルへの指示を書いてから「再開」を押してください。"
            "繰り返しは実行せずに、指示を送ります",
            "It would only repeat the same calls: write an instruction for the model, then press Resume. The "
            "repeat is not run, and your instruction goes out instead.",
        ),
        "ui.status.error": (
            "× エラーで止まりました: {error}（履歴はそのままです。原因を直してから「再開」か resume() で続けられます）",
            "× Stopped by an error: {error} (the history is intact: fix the cause, then Resume or resume())",
        ),
        "ui.status.error_hand_written": (
            "× エラーで止まりました: {error}（手書きのループには再開がないので、原因を直してからセルをもう一度実行してください）",
            "× Stopped by an error: {error} (a hand-written loop has no resume: fix the cause, then run its cell again)",
        ),
        "ui.stop.interrupted_hand_written": (
            "中断しました。手書きのループには再開（resume）がないので、続けるにはセルをもう一度実行して最初から走らせます",
            "Interrupted. A hand-written loop has no resume: run its cell again to start over",
        ),
        "ui.stop.denied_on_stop": ("停止ボタンが押されました", "Stop was pressed"),
        "ui.stop.interrupted_after_denial": (
            "中断しました。承認待ちの呼び出しは拒否として返し、そのターンまでが履歴に入っています。履歴は有効なまま再開できます",
            "Interrupted. The call waiting for approval went back as denied, and its turn is in the history, "
            "so the history stays valid and the run can resume.",
        ),
        "ui.diagram.title": ("エージェントループと4つの制御弁", "The agent loop and its four control valves"),
        "ui.diagram.request": ("リクエスト送信", "Send request"),
        "ui.diagram.response": ("応答を受け取る", "Receive response"),
        "ui.diagram.stop_reason": ("stop_reason を確認", "Check stop_reason"),
        "ui.diagram.tools": ("ツールを実行", "Run tools"),
        "ui.diagram.results": ("tool_result を返す", "Send tool_results"),
        "ui.diagram.end": ("終了: テキストを返す", "End: return the text"),
        "ui.diagram.end_edge": ("end_turn など", "end_turn etc."),
        "ui.diagram.loop_edge": ("履歴を携えて次のターンへ", "next turn, with the whole history"),
        "ui.diagram.before_send": ("リクエストを送る前", "before the request is sent"),
        "ui.diagram.loop_top": ("ループ本体の先頭", "top of the loop body"),
        "ui.diagram.before_tools": ("ツールを実行する前", "before the tools run"),
        "ui.diagram.before_each_tool": ("各ツールの実行直前", "right before each tool runs"),
        "ui.diagram.here": ("現在地", "You are here"),
        "ui.diagram.fired": ("発動した弁", "Valve that fired"),
        "ui.diagram.fired_badge": ("発動", "fired"),
        "ui.diagram.acted": ("作動した弁（実行は続く）", "Valve that acted (the run goes on)"),
        "ui.diagram.acted_badge": ("作動", "acted"),
        "ui.diagram.stopped_by": ("止まった理由", "Why it stopped"),
        "ui.diagram.no_valve": ("弁なし", "No valve"),
        "ui.diagram.step_label": ("{step}（{label}）", "{step} ({label})"),
        "ui.stop_name.interrupted": ("中断 (interrupted)", "interrupted"),
        "ui.stop_name.max_tokens": ("出力が max_tokens で切れた", "output cut off at max_tokens"),
        "ui.stop_name.refusal": ("モデルが応答を辞退 (refusal)", "the model declined (refusal)"),
        "ui.stop_name.model_context_window_exceeded": (
            "コンテキストウィンドウ超過 (model_context_window_exceeded)",
            "context window exceeded (model_context_window_exceeded)",
        ),
        "ui.stop_name.pause_turn": ("サーバー側ループの一時停止 (pause_turn)", "server-side loop paused (pause_turn)"),
        "ui.stop_name.api_error": ("API エラー (api_error)", "API error (api_error)"),
        "ui.stop_name.unexpected": ("想定外の stop_reason (unexpected)", "unexpected stop_reason (unexpected)"),
        "ui.valve.max_turns": ("最大ターン数", "Max turns"),
        "ui.valve.token_budget": ("トークン予算", "Token budget"),
        "ui.valve.no_progress": ("無進捗検知", "No-progress detection"),
        "ui.valve.approval": ("承認弁", "Approval valve"),
        "ui.plot.burn_title": ("モデルへのリクエストごとのトークン消費", "Tokens burned per model request"),
        "ui.plot.total_title": ("累計トークンと予算", "Cumulative tokens against the budget"),
        "ui.plot.total_title_no_budget": ("累計トークン", "Cumulative tokens"),
        "ui.plot.compare_title": ("実行の比較: 累計トークン", "Runs compared: cumulative tokens"),
        "ui.plot.compare_usd_title": ("実行の比較: 累計の費用", "Runs compared: cumulative cost"),
        "ui.plot.request_usd_title": ("リクエストごとの費用", "Cost of each request"),
        "ui.plot.by": ('by は "tokens" か "usd" です（{got} を受け取りました）', 'by is "tokens" or "usd" (got {got})'),
        "ui.plot.call": ("モデルへのリクエスト（回目）", "Model request (nth)"),
        "ui.card.turn_approvals": ("ターン {number} — 承認待ち", "Turn {number} — waiting for approval"),
        "ui.plot.tokens": ("トークン", "Tokens"),
        "ui.plot.input": ("入力（キャッシュなし）", "Input (uncached)"),
        "ui.plot.cache_write": ("キャッシュ書き込み", "Cache write"),
        "ui.plot.cache_read": ("キャッシュ読み込み", "Cache read"),
        "ui.plot.output": ("出力（思考を含む）", "Output (thinking included)"),
        "ui.plot.cumulative": ("累計", "Cumulative"),
        "ui.plot.budget": ("予算 {limit}", "Budget {limit}"),
        "ui.plot.stop": ("停止: {valve}", "Stopped: {valve}"),
        "ui.plot.usd": ("費用の見積もり (USD)", "Estimated cost (USD)"),
        "ui.plot.prompt_title": (
            "リクエストごとのプロンプト長（履歴ごと再送）",
            "Prompt size per request (the whole history is re-sent)",
        ),
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
    }
)

add(
    {
        # the Stepper's controls (issue 14)
        "ui.card.steering": (
            "操舵: 人の指示（tool_result と同じメッセージで送信）",
            "Steering: a person's instruction (sent with the tool results)",
        ),
        "ui.card.turn_folded": (
            "ターン {number} ・ {calls} ・ エラー {errors} 件 ・ {tokens} トークン",
            "Turn {number} · {calls} · errors: {errors} · {tokens:tokens}",
        ),
        "ui.button.resume": ("再開", "Resume"),
        "ui.limit.label": ("新しい上限", "New limit"),
        "ui.limit.not_whole": (
            "{label}に書いた「{got}」は整数として読めません。ターンやトークンの上限は 0 以上の整数で書いてください（例: 6 や 40,000）",
            '{label}: "{got}" is not a whole number; a turn or token limit is a whole number, 0 or more (6, or 40,000)',
        ),
        "ui.limit.empty": (
            "{label}が空です。ターンやトークンの上限を 0 以上の整数で書いてください（例: 6 や 40,000）",
            "{label} is empty: write a turn or token limit, a whole number, 0 or more (6, or 40,000)",
        ),
        "ui.limit.too_large": (
            "{label}に書いた「{got}」は大きすぎます。上限は {most} までの整数で書いてください",
            '{label}: "{got}" is too large; a limit goes up to {most}',
        ),
        "ui.speed.label": ("「最後まで」の速さ", "Run-to-end speed"),
        "ui.speed.slow": ("ゆっくり", "Slow"),
        "ui.speed.normal": ("ふつう", "Normal"),
        "ui.speed.fast": ("速く", "Fast"),
        "ui.speed.tooltip": ("ターンごとに {s} 秒待ちます", "waits {s} s after each turn"),
        "ui.speed.unknown": (
            "speed={speed!r} は使えません。{known} のどれかを渡してください",
            "speed={speed!r} is not one of {known}",
        ),
        "ui.steer.label": ("操舵の指示", "Steering instruction"),
        "ui.steer.placeholder": ("例: 別のやり方を試して", "e.g. try another way"),
        "ui.tab.conversation": ("会話", "Conversation"),
        "ui.tab.timeline": ("タイムライン", "Timeline"),
        "ui.tab.context": ("コンテキスト", "Context"),
        "ui.notice.resumed": (
            "再開できます: 「次のターン」か「最後まで」で進めてください",
            "Ready to go on: press Next turn or Run to end",
        ),
        "ui.notice.steer_first": (
            "空回りで止まった実行は、このまま再開しても同じ呼び出しでまた止まります。モデルへの指示を書いてから「再開」を押してください",
            "A run stopped for spinning would stop again on the same calls: write an instruction for the model, then press Resume",
        ),
        "ui.notice.no_limit": (
            "この停止は上限のある制御弁によるものではないので、上限は変えられません",
            "This stop did not come from a valve with a limit, so there is no limit to raise",
        ),
        "ui.notice.limit_type": (
            "上限は整数で渡してください（{got} を受け取りました）",
            "Pass the limit as a whole number (got {got})",
        ),
        "ui.notice.limit_too_low": (
            "上限 {limit} では再開してもすぐに止まります（いまの値 {reading}）。もっと大きな値にしてください",
            "A limit of {limit} would stop the run again at once (now {reading}); choose a larger one",
        ),
        "ui.stale.widget": (
            "カーネルが再起動されたか止まったため、このパネルは保存された記録です。ボタンは動きませんが、タブや折りたたみは開けます。"
            "もう一度操作するには、ノートブックを上から順に実行し直してください（前のセルで作ったものを使うので、このセルだけでは動きません）",
            "The kernel restarted or stopped, so this panel is a saved record: its buttons do nothing, its tabs and folds "
            "still open. For a live panel, run the notebook again from the top (this cell alone cannot: it uses what "
            "earlier cells made).",
        ),
        "ui.stale.tooltip": (
            "押しても何も起きないときは、このパネルの後ろにカーネルがありません（新しいカーネルに替わった後など）。"
            "ノートブックを上から順に実行し直してください",
            "If pressing does nothing, no kernel is behind this panel (a new kernel was started, say): "
            "run the notebook again from the top.",
        ),
        "ui.stale.static": (
            "保存された記録です（カーネルにつながっていません）。ノートブックを上から順に実行すると、操作できるパネルになります",
            "A saved record (no kernel behind it). Run the notebook from the top for a live panel.",
        ),
        "ui.fork.note": ("ターン {k} から分岐した実行です", "A fork of the run from turn {k}"),
        # the timeline and forks
        "ui.timeline.pick": ("ターンを選ぶ", "Pick a turn"),
        "ui.timeline.hint": (
            "ターンを選ぶと、そのときの会話履歴と、そのターンで増えたメッセージが見られます。そこから分岐もできます",
            "Pick a turn to see the history as it stood and what the turn added; you can fork from there.",
        ),
        "ui.timeline.tooltip": ("ターン {k}: {calls} ・ {tokens} トークン", "Turn {k}: {calls} · {tokens:tokens}"),
        "ui.timeline.no_turn": (
            "ターン {k} はありません（終わったターンは {turns} 個です）",
            "There is no turn {k} (the run has {turns:completed turns})",
        ),
        "ui.timeline.turn_head": (
            "ターン {k}（モデルへのリクエスト {number} 回目の応答）が届いたときの会話履歴（メッセージ {messages} 件）",
            "The history when turn {k}'s response arrived (request {number}; message count: {messages})",
        ),
        "ui.timeline.same": (
            "（{n} 件省略。どのターンでも同じ始まりです）",
            "({n:messages} left out: every turn starts with them)",
        ),
        "ui.timeline.added": ("このターンで増えたメッセージ（{n} 件）", "What this turn added (message count: {n})"),
        "ui.timeline.growth": (
            "リクエスト {next} の入力は {after} トークン（リクエスト {k} の {now} から +{diff}）: 増えた履歴は次のリクエストで毎回送り直されます",
            "Request {next} carries {after:input tokens} (+{diff} over request {k}'s {now}): the history grows and is re-sent every time",
        ),
        "ui.timeline.one_call": (
            "ターン {k} のツール呼び出しは {n} 個なので result= は使えません。results={{tool_use_id: 文字列}} で指定してください（id: {ids}）",
            "Turn {k} has {n:tool calls}, so result= is ambiguous; pass results={{tool_use_id: text}} (ids: {ids})",
        ),
        "ui.timeline.no_answer": (
            "ターン {k} には承認の答えがないので、flip=True で裏返せるものがありません",
            "Turn {k} has no approval answer for flip=True to turn around",
        ),
        "ui.timeline.no_limit": (
            "上限のある制御弁 {names} はこの実行にありません（あるもの: {known}）",
            "No valve with a limit called {names} in this run (there are: {known})",
        ),
        "ui.timeline.flipped_deny": (
            "分岐で答えを「拒否」に変えました",
            "Denied in a fork that turned the answer around",
        ),
        "ui.timeline.form": (
            "ターン {k} から分岐する: 変えたいところだけ書き換えてください",
            "Fork from turn {k}: change only what you want to change",
        ),
        "ui.timeline.form_again": (
            "{fork}を、書き換えた値で下に作りました（どう進んだかは比較表と、その操作パネルに出ます）。このフォームはターン {k} の元の記録に戻してあります。"
            "もう一度分岐するなら、変えたいところだけ書き換えてください",
            "{fork} was made below with your changes (the comparison and its panel show how it goes). This form is back to the original "
            "run's turn {k}: to fork again, change only what you want to change",
        ),
        "ui.timeline.result_for": ("{call} の tool_result（id {id}）", "tool_result of {call} (id {id})"),
        "ui.timeline.answer_for": ("{name} への答え", "Answer for {name}"),
        "ui.timeline.result_runs": (
            "（答えを「許可」に変えたので、分岐ではこの呼び出しを実際に実行し、その結果を返します）",
            "(The answer is now Allow: in the fork this call runs, and its own result goes back)",
        ),
        "ui.timeline.result_denied": (
            "（答えを「拒否」に変えたので、分岐ではモデルに拒否の知らせ（is_error）を返します）",
            "(The answer is now Deny: in the fork the model gets the denial (is_error))",
        ),
        "ui.timeline.result_and_answer": (
            "{ids} には、結果の書き換えと承認の答えの変更を同時には指定できません。答えが結果を決めます"
            "（許可なら実行した結果、拒否なら拒否の知らせ）。どちらか一方にしてください",
            "{ids}: an edited result and a new answer cannot both be given; the answer decides the result "
            "(allowed: what the call returns; denied: the denial). Give one or the other",
        ),
        "ui.timeline.limit_for": ("{valve}の上限", "{valve} limit"),
        "ui.timeline.fork_button": ("ターン {k} から分岐して実行", "Fork from turn {k} and run"),
        "ui.timeline.fork_panel": ("{label}の操作パネル", "{label}: its panel"),
        "ui.timeline.fork_button_none": ("ターンを選ぶと分岐できます", "Pick a turn to fork"),
        "ui.compare.title": ("元の実行と分岐の比較", "The original run and its forks"),
        "ui.compare.original": ("元の実行", "Original run"),
        "ui.compare.fork": ("分岐 {n}（ターン {k} から）", "Fork {n} (from turn {k})"),
        "ui.compare.turns": ("終わったターン", "Completed turns"),
        "ui.compare.requests": ("モデルへのリクエスト", "Model requests"),
        "ui.compare.tokens": ("トークン", "Tokens"),
        "ui.compare.ending": ("終わり方", "How it ended"),
        "ui.compare.finished": ("◎ 完了 ({stop_reason}): {text}", "◎ Finished ({stop_reason}): {text}"),
        "ui.compare.running": ("… まだ終わっていません", "… Not over yet"),
        # the context gauge
        "ui.context.title": (
            "コンテキストの中身: リクエストごとの入力と、その応答の出力",
            "What fills the context: each request's input and its response's output",
        ),
        "ui.context.empty": ("まだリクエストを送っていません", "No request sent yet"),
        "ui.context.tools": ("ツール定義", "tool definitions"),
        "ui.context.system": ("システムプロンプト", "system prompt"),
        "ui.context.user_text": ("ユーザーのテキスト", "user text"),
        "ui.context.assistant_text": ("モデルのテキスト", "assistant text"),
        "ui.context.thinking": ("思考ブロック（送り返したもの）", "thinking blocks (sent back)"),
        "ui.context.output": ("応答の出力（思考を含む）", "the response's output (thinking included)"),
        "ui.context.uncached": ("キャッシュなしの入力", "uncached input"),
        "ui.context.cache_write": ("キャッシュ書き込み", "cache write"),
        "ui.context.cache_read": ("キャッシュ読み込み", "cache read"),
        "ui.context.tool_use": ("tool_use", "tool_use"),
        "ui.context.tool_result": ("tool_result", "tool_result"),
        "ui.context.other": ("その他のブロック", "other blocks"),
        "ui.context.framing": ("リクエストとメッセージの枠", "request and message framing"),
        "ui.context.joiner": (" ・ ", " · "),  # between the parts of one request's input
        "ui.context.row": (
            "リクエスト {number}: 入力 {total} + 出力 {output}（思考を含む）= {used} / {window} トークン"
            "（コンテキストウィンドウの {share}%）— 入力の内訳: {parts}",
            "request {number}: input {total} + output {output} (thinking included) = {used} / {window:tokens} "
            "({share}% of the context window) — input: {parts}",
        ),
        "ui.context.cache": (
            "［キャッシュ読み込み {read} ・ 書き込み {write}］",
            "[cache read {read} · write {write}]",
        ),
        "ui.context.estimated": (
            "（内訳は推定: エミュレーターの見積もりを実際の使用量に合わせて按分）",
            "(split estimated: the emulator's estimate scaled to the real usage)",
        ),
        "ui.context.scale": (
            "棒の長さは、この実行でいちばん大きいリクエスト（{total} トークン）を基準にしています",
            "Bars share one scale: the run's largest request ({total:tokens})",
        ),
        "ui.context.older": ("古いリクエスト {n} 件", "{n:older requests}"),
        "ui.context.not_sent": (
            "リクエスト {number} は送られていません。この実行が送ったのは {sent} 件です",
            "Request {number} was not sent: this run has sent {sent:requests}",
        ),
        "ui.plot.no_usage": (
            "{kind} からはターンごとの使用量を読み取れません。Run か run.state、run() のイベント、Usage のリストを渡してください",
            "Cannot read per-turn usage from {kind}: pass a Run or its state, the events of run(), or a list of Usage",
        ),
        "ui.diagram.unknown_place": (
            "ループ図に {place} という場所はありません（使えるのは {known}）",
            "The loop diagram has no place {place} (use one of {known})",
        ),
        "ui.card.unknown": (
            "{kind} はカードにできません。メッセージ、内容ブロック、文字列、Usage、ループのイベント、またはそれらのリストを渡してください",
            "No card for {kind}: pass a message, a content block, a string, a Usage, a loop event or a list of them",
        ),
    }
)
