"""The lesson-6 check's strings for the whole harness, ``run_agent`` with the four valves (ja, en): its
points, and the hint for each way a loop ends otherwise than the package's ``Run`` (valve 2's counting is in
``catalog6_budget``). Braces that are not
placeholders are doubled (every entry is formatted)."""

from __future__ import annotations

from ..text import add

add(
    {
        "lesson.l6.valve.max_turns": ("弁1（最大ターン数）", "valve 1 (max turns)"),
        "lesson.l6.valve.no_progress": ("弁3（無進捗検知）", "valve 3 (no-progress detection)"),
        "lesson.l6.run_agent.p1": (
            "普通の仕事は、モデルの答えで終わる（1ターンごとに yield する）",
            "a normal task ends with the model's answer (yielding each turn)",
        ),
        "lesson.l6.run_agent.p2": (
            "回るかどうかを next_step で決める: pause_turn は送り返し、max_tokens は実行せずに止まる",
            "next_step decides whether to go on: pause_turn is sent back, max_tokens stops without running the cut call",
        ),
        "lesson.l6.run_agent.p3": (
            "止まらないモデルは、弁1 最大ターン数で止まる（上限 3 なら、ツール 3 ターン・リクエスト 4 回）。上限ちょうどで答えが出る仕事は止めない",
            "a model that never stops is stopped by valve 1, max turns (a limit of 3: 3 tool turns, 4 requests); a task answered right at the limit is not",
        ),
        "lesson.l6.run_agent.p4": (
            "トークンを燃やすモデルは、弁2 トークン予算で止まる",
            "a model that burns tokens is stopped by valve 2, token budget",
        ),
        "lesson.l6.run_agent.p5": (
            "同じ呼び出しを繰り返すモデルは、弁3 無進捗検知で止まる",
            "a model repeating the same call is stopped by valve 3, no-progress detection",
        ),
        "lesson.l6.run_agent.p6": (
            "弁4: 承認がない・「いいえ」なら、高インパクトなツール（write_file・http_post・delete_file）はどれも走らず、それぞれに is_error の結果がモデルに届く",
            "valve 4: with no approver or a no, no high-impact tool (write_file, http_post, delete_file) runs, and each call gets an is_error result back to the model",
        ),
        "lesson.l6.run_agent.p7": (
            "弁4: 許可された高インパクトなツールは走り、無害なツールは尋ねずに走る",
            "valve 4: approved high-impact tools run, and harmless tools run without asking",
        ),
        "lesson.l6.run_agent.p8": (
            "ツールの実行中に Ctrl-C（KeyboardInterrupt）が押されたら、モデルへのリクエストをそれ以上送らない",
            "Ctrl-C (KeyboardInterrupt) pressed while a tool runs: no further model request is sent",
        ),
        "lesson.l6.run_agent.p9": (
            "API のエラー（529 Overloaded）が続いても、ループは終わる（送り直すなら回数を決めて）",
            "an API error that goes on (529 Overloaded) still ends the loop (retried, if at all, a set number of times)",
        ),
        "lesson.l6.run_agent.not_generator": (
            "ジェネレーターではありません（{got} が返りました）。1ターンごとに yield lessons.turn(turns, response, results) します",
            "It is not a generator (it returned a {got}); yield lessons.turn(turns, response, results) after each turn",
        ),
        "lesson.l6.run_agent.no_yield": (
            "ツールは走りましたが、一度も yield lessons.turn(...) していません。1ターン終えるたびに yield します",
            "Tools ran but it never yielded lessons.turn(...); yield after each turn",
        ),
        "lesson.l6.run_agent.lap_not_yielded": (
            "モデルへのリクエストが {requests} 回なので、ループは {laps} 周しましたが、yield lessons.turn(...) は {yields} 回でした。Stepper は yield でしか一時停止しません。"
            "pause_turn の送り返しも（results は []）、答えの前の最後のターンも一周です。if の中ではなく、一周の終わり（次の client.messages.create(...) の前）で毎回 yield します",
            "Model requests sent: {requests}, so laps of the loop: {laps}, but yields of lessons.turn(...): {yields}; the Stepper pauses only at a yield. "
            "A pause_turn resend is a lap too (its results are []), and so is the last turn before the answer: yield at the end of every lap, before the next client.messages.create(...), not inside an if",
        ),
        "lesson.l6.run_agent.no_request": (
            "モデルに一度もリクエストを送らずに終わりました。ループは最初に client.messages.create(...) を送ります（approve が None でも、断るのはツールを実行するときです）",
            "It ended without sending the model a single request; the loop starts with client.messages.create(...) (even with approve None: the refusal comes when a tool would run)",
        ),
        "lesson.l6.run_agent.no_end": (
            "最後に return lessons.finished(...) か return lessons.stopped(...) がありません（返り値 {got}）",
            "It does not end with return lessons.finished(...) or return lessons.stopped(...) (got {got})",
        ),
        "lesson.l6.run_agent.end_yielded": (
            "lessons.{kind}(...) を yield しています。yield は1ターンの終わりを Stepper に知らせるだけで、ループを終えず、ループの終わりの値にもなりません。"
            "ループを終えるときは return lessons.{kind}(...) と返します（yield するのは lessons.turn(...) だけです）",
            "It yields lessons.{kind}(...); a yield only tells the Stepper that a turn is over: it neither ends the loop nor becomes the loop's end value. "
            "End the loop with return lessons.{kind}(...) (only lessons.turn(...) is yielded)",
        ),
        "lesson.l6.run_agent.unknown_cause": (
            'lessons.stopped の最初の引数が {got} です。止めた弁の名前 "max_turns" / "token_budget" / "no_progress" のどれかにします',
            'The first argument of lessons.stopped is {got}; use the name of the valve that stopped: "max_turns", "token_budget" or "no_progress"',
        ),
        "lesson.l6.run_agent.not_answer": (
            "最後の答えが返りませんでした（{got}）。モデルが切り上げたら return lessons.finished(response, turns, tokens_used) します",
            "The final answer was not returned ({got}); when the model finishes, return lessons.finished(response, turns, tokens_used)",
        ),
        "lesson.l6.run_agent.spin_on_resend": (
            'pause_turn が2回続いたところで、弁3（無進捗検知）で止まりました。送り返し（"resend"）はツール呼び出しのターンではありません。署名を比べるのは step が "run_tools" のときだけにします',
            'Valve 3 (no-progress detection) stopped it at the second pause_turn in a row; a resend is no tool turn, so compare signatures only when step is "run_tools"',
        ),
        "lesson.l6.run_agent.empty_results": (
            "pause_turn の送り返しで、中身が空の user メッセージも送りました。送り返しにはツールの結果がありません。user メッセージは results があるときだけ足します（if results:。API の 400: {error}）",
            "Resending after pause_turn, it also sent a user message with nothing in it; a resend has no tool results, so add the user message only when there are results (if results:; the API's 400: {error})",
        ),
        "lesson.l6.run_agent.pause_turn": (
            'pause_turn の途中の応答で終わりました。next_step が "resend" なら、content をそのまま assistant として履歴に足して、もう一度送ります',
            'It ended on the interim pause_turn response; when next_step says "resend", add the content as the assistant message and send again',
        ),
        "lesson.l6.run_agent.resend_changed": (
            "pause_turn のあとの履歴が違います。assistant として content をそのまま足すだけで、「続けて」のような user メッセージは足しません",
            "The history after pause_turn is not right: add the content unchanged as the assistant message, and no user message such as 'go on'",
        ),
        "lesson.l6.run_agent.ran_cut_call": (
            "max_tokens で途中で切れた write_file を、実行しようとしました。回るのは next_step が run_tools か resend のときだけです",
            "It tried to run a write_file cut off at max_tokens; go on only when next_step says run_tools or resend",
        ),
        "lesson.l6.run_agent.went_on_after_cut": (
            'max_tokens で切れた応答のあとも、ループを続けてモデルにもう一度送りました（リクエスト {requests} 回）。回るのは next_step が run_tools か resend のときだけです。while response.stop_reason != "end_turn" のような条件では、max_tokens や refusal でも回り続けます',
            'After a response cut at max_tokens the loop went on and asked the model again ({requests:requests}); go on only when next_step says run_tools or resend. A condition such as while response.stop_reason != "end_turn" keeps going on max_tokens and refusal too',
        ),
        "lesson.l6.run_agent.window_resent": (
            "コンテキストウィンドウが一杯（stop_reason model_context_window_exceeded）になったあとも、同じ会話履歴をモデルにもう一度送りました"
            '（リクエスト {requests} 回）。同じ履歴は同じ窓をまた一杯にするだけです。next_step が "stop" と言うので、'
            "そこで止めて停止メッセージを返します",
            "After the context window filled up (stop_reason model_context_window_exceeded) the loop sent the same history "
            "again ({requests:requests}). The same history fills the same window again; next_step says "
            '"stop", so stop there and return a stop message',
        ),
        "lesson.l6.run_agent.max_tokens": (
            'max_tokens で切れた応答のあと、{got} で終わりました。next_step が "stop" なら return lessons.stopped(response.stop_reason, 停止メッセージ, turns, tokens_used) で止めます',
            'After a response cut at max_tokens it ended with {got}; when next_step says "stop", return lessons.stopped(response.stop_reason, message, turns, tokens_used)',
        ),
        "lesson.l6.run_agent.no_max_turns": (
            "MAX_TURNS = {limit} で試しましたが、リクエストが {count} 回を超えても止まりませんでした。本体の先頭で turns >= MAX_TURNS を問います",
            "With MAX_TURNS = {limit} it had not stopped after {count:requests}; ask turns >= MAX_TURNS at the top of the body",
        ),
        "lesson.l6.run_agent.end_turns": (
            "終わりの値のターン数が {told} でした（ツールを実行したターンは {turns}）。lessons.finished(response, turns, tokens_used) に、数えた turns をそのまま渡します（0 から数え始めます）",
            "The end value says {told:turns} (tools ran in {turns}); pass the turns you counted to lessons.finished(response, turns, tokens_used) (counting from 0)",
        ),
        "lesson.l6.run_agent.turn_labels": (
            "yield したターンの番号が {got} でした（{want} のはず）。Stepper はこの番号でターンを示します。turns += 1 のあとで、数えた turns をそのまま "
            "yield lessons.turn(turns, response, results) に渡します（turns - 1 や turns + 1 ではなく、turns += 1 の前に yield するのでもなく）",
            "The yielded turns were numbered {got} (they should be {want}); the Stepper labels each turn by that number. After turns += 1, pass "
            "the turns you counted as they are to yield lessons.turn(turns, response, results) (not turns - 1 or turns + 1, and not before turns += 1)",
        ),
        "lesson.l6.run_agent.end_tokens": (
            "終わりの値のトークン数が {told} でした（受け取った応答の input_tokens・キャッシュ書き込み・キャッシュ読み込み・output_tokens の合計は {used}）。lessons.finished(response, turns, tokens_used) に tokens_used を渡します",
            "The end value says {told:tokens} (the responses' input_tokens, cache writes, cache reads and output_tokens come to {used}); pass tokens_used to lessons.finished(response, turns, tokens_used)",
        ),
        "lesson.l6.run_agent.turns_per_call": (
            "1つの応答で2つずつツールを呼ぶモデルに MAX_TURNS = {limit} で試すと、ツール {rounds} ターンで弁1（最大ターン数）が止めました。ターンは応答1つで1つです。turns には呼び出しの数ではなく 1 を足します",
            "Against a model that calls two tools in each response, MAX_TURNS = {limit} was stopped by valve 1 (max turns) after {rounds:tool turns}; a turn is one response, so add 1 to turns, not the number of calls",
        ),
        "lesson.l6.run_agent.resend_late": (
            "pause_turn を返し続けるモデルに MAX_TURNS = {limit} で試すと、弁1 が止めたのはリクエスト {requests} 回目で、上限どおりの {want} 回より遅れました。"
            "送り直し（resend）も1ターンです。弁1 は一周ごとに turns += 1 で数えた turns と比べます（len(messages) から数えると、送り直しでは履歴が1つしか増えず、ターンを少なく数えます）",
            "Against a model that keeps returning pause_turn, MAX_TURNS = {limit} stopped the loop at request {requests}, later than the {want} "
            "the limit means. A resend is a turn too: valve 1 compares turns, counted with turns += 1 once per lap (counted from len(messages), "
            "a resend adds only one message to the history, and the turns come out too few)",
        ),
        "lesson.l6.run_agent.resend_uncounted": (
            "pause_turn を返し続けるモデルに MAX_TURNS = {limit} で試すと、上限で止まりませんでした。送り直し（resend）も"
            'ループの一周です。turns += 1 と弁1・弁2 の判定は、if step == "run_tools" の中ではなく本体の先頭に置きます',
            "Against a model that keeps returning pause_turn, MAX_TURNS = {limit} did not stop the loop. A resend is a lap of "
            'the loop too: keep turns += 1 and the checks of valves 1 and 2 at the top of the body, not inside if step == "run_tools"',
        ),
        "lesson.l6.run_agent.valve1_silent": (
            "MAX_TURNS = {limit} で試しましたが、弁1が止めず、ツール {rounds} ターンのところで弁2（トークン予算）がやっと止めました。本体の先頭で turns >= MAX_TURNS を問います",
            "With MAX_TURNS = {limit}, valve 1 never stopped it: it ran {rounds:tool turns} until valve 2 (token budget) did. Ask turns >= MAX_TURNS at the top of the body",
        ),
        "lesson.l6.run_agent.left_early": (
            "モデルはまだ続けたい応答（{got}）だったのに、リクエスト {requests} 回で抜けました。最後の return が while の中に入っていませんか（ループの後ろに置きます）",
            "The model still wanted to go on ({got}), yet it left after {requests:requests}; is the last return inside the while? It belongs after the loop",
        ),
        "lesson.l6.run_agent.finish_as_stop": (
            'モデルが切り上げた（{got}）のに、lessons.stopped で返しました。next_step が "finish" なら return lessons.finished(response, turns, tokens_used) します',
            'The model finished ({got}), but it returned lessons.stopped; when next_step says "finish", return lessons.finished(response, turns, tokens_used)',
        ),
        "lesson.l6.run_agent.after_tools": (
            "ツール {rounds} ターンなのに、リクエストは {requests} 回: 最後のターンの結果がモデルに届いていません（ツールの後で上限を問う、または記事の for _ in range(MAX_TURNS) で回すと、こうなります）。弁1は本体の先頭（turns += 1 の手前）で問います",
            "It ran {rounds:tool turns} but only {requests:requests} went out: the last turn's results never reached the model (asking after the tools, or the article's for _ in range(MAX_TURNS), does this). Ask valve 1 at the top of the body (before turns += 1)",
        ),
        "lesson.l6.run_agent.after_increment": (
            "ツール {rounds} ターン・リクエスト {requests} 回で止まりました（上限どおりなら {want_rounds} ターン・{want_requests} 回）。turns += 1 の後で問う（または MAX_TURNS - 1 と比べる）と、1ターン早く止まります。手前で turns >= MAX_TURNS と問います",
            "It stopped after {rounds:tool turns} and {requests:requests} (the limit means {want_rounds} and {want_requests}): asking after turns += 1 (or comparing with MAX_TURNS - 1) stops one turn early; ask before it, with turns >= MAX_TURNS",
        ),
        "lesson.l6.run_agent.limit_after_answer": (
            "ツール {turns} ターンのあと、上限 3 ちょうどで答えが出たのに、弁1（最大ターン数）が止めました。弁1 は答えを受け取ったあとではなく、次の一周に入る前（ループの先頭）に尋ねます",
            "The answer came after {turns:tool turns}, right at the limit of 3, yet valve 1 (max turns) stopped the run; valve 1 asks before the next lap (at the top of the loop), not after the answer has come",
        ),
        "lesson.l6.run_agent.one_too_many": (
            "MAX_TURNS = {limit} で試しましたが、ツール {rounds} ターン・リクエスト {requests} 回と、1ターン多く回りました（上限どおりなら {want_rounds} ターン・{want_requests} 回）。turns > MAX_TURNS ではなく turns >= MAX_TURNS で比べます",
            "With MAX_TURNS = {limit}, it ran {rounds:tool turns} and sent {requests:requests}, one turn too many (the limit means {want_rounds} and {want_requests}); compare turns >= MAX_TURNS, not turns > MAX_TURNS",
        ),
        "lesson.l6.run_agent.valve_not_named": (
            '止まった所は上限どおりですが、終わり方が {got} になっています。弁は本体の先頭で問い、止めたら return lessons.stopped("{want}", 停止メッセージ, turns, tokens_used) で止めた弁の名前を返します（while の条件に入れると、抜けた後ではどの弁か分かりません）',
            'It stopped in the right place, but says it ended by {got}; ask the valve at the top of the body and, when it stops, return lessons.stopped("{want}", message, turns, tokens_used) with the valve\'s name (put in the while condition, nothing after the loop knows which valve it was)',
        ),
        "lesson.l6.run_agent.history_not_grown": (
            "{request} 回目のリクエストの履歴は {messages} 件で、前のリクエストより増えていません。ターンの応答と結果が、送る messages ではない"
            "リスト（list(messages) のコピーなど）に積まれています。モデルは同じ履歴を見て、同じ呼び出しを繰り返します。送る messages そのものに追加します",
            "Request {request} carried {messages:messages}, no more than the request before it: the turn's response and results went into a list "
            "that is not sent (a copy such as list(messages)), so the model saw the same history and made the same call again. Append them to the messages you send",
        ),
        "lesson.l6.run_agent.stale_history": (
            "もう一度呼んだとき、最初のリクエストにメッセージが {count} 個ありました。前の会話が残っています。messages = [...] は run_agent の中（呼ばれるたび）に作ります",
            "Called again, its first request held {count:messages}: the previous conversation was kept. Create messages = [...] inside run_agent, on every call",
        ),
        "lesson.l6.run_agent.yield_results": (
            "tool_use が {calls} 個のターンを、結果 {results} 個で yield しました。ツールを実行して結果を履歴に足してから、yield lessons.turn(turns, response, results) にその results を渡します",
            "A turn with {calls:tool_use blocks} was yielded with {results:results}; run the tools and add the results to the history first, then pass those results to yield lessons.turn(turns, response, results)",
        ),
        "lesson.l6.run_agent.yield_other_response": (
            "yield したターンの結果が、そのターンの応答の呼び出しに答えていません。次のリクエストを送ったあとで yield していませんか。yield lessons.turn(...) は、結果を履歴に足した直後、次の client.messages.create(...) の前に置きます",
            "A yielded turn's results do not answer that turn's response; does it yield after sending the next request? Put yield lessons.turn(...) right after the results go into the history, before the next client.messages.create(...)",
        ),
        "lesson.l6.run_agent.denied_dropped": (
            "弁4で断った {tool} に tool_result がないまま、次のリクエストを送りました。実行しなくても is_error の結果を返します（API の 400: {error}）",
            "The next request went out with no tool_result for {tool}, which valve 4 denied; return an is_error result even when nothing ran (the API's 400: {error})",
        ),
        "lesson.l6.run_agent.calls_unanswered": (
            "{tools} の tool_use に tool_result がないまま、次のリクエストを送りました。1つのターンの tool_use には、最初の1つだけでなく全部に、呼び出しの順に結果を1つずつ返します（response.content を for で回します）（API の 400: {error}）",
            "The next request went out with no tool_result for {tools}; every tool_use of the turn, not only the first, gets one result, in call order (a for over response.content) (the API's 400: {error})",
        ),
        "lesson.l6.run_agent.failed_open": (
            "弁4: approve が答えずに例外を出したのに、{tool} が走りました。承認が取れないときは「いいえ」として扱います（except で許可に倒さない）",
            "valve 4: approve raised instead of answering, yet {tool} ran; an approval that could not be had is a no (do not let the except allow it)",
        ),
        "lesson.l6.run_agent.signature_carried": (
            "同じプロセスでもう一度走らせると、最初のツール呼び出しのターンで、ツールを1つも実行しないうちに弁3（無進捗検知）が止めました。前の実行の最後の署名が残っていて、それと比べています。last_signature = None は run_agent の中（呼ばれるたび）で始めます（モジュールの変数にしない）",
            "When run again in the same process, it was stopped by valve 3 (no-progress detection) at its first tool turn, before any tool ran: the last signature of the previous run was kept and compared with. Start last_signature = None inside run_agent, on every call (not as a module variable)",
        ),
        "lesson.l6.run_agent.turns_carried": (
            "同じプロセスでもう一度走らせると、ツールを1つも実行しないうちに弁1（最大ターン数）が止めました（上限 {limit}）。前の実行で数えたターン数が残っています。turns = 0 は run_agent の中（呼ばれるたび）で始めます（モジュールの変数にしない）",
            "When run again in the same process, it was stopped by valve 1 (max turns) before any tool ran (limit {limit}): the turns counted in the previous run were kept. Start turns = 0 inside run_agent, on every call (not as a module variable)",
        ),
        "lesson.l6.run_agent.spin_first_only": (
            "{call} を別の呼び出しを挟んで呼び直したところで弁3（無進捗検知）が止め、2ターン目から同じ呼び出しを繰り返すモデルは止めませんでした。"
            "last_signature を最初のターンでしか入れていません。毎ターン、比べたあとで last_signature = signature と入れ直します",
            "Valve 3 (no-progress detection) stopped it when {call} was called again with another call in between, and did not stop a model "
            "that repeats one call from its second turn on: last_signature is set on the first turn only. Set last_signature = "
            "signature on every turn, after comparing",
        ),
        "lesson.l6.run_agent.spin_on_failures": (
            "{call} の同じ呼び出しが失敗し続けても、弁3（無進捗検知）が止めませんでした。空回りかどうかは署名で決まり、結果が成功か失敗かは関係ありません。"
            "ツールを呼ぶターンごとに、比べたあとで last_signature = signature と入れ直します（成功した呼び出しのときだけにしない）",
            "Valve 3 (no-progress detection) did not stop {call} failing again and again with the same call: whether a loop is "
            "spinning depends on the signature, not on whether the result succeeded. On every tool turn, after comparing, set "
            "last_signature = signature (not only when a call worked)",
        ),
        "lesson.l6.run_agent.spin_not_in_a_row": (
            "{call} を呼び、別の呼び出しを挟んでもう一度 {call} を呼んだところで、弁3（無進捗検知）が止めました。間に別の呼び出しがあれば空回りではありません。これまでの署名を全部覚えて比べるのではなく、前のターンの署名（last_signature）1つとだけ比べます",
            "Valve 3 (no-progress detection) stopped it when {call} was called again with another call in between; that is no spin. Compare with the previous turn's signature alone (last_signature), not with every signature so far",
        ),
        "lesson.l6.run_agent.spin_reordered": (
            "同じ2つの呼び出しを、順番や引数のキーの順だけ変えて毎ターン繰り返すモデルを、弁3（無進捗検知）が止めませんでした（{calls}）。"
            "呼び出しの順番やキーの順が違っても、同じ呼び出しなら同じ署名です。呼び出しごとに「名前(json.dumps(引数, sort_keys=True))」にしてから並べ替えた署名（signature_of）で比べます",
            "Valve 3 (no-progress detection) did not stop a model that repeats the same two calls every turn, only in another order or with "
            "the input's keys in another order ({calls}). The same calls in another order are the same signature: make each call "
            "name(json.dumps(input, sort_keys=True)) and sort them before comparing (signature_of)",
        ),
        "lesson.l6.run_agent.spin_names_dropped": (
            "read_file のあとに同じ引数で delete_file を呼んだところで、弁3（無進捗検知）が止めました（{calls}）。"
            "ツールが違えば、引数が同じでも別の呼び出しです。署名には引数だけでなく、ツールの名前も入れます（signature_of）",
            "Valve 3 (no-progress detection) stopped it when delete_file followed read_file with the same input ({calls}). Another tool is "
            "another call, whatever its input: put the tool's name in the signature too, not only its input (signature_of)",
        ),
        "lesson.l6.run_agent.unknown_allowed": (
            "弁4: approve が {got} を返した（「はい」とも「いいえ」とも答えていない）のに、{tool} が走りました。"
            "is False や != False で「いいえ」だけを断ると、答えのない承認が許可になります。「はい」以外はすべて断ります（if not approve(...)）",
            "valve 4: approve returned {got} (neither a yes nor a no), yet {tool} ran; refusing only an explicit no (is False, != False) "
            "turns an approval with no answer into an allow. Refuse anything but a yes (if not approve(...))",
        ),
        "lesson.l6.run_agent.spun_at_once": (
            "最初のツール呼び出しのターンで、ツールを1つも実行しないうちに弁3（無進捗検知）が止めました。まだ比べる前のターンはありません。last_signature は None で始め、このターンの署名と比べたあとで、このターンの署名を入れます",
            "Valve 3 (no-progress detection) stopped it at the first tool turn, before any tool ran, when there is no earlier turn to compare with; start last_signature as None, and set it to this turn's signature only after comparing",
        ),
        "lesson.l6.run_agent.approve_none": (
            "None を関数として呼びました（{error}）。approve が渡されないと None です。弁4は、尋ねる相手がいないときは断る側に倒します: approve or (lambda name, given: False)",
            "It called None as a function ({error}); approve is None when none was given. With nobody to ask, valve 4 denies: approve or (lambda name, given: False)",
        ),
        "lesson.l6.run_agent.not_generator_stalled": (
            "確認の制限時間（{seconds} 秒）を過ぎても終わらなかったので、確認を打ち切りました。run_agent に yield がないので、呼んだとたんにループが最後まで回り、そのループが終わっていません。ループの中で client.messages.create(...) を送り直して response に再代入し、1ターンごとに yield lessons.turn(turns, response, results) します",
            "It ran past the check's time limit ({seconds} s), so the check stopped it: run_agent has no yield, so its whole loop runs as soon as it is called, and that loop never ends. Send client.messages.create(...) again inside the loop, reassign response, and yield lessons.turn(turns, response, results) after each turn",
        ),
        "lesson.l6.run_agent.limit_ignored": (
            "確認は MAX_TURNS = {limit} にして試しましたが、ツール {rounds} ターンまで回りました。上限はモジュールの変数 MAX_TURNS から読みます（引数で受け取るなら名前を max_turns に。確認はそこにも渡します）",
            "The check set MAX_TURNS = {limit}, yet it ran {rounds:tool turns}; read the limit from the module variable MAX_TURNS (or take it as an argument named max_turns, which the check also passes)",
        ),
        "lesson.l6.run_agent.counts": (
            "止まり方は合っていますが、リクエスト {requests} 回・ツール {rounds} ターンでした（パッケージの Run はリクエスト {want_requests} 回・{want_rounds} ターン）",
            "It stopped the right way, after {requests:requests} and {rounds:tool turns} (the package's Run: {want_requests} and {want_rounds})",
        ),
        "lesson.l6.run_agent.spin_ran_again": (
            "同じ呼び出しを、もう一度実行してから止めました（ツール {rounds} ターン。パッケージは {want_rounds} ターン）。署名はツールを実行する前に比べます",
            "It ran the same call again before stopping ({rounds:tool turns}; the package: {want_rounds}); compare signatures before the tools run",
        ),
        "lesson.l6.run_agent.impl_call": (
            "ツールを {call} の形で、入力を位置引数として渡して呼びました。ツールは入力を名前つきの引数で受け取るので、この呼び方では TypeError になり、"
            "ツールは実行されません。ツールは run_tool_uses(response.content, tool_impls, approve) で実行するか、tool_impls[block.name](**block.input) のように、引数を名前つきで渡して呼びます",
            "A tool was called as {call}, its input passed by position. The tools take their input as named arguments, so this call raises a TypeError "
            "and the tool never runs. Run the tools with run_tool_uses(response.content, tool_impls, approve), or call them with named arguments: tool_impls[block.name](**block.input)",
        ),
        "lesson.l6.run_agent.approve_call": (
            "approve を {call} の形で呼びました。ノートブックの approve は approve(name, tool_input) の形で、ツールの名前と入力の辞書を、この順に受け取ります"
            "（ほかの形で呼ぶと TypeError になるか、何を許すのかが人間に見えません）。approve(block.name, block.input) と呼びましょう",
            "approve was called as {call}. The notebook's approve is approve(name, tool_input): it takes the tool's name and its input dict, "
            "in that order (called another way, it raises a TypeError, or the person cannot see what they allow). Call approve(block.name, block.input)",
        ),
        "lesson.l6.run_agent.tools_changed": (
            "run_agent が、渡された tools のリストを書き換えました（{before} 個から {after} 個に）。tools は呼び出し側のリストで、"
            "次の実行（Stepper、比べる表、my_agent）にもそのまま渡されます。弁4 の「いいえ」はその呼び出し1回への答えです。"
            "断ったツールも外さず、同じ tools をどのリクエストにも渡します",
            "run_agent changed the tools list it was given (from {before:tools} to {after}); the list is the caller's, and the next run "
            "(the Stepper, the comparison table, my_agent) is given the same list. Valve 4's no answers that one call: keep every tool, "
            "a denied one too, and send the same tools with every request",
        ),
        "lesson.l6.run_agent.over_after_tools": (
            "MAX_TURNS = {limit} で試しましたが、ツール {rounds} ターン・リクエスト {requests} 回で止まりました（上限どおりなら {want_rounds} ターン・{want_requests} 回）。"
            "弁1 をツールの実行のあと（yield のあと）で turns > MAX_TURNS と問うと、上限を越えたターンのツールまで走り、その結果はモデルに届きません。"
            "弁1 は本体の先頭（turns += 1 の手前）で turns >= MAX_TURNS と問います",
            "With MAX_TURNS = {limit}, it stopped after {rounds:tool turns} and {requests:requests} (the limit means {want_rounds} and {want_requests}): "
            "asking valve 1 after the tools ran (after the yield) with turns > MAX_TURNS runs one turn's tools past the limit, and their results never "
            "reach the model. Ask valve 1 at the top of the body (before turns += 1), with turns >= MAX_TURNS",
        ),
        "lesson.l6.run_agent.harmless_refused": (
            "弁4: 承認のない実行（approve=None）で、無害なツールの {tool} まで実行されず、is_error の結果が返りました。"
            "尋ねて断るのは HIGH_IMPACT にある高インパクトなツールだけで、ほかのツールは尋ねずに実行します",
            "valve 4: in a run with no approver (approve=None), {tool}, a harmless tool, was not run either, and got an is_error result. "
            "Only the high-impact tools in HIGH_IMPACT are asked about and refused; run the others without asking",
        ),
        "lesson.l6.run_agent.interrupt_caught": (
            "ツールの実行中に押された Ctrl-C（KeyboardInterrupt）が失敗の結果になり、ループはモデルへのリクエストを続けました。"
            "run_agent や run_tool_uses の except BaseException・素の except: は、人がループを中断するための割り込みまで捕まえます。"
            "ツールの失敗は except Exception で捕まえ、KeyboardInterrupt はそのまま通すか、捕まえたら lessons.stopped(...) で止めます",
            "Ctrl-C pressed while a tool ran (KeyboardInterrupt) became a failed result, and the loop sent the model another request: "
            "an except BaseException or a bare except: in run_agent or run_tool_uses also catches the interrupt a person uses to stop the loop. "
            "Catch a tool's failures with except Exception, and let KeyboardInterrupt through, or catch it and stop with lessons.stopped(...)",
        ),
        "lesson.l6.run_agent.api_error_retried": (
            "API が 529 Overloaded を返し続けると、ループは送り直しをやめませんでした（失敗したリクエストが {count} 回になったところで、確認を打ち切りました）。SDK 自身も、すでに2回まで送り直しています。"
            "エラーをすべて except で捕まえて送り直すループは、API が戻らなければ永遠に止まりません。"
            "送り直すのは 429 や 529 のような一時的なエラーだけにして回数を決め、それでも駄目ならエラーをそのまま通すか、lessons.stopped(...) で止めます",
            "The API kept answering 529 Overloaded and the loop never stopped sending again: the check cut it off after {count:failed requests}. "
            "The SDK already retries twice. A loop that catches every error and sends again never stops while the API stays down: "
            "retry only a passing error such as 429 or 529, a set number of times, then let the error out or stop with lessons.stopped(...)",
        ),
        "lesson.l6.run_agent.tool_raised": (
            "ツールの例外が、ループの外まで飛び出しました（{error}）。ツールは run_tool_uses(response.content, tool_impls, approve) で実行します。失敗したツールは is_error の tool_result にしてモデルに返し、ループは続けます",
            "A tool's exception came out of the loop ({error}); run the tools with run_tool_uses(response.content, tool_impls, approve): a failed tool becomes an is_error tool_result for the model, and the loop goes on",
        ),
        "lesson.l6.run_agent.refusal": (
            'モデルが断った（stop_reason refusal）のに、{got} で終わりました。next_step が "stop" のときは、response.stop_reason をそのまま '
            'lessons.stopped(response.stop_reason, 停止メッセージ, turns, tokens_used) に渡します（"max_tokens" などと決め打ちしない）',
            'The model refused (stop_reason refusal), yet it ended with {got}; when next_step says "stop", pass response.stop_reason as it is to '
            'lessons.stopped(response.stop_reason, message, turns, tokens_used) (not a fixed "max_tokens")',
        ),
        "lesson.l6.run_agent.results_order": (
            "{calls} 個の呼び出しへの結果を、呼び出しと違う順に送り返しました。tool_result は、応答の tool_use の順に1つずつ並べて、1つの user メッセージで返します（並べ替えない）",
            "It sent back the results of {calls:calls} in another order than the calls; put one tool_result per tool_use, in the response's order, in one user message (do not reorder them)",
        ),
        "lesson.l6.run_agent.normal_stopped": (
            "{valve}が止めました（ツール {rounds} ターン）。この仕事は2ターンで答えが出ます。その弁の数え方と比べ方を確かめます",
            "{valve} stopped it after {rounds:tool turns}, yet this task is answered in 2 turns; check how that valve counts and compares",
        ),
        "lesson.l6.run_agent.normal_no_progress": (
            "弁3（無進捗検知）が止めましたが、呼び出しは毎ターン違います（{calls}）。違う呼び出しが同じ署名になっていないか、最初のターンの比べ方も確かめます",
            "Valve 3 (no-progress detection) stopped it, yet the calls differ every turn ({calls}); check that different calls get different signatures, and the first turn's comparison",
        ),
        "lesson.l6.run_agent.no_progress_on_new_calls": (
            "弁3（無進捗検知）が止めましたが、このモデルは毎ターン違う引数で呼んでいます（{calls}）。名前だけの署名や、ツールの結果から作った署名では、違う呼び出しが同じ署名になります（結果は同じでも呼び出しは進んでいることがあります）。呼び出しの名前と引数の両方を入れた署名（signature_of）で比べます",
            "Valve 3 (no-progress detection) stopped it, yet this model calls with new arguments every turn ({calls}); a signature of names alone, or one made from the tools' results, makes different calls equal (the results can repeat while the calls move on). Compare signatures of the calls' name and input (signature_of)",
        ),
        "lesson.l6.run_agent.missed_spinning": (
            "{valve}が止めましたが、このモデルは毎ターン同じ呼び出し（{calls}）を繰り返しています。このターンの署名を前のターンの署名と比べ、同じなら弁3で止めます（id を入れると毎ターン変わります）",
            "{valve} stopped it, yet this model repeats the same call every turn ({calls}); compare this turn's signature with the last one and stop by valve 3 when they match (an id in it changes every turn)",
        ),
        "lesson.l6.run_agent.ended_while_calling": (
            "モデルはまだツールを求めているのに、終わりました（{got}）。止めるのは{want}のはずです。回るかどうかは next_step（stop_reason）で決めます",
            "It ended while the model still asked for tools ({got}); {want} should stop this one. Decide whether to go on with next_step (stop_reason)",
        ),
        "lesson.l6.run_agent.not_asked": (
            "弁4: 「いいえ」と答える approve を渡したのに、{tool} を approve に尋ねずに実行しました。名前が HIGH_IMPACT にあるツールは、どれも実行の前に尋ねます（レッスン5の run_tool_uses に approve を渡して実行します）",
            "valve 4: it was given an approve that says no, yet ran {tool} without asking approve; every tool whose name is in HIGH_IMPACT is asked about before it runs (run tools with lesson 5's run_tool_uses, passing approve)",
        ),
        "lesson.l6.run_agent.denied_ran": (
            "弁4: approve が「いいえ」（False）と答えたのに、{tool} が走りました。断られたツールは実行せず、is_error の結果だけを返します。"
            'approve の答えは True か False です（"n" や "no" と比べると、False が「いいえ」になりません）。「はい」以外をすべて断ります（if not approve(...)）',
            "valve 4: approve said no (False), yet {tool} ran; a denied tool is not run, and only an is_error result goes back. approve answers "
            'True or False (compared with "n" or "no", a False never counts as a no): refuse anything but a yes (if not approve(...))',
        ),
        "lesson.l6.run_agent.no_approver_ran": (
            "弁4: approve を渡さなかったのに {tool} が走りました。尋ねる相手がいないときは断る側に倒します（approve or (lambda name, given: False)）",
            "valve 4: no approve was given, yet {tool} ran; with nobody to ask, deny (approve or (lambda name, given: False))",
        ),
        "lesson.l6.run_agent.no_approver_some": (
            "弁4: approve を渡さなかったとき、{held} は断りましたが、{ran} が走りました。尋ねる相手がいないときの答えは、どの高インパクトなツールにも「いいえ」です（approve or (lambda name, given: False)）",
            "valve 4: with no approve given, it refused {held} but ran {ran}; with nobody to ask, the answer is no for every high-impact tool (approve or (lambda name, given: False))",
        ),
        "lesson.l6.run_agent.ended_on_refusal": (
            "弁4が断った呼び出しの結果をモデルに送らずに、{got} でループを終えました。"
            "断りは失敗ではなく、モデルへの知らせです: is_error の tool_result を会話履歴に足して次のリクエストを送り、次の手（別の道）はモデルに決めさせます",
            "The loop ended with {got} without sending the results of the calls valve 4 denied to the model. "
            "A denial is no failure of the loop but news for the model: add the is_error tool_result to the conversation history, send the next model request, and let the model choose its next step (another route)",
        ),
        "lesson.l6.run_agent.ended_on_failure": (
            "{call} の失敗の結果をモデルに送らずに、{got} でループを終えました。ツールの失敗はループの失敗ではなく、モデルへの知らせです: "
            "is_error の tool_result を会話履歴に足して次のリクエストを送り、次の手はモデルに決めさせます（同じ呼び出しを繰り返すなら、弁3が止めます）",
            "The loop ended with {got} without sending the failed result of {call} to the model. A tool's failure is no failure of the loop "
            "but news for the model: add the is_error tool_result to the conversation history, send the next model request, and let the "
            "model choose its next step (if it repeats the same call, valve 3 stops it)",
        ),
        "lesson.l6.run_agent.denied_not_error": (
            "弁4で断った {tool} に、is_error の tool_result が返っていません。断った呼び出しには、実行しなくても、それぞれ結果を返します",
            "{tool}, denied by valve 4, got no is_error tool_result; every denied call gets one, even though nothing ran",
        ),
        "lesson.l6.run_agent.asked_harmless": (
            "弁4: get_time まで尋ねています。尋ねるのは高インパクトなツールだけです",
            "valve 4: it asked about get_time too; ask only for high-impact tools",
        ),
        "lesson.l6.run_agent.harmless_not_run": (
            "弁4: 無害なツールの get_time が走りませんでした。尋ねずに実行します",
            "valve 4: get_time, a harmless tool, did not run; run it without asking",
        ),
        "lesson.l6.run_agent.approve_input": (
            "弁4: {tool} を、その呼び出しの入力ではなく {got} を添えて approve に尋ねました。何を許すのかが人に見えるよう、呼び出しごとに approve(block.name, block.input) で尋ねます",
            "valve 4: it asked approve about {tool} with {got}, not that call's input; so a person can see what they allow, ask about each call with approve(block.name, block.input)",
        ),
        "lesson.l6.run_agent.one_answer_per_turn": (
            "弁4: 同じターンで approve に尋ねたのは {asked} だけで、その答えが {tool} にも使われ、尋ねないまま走りました（尋ねていれば、この {tool} への答えは「いいえ」でした）。尋ねるのも決めるのも、呼び出し1つごとです",
            "valve 4: in that turn only {asked} was put to approve, and its answer was used for {tool} too, which ran unasked (asked, the answer for this {tool} would have been no); ask and decide per call",
        ),
        "lesson.l6.run_agent.yes_kept": (
            "弁4: 前の実行で「はい」と答えた {tool} を、今度は尋ねないまま走らせました（今回尋ねていれば、答えは「いいえ」でした）。「はい」は尋ねた呼び出し1つへの答えです。覚えておかず、呼び出しごとに尋ねます",
            "valve 4: {tool}, approved in an earlier run, now ran without asking (asked this time, the answer would have been no); a yes answers the one call it was asked about: do not keep it, ask about every call",
        ),
        "lesson.l6.run_agent.no_stopped_yes": (
            "弁4: 同じターンで http_post には「いいえ」、{tool} には「はい」と答えたのに、{tool} がちょうど1回は走りませんでした。1つの「いいえ」でターン全体を止めず、呼び出しごとに、その答えで決めます",
            "valve 4: in one turn the answer was no for http_post and yes for {tool}, yet {tool} did not run exactly once; one no does not stop the turn: decide each call by its own answer",
        ),
        "lesson.l6.run_agent.answer_reused": (
            "弁4: 同じターンの {tool} 2つを approve にそれぞれ尋ね、1つ目には「はい」、2つ目には「いいえ」と答えたのに、2つとも走りました。"
            "2つ目の答えを読まず、1つ目の答えをツール名で覚えて使っています（ツール名をキーにした辞書や setdefault）。呼び出しごとに、その呼び出しへの答えで決めます",
            "valve 4: the two {tool} calls of one turn were each put to approve, which said yes to the first and no to the second, yet both ran: "
            "the second answer was not read, and the first, kept by the tool's name (a dict keyed by name, setdefault), was used again. Decide each call by its own answer",
        ),
        "lesson.l6.run_agent.asked_unrun": (
            "弁4: approve に {asked} 回尋ね、{tool} が走ったのは {ran} 回で、残りのターンは{valve}が止めました。"
            "人は、走らない呼び出しについて尋ねられています。弁1・弁2 は本体の先頭で、弁3 はツールの前で問い、承認（弁4）はそのあと、呼び出し1つごとに実行の直前で尋ねます",
            "valve 4: approve was asked {asked:times}, yet {tool} ran {ran:times}: {valve} stopped the rest of the turns, so a person was asked "
            "about calls that never ran. Ask valves 1 and 2 at the top of the body and valve 3 before the tools; approval (valve 4) comes after them, per call, just before it runs",
        ),
        "lesson.l6.run_agent.failure_not_error": (
            "{call} が例外を出したのに、その tool_result に is_error: True がありません。モデルはエラーの文を、ツールの出力として読みます。"
            "失敗した呼び出しの結果には is_error: True を付けます（run_tool_uses(response.content, tool_impls, approve) がそうします）",
            "{call} raised, yet its tool_result lacks is_error: True, so the model reads the error text as the tool's output; "
            "mark a failed call's result is_error: True (run_tool_uses(response.content, tool_impls, approve) does)",
        ),
        "lesson.l6.run_agent.turns_reset": (
            "ツール {rounds} ターン回ったのに、どのターンも turn 1 として yield されました。turns = 0 がループの中にあって、"
            "一周ごとに数え直しています。これでは弁1がいつまでも上限に届きません。turns = 0 はループの前で一度だけ置きます",
            "It ran {rounds:tool turns}, yet every turn was yielded as turn 1: turns = 0 stands inside the loop and "
            "starts the count again on every lap, so valve 1 never reaches its limit. Set turns = 0 once, before the loop",
        ),
        "lesson.l6.run_agent.approved_not_run": (
            "弁4: {tool} を許可したのに、実行が1回ではありませんでした（0回か、2回以上）",
            "valve 4: {tool} was approved, yet it did not run exactly once (it never ran, or ran two or more times)",
        ),
    }
)
