"""The lesson checks' strings for lesson 6 and the capstone (ja, en), the workbook's errors, and the steps
``lessons.hint(name)`` opens. Braces that are not placeholders are doubled (every entry is formatted)."""

from __future__ import annotations

from ..text import add

add(
    {
        # the workbook: why a file or a name cannot be read or written
        "lesson.workbook.not_utf8": (
            "{path} が UTF-8 ではありません（Shift_JIS などで保存されたようです）。エディターで UTF-8 で保存し直してください",
            "{path} is not UTF-8 (it looks saved as Shift_JIS or similar); save it again as UTF-8 in your editor",
        ),
        "lesson.workbook.unreadable": ("{path} を開けません（{error}）", "{path} cannot be opened ({error})"),
        "lesson.workbook.syntax": (
            "{path} の {line} 行目が Python として読めません（{error}）",
            "line {line} of {path} is not valid Python ({error})",
        ),
        "lesson.workbook.why.object": (
            "数・文字列・リスト・辞書のようなデータではないので、コードに書き出せません。関数の中で作るか、引数で受け取ってください",
            "it is not plain data (numbers, text, lists, dicts), so it cannot be written as code; create it inside the function or take it as an argument",
        ),
        "lesson.workbook.why.holds_itself": (
            "自分自身を中に含んでいるので、コードに書き出せません",
            "it contains itself, so it cannot be written as code",
        ),
        "lesson.workbook.why.too_deep": (
            "入れ子が深すぎるので、コードに書き出せません",
            "it is nested too deeply to be written as code",
        ),
        "lesson.workbook.why.too_big": (
            "大きすぎるので、コードに書き出せません。ファイルから読むようにしてください",
            "it is too big to be written as code; read it from a file instead",
        ),
        "lesson.workbook.why.no_source": (
            "ソースを読めません。def や class で、セルに書いてください",
            "its source cannot be read; write it in a cell with def or class",
        ),
        # read_file
        "lesson.l6.read_file.p1": (
            "ルートの内側のファイルは先頭 2000 文字まで読める（ルート自身がリンクでも）",
            "a file inside the root can be read, its first 2000 characters (also when the root itself is a link)",
        ),
        "lesson.l6.read_file.p2": (
            "../、絶対パス、名前が同じ文字で始まる隣のフォルダ（project-secrets）へ出るパスは PermissionError で拒否する",
            "a path that leaves by ../, an absolute path, or into a sibling folder whose name starts the same (project-secrets) is refused with PermissionError",
        ),
        "lesson.l6.read_file.p3": (
            "ルートの中にある、外を指すシンボリックリンク（ファイルもフォルダも）を拒否する",
            "a symlink inside the root that points outside (to a file or a folder) is refused",
        ),
        "lesson.l6.read_file.not_read": (
            "README.md を読めませんでした（返り値 {got}）",
            "README.md could not be read (got {got})",
        ),
        "lesson.l6.read_file.wrong_root": (
            "root の中の README.md ではないものを読みました（{got}）。path は root を起点にします（Path(root) / path）",
            "It read something other than the README.md inside root ({got}); start the path at root (Path(root) / path)",
        ),
        "lesson.l6.read_file.limit": (
            "5,500 文字のファイルに {length} 文字を返しました。返すのは先頭 2000 文字です（f.read(2000)）",
            "A 5,500-character file gave {length} characters; return the first 2000 (f.read(2000))",
        ),
        "lesson.l6.read_file.returned_refusal": (
            "外へのパスに、例外ではなく値（{got}）を返しました。値を返すと、モデルには読めたように見えます。raise PermissionError(...) で拒否します",
            "A path outside got a value back ({got}), not an exception, so the model sees a file that was read; refuse with raise PermissionError(...)",
        ),
        "lesson.l6.read_file.not_permission": (
            "外へのパスを拒否しましたが、例外が OSError の仲間ではありません（{error}）。raise PermissionError(...) で拒否します（次のセルの try_read は OSError を受け止めます）",
            "A path outside was refused with an exception that is not an OSError ({error}); refuse with raise PermissionError(...) (try_read in the next cell catches OSError)",
        ),
        "lesson.l6.read_file.inner_path": (
            "docs/../docs/a.md のような、内側に留まるパスも読めるようにします",
            "A path that stays inside, like docs/../docs/a.md, should read",
        ),
        "lesson.l6.read_file.root_link": (
            "ルートがリンクのとき、内側の README.md を読めませんでした。ルートと行き先の両方を Path.resolve() でそろえてから比べます",
            "When the root is a link, README.md inside it did not read; resolve both the root and the target with Path.resolve() before comparing",
        ),
        "lesson.l6.read_file.escaped": (
            "{path} でルートの外の秘密が読めてしまいました",
            "{path} read a secret outside the root",
        ),
        "lesson.l6.read_file.sibling": (
            "../project-secrets/key.txt（ルート project の隣のフォルダ）が読めました。文字列の前方一致では project-secrets も project で始まります。パスの部品で比べます（target.is_relative_to(base)）",
            "../project-secrets/key.txt (a folder beside the root project) was read: as a string, project-secrets starts with project too. Compare path parts (target.is_relative_to(base))",
        ),
        "lesson.l6.read_file.link": (
            "{path}（外を指すリンク）から秘密が読めました。比べる前に、Path.resolve() でリンクをたどった本当の行き先を求めます",
            "{path} (a link pointing outside) read the secret; resolve the real target with Path.resolve() before comparing",
        ),
        # run_agent with the four valves
        "lesson.l6.valve.max_turns": ("弁1（最大ターン数）", "valve 1 (max turns)"),
        "lesson.l6.valve.token_budget": ("弁2（トークン予算）", "valve 2 (token budget)"),
        "lesson.l6.valve.no_progress": ("弁3（無進捗検知）", "valve 3 (no progress)"),
        "lesson.l6.run_agent.p1": (
            "普通の仕事は、モデルの答えで終わる（1ターンごとに yield する）",
            "a normal task ends with the model's answer (yielding each turn)",
        ),
        "lesson.l6.run_agent.p2": (
            "回るかどうかを next_step で決める: pause_turn は送り返し、max_tokens は実行せずに止まる",
            "next_step decides whether to go on: pause_turn is sent back, max_tokens stops without running the cut call",
        ),
        "lesson.l6.run_agent.p3": (
            "止まらないモデルは、弁1 最大ターン数で止まる（上限 3 なら、ツール 3 ターン・リクエスト 4 回）",
            "a model that never stops is stopped by valve 1, max turns (a limit of 3: 3 tool turns, 4 requests)",
        ),
        "lesson.l6.run_agent.p4": (
            "トークンを燃やすモデルは、弁2 トークン予算で止まる",
            "a model that burns tokens is stopped by valve 2, the budget",
        ),
        "lesson.l6.run_agent.p5": (
            "同じ呼び出しを繰り返すモデルは、弁3 無進捗検知で止まる",
            "a model repeating the same call is stopped by valve 3, no progress",
        ),
        "lesson.l6.run_agent.p6": (
            "弁4: 承認がない・「いいえ」なら高インパクトなツールは走らず、is_error の結果がモデルに届く",
            "valve 4: with no approver or a no, a high-impact tool never runs and the model gets an is_error result",
        ),
        "lesson.l6.run_agent.p7": (
            "弁4: 許可されたツールは走り、無害なツールは尋ねずに走る",
            "valve 4: an approved tool runs, and harmless tools run without asking",
        ),
        "lesson.l6.run_agent.not_generator": (
            "ジェネレーターではありません（{got} が返りました）。1ターンごとに yield lessons.turn(turns, response, results) します",
            "It is not a generator (it returned a {got}); yield lessons.turn(turns, response, results) after each turn",
        ),
        "lesson.l6.run_agent.no_yield": (
            "ツールは走りましたが、一度も yield lessons.turn(...) していません。1ターン終えるたびに yield します",
            "Tools ran but it never yielded lessons.turn(...); yield after each turn",
        ),
        "lesson.l6.run_agent.no_end": (
            "最後に return lessons.finished(...) か return lessons.stopped(...) がありません（返り値 {got}）",
            "It does not end with return lessons.finished(...) or return lessons.stopped(...) (got {got})",
        ),
        "lesson.l6.run_agent.unknown_cause": (
            'lessons.stopped の最初の引数が {got} です。止めた弁の名前 "max_turns" / "token_budget" / "no_progress" のどれかにします',
            'The first argument of lessons.stopped is {got}; use the name of the valve that stopped: "max_turns", "token_budget" or "no_progress"',
        ),
        "lesson.l6.run_agent.not_answer": (
            "最後の答えが返りませんでした（{got}）。モデルが切り上げたら return lessons.finished(response, turns, tokens_used) します",
            "The final answer was not returned ({got}); when the model finishes, return lessons.finished(response, turns, tokens_used)",
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
        "lesson.l6.run_agent.max_tokens": (
            'max_tokens で切れた応答のあと、{got} で終わりました。next_step が "stop" なら return lessons.stopped(response.stop_reason, 停止メッセージ, turns, tokens_used) で止めます',
            'After a response cut at max_tokens it ended with {got}; when next_step says "stop", return lessons.stopped(response.stop_reason, message, turns, tokens_used)',
        ),
        "lesson.l6.run_agent.no_max_turns": (
            "MAX_TURNS = {limit} で試しましたが、リクエストが {count} 回を超えても止まりませんでした。本体の先頭で turns >= MAX_TURNS を問います",
            "With MAX_TURNS = {limit} it had not stopped after {count} requests; ask turns >= MAX_TURNS at the top of the body",
        ),
        "lesson.l6.run_agent.valve1_silent": (
            "MAX_TURNS = {limit} で試しましたが、弁1が止めず、ツールが {rounds} ターン走ったところで弁2（トークン予算）がやっと止めました。本体の先頭で turns >= MAX_TURNS を問います",
            "With MAX_TURNS = {limit}, valve 1 never stopped it: tools ran {rounds} turns until valve 2 (token budget) did. Ask turns >= MAX_TURNS at the top of the body",
        ),
        "lesson.l6.run_agent.finish_as_stop": (
            'モデルが切り上げた（{got}）のに、lessons.stopped で返しました。next_step が "finish" なら return lessons.finished(response, turns, tokens_used) します',
            'The model finished ({got}), but it returned lessons.stopped; when next_step says "finish", return lessons.finished(response, turns, tokens_used)',
        ),
        "lesson.l6.run_agent.after_tools": (
            "ツールは {rounds} ターン分走ったのに、リクエストは {requests} 回: 最後のターンの結果がモデルに届いていません（ツールの後で上限を問う、または記事の for _ in range(MAX_TURNS) で回すと、こうなります）。弁1は本体の先頭（turns += 1 の手前）で問います",
            "Tools ran {rounds} turns but only {requests} requests went out: the last turn's results never reached the model (asking after the tools, or the article's for _ in range(MAX_TURNS), does this). Ask valve 1 at the top of the body (before turns += 1)",
        ),
        "lesson.l6.run_agent.after_increment": (
            "ツール {rounds} ターン・リクエスト {requests} 回で止まりました（上限どおりなら {want_rounds} ターン・{want_requests} 回）。turns += 1 の後で問うと、1ターン早く止まります。手前で問います",
            "It stopped after {rounds} tool turns and {requests} requests (the limit means {want_rounds} and {want_requests}): asking after turns += 1 stops one turn early; ask before it",
        ),
        "lesson.l6.run_agent.one_too_many": (
            "MAX_TURNS = {limit} で試しましたが、ツールが {rounds} ターン・リクエスト {requests} 回と、1ターン多く回りました（上限どおりなら {want_rounds} ターン・{want_requests} 回）。turns > MAX_TURNS ではなく turns >= MAX_TURNS で比べます",
            "With MAX_TURNS = {limit}, tools ran {rounds} turns and {requests} requests went out, one turn too many (the limit means {want_rounds} and {want_requests}); compare turns >= MAX_TURNS, not turns > MAX_TURNS",
        ),
        "lesson.l6.run_agent.valve_not_named": (
            '止まった所は上限どおりですが、終わり方が {got} になっています。弁は本体の先頭で問い、止めたら return lessons.stopped("{want}", 停止メッセージ, turns, tokens_used) で止めた弁の名前を返します（while の条件に入れると、抜けた後ではどの弁か分かりません）',
            'It stopped in the right place, but says it ended by {got}; ask the valve at the top of the body and, when it stops, return lessons.stopped("{want}", message, turns, tokens_used) with the valve\'s name (put in the while condition, nothing after the loop knows which valve it was)',
        ),
        "lesson.l6.run_agent.budget_last_only": (
            "tokens_used は {used} で、最後の応答の分だけです（実際に使ったのは {total} トークン）。tokens_used = ではなく tokens_used += で、応答ごとに足し上げます",
            "tokens_used was {used}, the last response's alone ({total} tokens were used in all); add up each response with tokens_used +=, not tokens_used =",
        ),
        "lesson.l6.run_agent.stale_history": (
            "もう一度呼んだとき、最初のリクエストにメッセージが {count} 個ありました。前の会話が残っています。messages = [...] は run_agent の中（呼ばれるたび）に作ります",
            "Called again, its first request held {count} messages: the last conversation was kept. Create messages = [...] inside run_agent, on every call",
        ),
        "lesson.l6.run_agent.yield_results": (
            "tool_use が {calls} 個のターンを、結果 {results} 個で yield しました。ツールを実行して結果を履歴に足してから、yield lessons.turn(turns, response, results) にその results を渡します",
            "A turn with {calls} tool_use blocks was yielded with {results} results; run the tools and add the results to the history first, then pass those results to yield lessons.turn(turns, response, results)",
        ),
        "lesson.l6.run_agent.denied_dropped": (
            "断った write_file に tool_result がないまま、次のリクエストを送りました。実行しなくても is_error の結果を返します（API の 400: {error}）",
            "The next request went out with no tool_result for the denied write_file; return an is_error result even when nothing ran (the API's 400: {error})",
        ),
        "lesson.l6.run_agent.approve_none": (
            "None を関数として呼びました（{error}）。approve が渡されないと None です。尋ねる相手がいないときは断る側に倒します: approve or (lambda name, given: False)",
            "It called None as a function ({error}); approve is None when none was given. With nobody to ask, deny: approve or (lambda name, given: False)",
        ),
        "lesson.l6.run_agent.not_generator_stalled": (
            "{seconds} 秒たっても終わりませんでした。run_agent に yield がないので、呼んだとたんにループが最後まで回り、そのループが終わっていません。ループの中で client.messages.create(...) を送り直して response に再代入し、1ターンごとに yield lessons.turn(turns, response, results) します",
            "It did not finish within {seconds} s: run_agent has no yield, so its whole loop runs as soon as it is called, and that loop never ends. Send client.messages.create(...) again inside the loop, reassign response, and yield lessons.turn(turns, response, results) after each turn",
        ),
        "lesson.l6.run_agent.limit_ignored": (
            "確認は MAX_TURNS = {limit} にして試しましたが、ツールが {rounds} ターン走りました。上限はモジュールの変数 MAX_TURNS から読みます（引数で受け取るなら名前を max_turns に。確認はそこにも渡します）",
            "The check set MAX_TURNS = {limit}, yet tools ran {rounds} turns; read the limit from the module variable MAX_TURNS (or take it as an argument named max_turns, which the check also passes)",
        ),
        "lesson.l6.run_agent.counts": (
            "止まり方は合っていますが、リクエスト {requests} 回・ツール {rounds} ターンでした（パッケージの Run はリクエスト {want_requests} 回・{want_rounds} ターン）",
            "It stopped the right way, after {requests} requests and {rounds} tool turns (the package's Run: {want_requests} and {want_rounds})",
        ),
        "lesson.l6.run_agent.spin_ran_again": (
            "同じ呼び出しを、もう一度実行してから止めました（ツール {rounds} ターン。パッケージは {want_rounds} ターン）。署名はツールを実行する前に比べます",
            "It ran the same call again before stopping ({rounds} tool turns; the package: {want_rounds}); compare signatures before the tools run",
        ),
        "lesson.l6.run_agent.budget_output_only": (
            "tokens_used は {used} でしたが、実際に使ったのは {total} トークンです。output_tokens だけでは、毎回送り直す履歴（input_tokens）が抜けます。応答ごとに input_tokens + output_tokens を足します",
            "tokens_used was {used}, but {total} tokens were used: output_tokens alone leaves out the history sent again each time (input_tokens). Add input_tokens + output_tokens after each response",
        ),
        "lesson.l6.run_agent.budget_input_only": (
            "tokens_used は {used} でしたが、実際に使ったのは {total} トークンです。input_tokens だけでは、モデルが書いた分が抜けます。応答ごとに input_tokens + output_tokens を足します",
            "tokens_used was {used}, but {total} tokens were used: input_tokens alone leaves out what the model wrote. Add input_tokens + output_tokens after each response",
        ),
        "lesson.l6.run_agent.budget_ignored": (
            "確認は TOKEN_BUDGET = {budget} にして試しましたが、{used} トークンまで止まりませんでした。上限はモジュールの変数 TOKEN_BUDGET から読みます（引数で受け取るなら名前を token_budget に）",
            "The check set TOKEN_BUDGET = {budget}, yet it ran to {used} tokens; read the limit from the module variable TOKEN_BUDGET (or an argument named token_budget)",
        ),
        "lesson.l6.run_agent.budget_not_counted": (
            "弁2 が働いていません（確認の予算は {budget}）。応答ごとに input_tokens + output_tokens を tokens_used に足し、本体の先頭で TOKEN_BUDGET と比べます。lessons.stopped にも tokens_used を渡します",
            "Valve 2 did not act (the check's budget: {budget}); add input_tokens + output_tokens to tokens_used after each response, compare with TOKEN_BUDGET at the top of the body, and pass tokens_used to lessons.stopped",
        ),
        "lesson.l6.run_agent.budget_too_early": (
            "弁2（トークン予算）が止めましたが、予算 {budget} に対して使ったのは {used} トークンです。tokens_used の足し方と、比べる相手を確かめます",
            "Valve 2 (token budget) stopped it, but only {used} of the {budget} tokens were used; check how tokens_used is added up and what it is compared with",
        ),
        "lesson.l6.run_agent.normal_stopped": (
            "{valve}が止めました（ツール {rounds} ターン）。この仕事は2ターンで答えが出ます。その弁の数え方と比べ方を確かめます",
            "{valve} stopped it after {rounds} tool turns, yet this task is answered in 2 turns; check how that valve counts and compares",
        ),
        "lesson.l6.run_agent.normal_no_progress": (
            "弁3（無進捗検知）が止めましたが、呼び出しは毎ターン違います（{calls}）。違う呼び出しが同じ署名になっていないか、最初のターンの比べ方も確かめます",
            "Valve 3 (no progress) stopped it, yet the calls differ every turn ({calls}); check that different calls get different signatures, and the first turn's comparison",
        ),
        "lesson.l6.run_agent.no_progress_on_new_calls": (
            "弁3（無進捗検知）が止めましたが、このモデルは毎ターン違う引数で呼んでいます（{calls}）。名前だけの署名では、違う呼び出しが同じ署名になります。名前と引数の両方を入れた署名（signature_of）で比べます",
            "Valve 3 (no progress) stopped it, yet this model calls with new arguments every turn ({calls}); a signature of names alone makes different calls equal. Compare signatures with both name and input (signature_of)",
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
            "「いいえ」と答える approve を渡したのに、尋ねずに write_file を実行しました。ツールはレッスン5の run_tool_uses（実行の前に尋ねる）で実行します",
            "It was given an approve that says no, yet ran write_file without asking; run tools with lesson 5's run_tool_uses, which asks first",
        ),
        "lesson.l6.run_agent.denied_ran": (
            "approve が「いいえ」と答えたのに、write_file が走りました",
            "approve said no, yet write_file ran",
        ),
        "lesson.l6.run_agent.no_approver_ran": (
            "approve を渡さなかったのに write_file が走りました。尋ねる相手がいないときは断る側に倒します（approve or (lambda name, given: False)）",
            "No approve was given, yet write_file ran; with nobody to ask, deny (approve or (lambda name, given: False))",
        ),
        "lesson.l6.run_agent.denied_not_error": (
            "断った write_file に、is_error の tool_result が返っていません。実行しなくても結果は返します",
            "The denied write_file got no is_error tool_result; return a result even when nothing ran",
        ),
        "lesson.l6.run_agent.asked_harmless": (
            "get_time まで尋ねています。尋ねるのは高インパクトなツールだけです",
            "It asked about get_time too; ask only for high-impact tools",
        ),
        "lesson.l6.run_agent.harmless_not_run": ("get_time が走りませんでした", "get_time did not run"),
        "lesson.l6.run_agent.approved_not_run": (
            "許可されたのに write_file が1回だけ走る、になっていません",
            "write_file was approved but did not run exactly once",
        ),
        # the capstone: my_agent
        "lesson.capstone.p1": (
            "許可した宛先へ、承認を得てから1回だけ送る",
            "it sends once to an allowed address, after a yes",
        ),
        "lesson.capstone.p2": (
            "承認がない・「いいえ」なら送らず、is_error の結果がモデルに届く",
            "with no approver or a no, nothing is sent and the model gets an is_error result",
        ),
        "lesson.capstone.p3": (
            "ポリシーにない宛先へは、承認されても送らない（見た目の似た URL も）",
            "an address the policy does not allow gets nothing, even after a yes (look-alike URLs too)",
        ),
        "lesson.capstone.p4": (
            "同じ送信を繰り返すモデルは弁3で止まり、送るのは1回だけ",
            "a model that posts the same thing again is stopped by valve 3: one send",
        ),
        "lesson.capstone.signature": (
            "my_agent(client, user_input, send, approve) の形で呼べませんでした（{error}）",
            "my_agent could not be called as my_agent(client, user_input, send, approve) ({error})",
        ),
        "lesson.capstone.not_generator": (
            "my_agent が run_agent のジェネレーターを返していません（{got}）。return run_agent(...) で返します",
            "my_agent did not return the run_agent generator (got {got}); return run_agent(...)",
        ),
        "lesson.capstone.not_defined": (
            "モデルに渡すツールの定義に http_post がありません。tools に HTTP_POST を足します",
            "The tool definitions sent to the model lack http_post; add HTTP_POST to the tools",
        ),
        "lesson.capstone.not_sent": (
            '承認されたのに、許可した宛先へ送りませんでした（モデルに届いた結果: {result}）。http_post の中で send(url, body) を呼び、impls に "http_post" を足します',
            'It was approved but nothing went to the allowed address (the model got: {result}); call send(url, body) inside http_post and add "http_post" to the impls',
        ),
        "lesson.capstone.sent_wrong": (
            "送ったものが、モデルが頼んだものと違います（{sent}）。url と body をそのまま send に渡します",
            "What was sent differs from what the model asked for ({sent}); pass url and body to send unchanged",
        ),
        "lesson.capstone.not_asked": (
            "尋ねずに送りました。http_post は高インパクトなツールなので、run_agent の弁4が実行の前に尋ねます。approve をそのまま run_agent に渡します",
            "It sent without asking: http_post is high-impact, so run_agent's valve 4 asks before it runs. Pass approve on to run_agent",
        ),
        "lesson.capstone.sent_without_approver": (
            "approve がないのに送りました。尋ねる相手がいなければ断ります（run_agent の弁4）",
            "It sent with no approver; with nobody to ask, deny (run_agent's valve 4)",
        ),
        "lesson.capstone.sent_denied": (
            "approve が「いいえ」と答えたのに送りました",
            "approve said no, yet it sent",
        ),
        "lesson.capstone.denied_not_error": (
            "送らなかった http_post に、is_error の tool_result が返っていません",
            "The http_post that was not sent got no is_error tool_result",
        ),
        "lesson.capstone.lookalike_sent": (
            "ポリシーにない {url} へ送ってしまいました。文字列の前方一致や「含む」では、見た目の似た URL が通ります。urllib.parse.urlsplit(url).hostname を ALLOWED_HOSTS と比べます",
            "It sent to {url}, which the policy does not allow: a string prefix or 'contains' test lets look-alike URLs through. Compare urllib.parse.urlsplit(url).hostname with ALLOWED_HOSTS",
        ),
        "lesson.capstone.refusal_not_error": (
            "断った送信の結果に is_error がありません。ポリシーで断るときは例外を投げ、is_error の結果にします",
            "A refused send's result lacks is_error; raise in http_post so the refusal becomes an is_error result",
        ),
        "lesson.capstone.sent_again": (
            "同じ送信を {count} 回しました。弁3（無進捗検知）が、同じ呼び出しの2回目を実行の前に止めます。my_agent は run_agent を通して走らせます",
            "It sent the same thing {count} times; valve 3 (no progress) stops the second identical call before it runs. Run my_agent through run_agent",
        ),
        # the steps behind lessons.hint(name)
        "lesson.hint.none": (
            "{name} の手順のヒントはありません。参考実装は {show} で読めます",
            "There are no steps for {name}; read the reference with {show}",
        ),
        "lesson.hint.signature_of": (
            "手順:\n"
            '  1. content のうち block.type == "tool_use" のブロックだけを使う（id は入れない。ターンごとに変わるから）\n'
            '  2. それぞれを f"{{block.name}}({{json.dumps(block.input, ensure_ascii=False, sort_keys=True)}})" にする\n'
            '  3. sorted で並べ替えてから " | ".join でつなぐ',
            "Steps:\n"
            '  1. use only the blocks whose block.type == "tool_use" (leave the id out: it changes every turn)\n'
            '  2. make each f"{{block.name}}({{json.dumps(block.input, ensure_ascii=False, sort_keys=True)}})"\n'
            '  3. sort them, then join with " | "',
        ),
        "lesson.hint.run_tool_uses": (
            "手順:\n"
            "  1. content の tool_use を1つずつ（text は飛ばす）\n"
            "  2. 名前が HIGH_IMPACT にあり、approve(block.name, block.input) が False なら、実行せずに\n"
            '     {{"type": "tool_result", "tool_use_id": block.id, "content": 断った理由, "is_error": True}} を足して次へ\n'
            "  3. それ以外は try の中で impls[block.name](**block.input) を実行し、出力を文字列にした結果を足す\n"
            "  4. 例外は is_error の結果に。最後に、呼び出しの順のリストを返す",
            "Steps:\n"
            "  1. take the tool_use blocks of content one by one (skip text)\n"
            "  2. when the name is in HIGH_IMPACT and approve(block.name, block.input) is False, do not run it:\n"
            '     add {{"type": "tool_result", "tool_use_id": block.id, "content": why, "is_error": True}} and go on\n'
            "  3. otherwise run impls[block.name](**block.input) inside try and add its output as text\n"
            "  4. an exception becomes an is_error result; return the list in call order",
        ),
        "lesson.hint.read_file": (
            "手順:\n"
            "  1. base = Path(root).resolve()（ルート自身もリンクかもしれない）\n"
            "  2. target = (base / path).resolve()（リンクを最後までたどった本当の行き先）\n"
            "  3. target.is_relative_to(base) でなければ PermissionError（文字列の startswith は使わない）\n"
            '  4. open(target, encoding="utf-8") で開いて、read(2000) を返す',
            "Steps:\n"
            "  1. base = Path(root).resolve() (the root itself may be a link)\n"
            "  2. target = (base / path).resolve() (the real place, every link followed)\n"
            "  3. unless target.is_relative_to(base), raise PermissionError (no string startswith)\n"
            '  4. open(target, encoding="utf-8") and return read(2000)',
        ),
        "lesson.hint.run_agent6": (
            "手順（レッスン2の run_agent から）:\n"
            "  1. turns, tokens_used, last_signature = 0, 0, None。最初の応答のあと tokens_used に input_tokens + output_tokens を足す\n"
            '  2. step = next_step(response) とし、while step in ("run_tools", "resend"): で回る\n'
            "  3. 本体の先頭で 弁1 turns >= MAX_TURNS、弁2 tokens_used >= TOKEN_BUDGET なら return lessons.stopped(...)。それから turns += 1\n"
            '  4. step が "run_tools" なら 弁3: signature_of(response.content) が last_signature と同じなら止める。\n'
            "     違えば覚えて、弁4 run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n"
            '  5. assistant に response.content をそのまま足し、結果があれば user に足す（"resend" なら assistant だけ）\n'
            "  6. yield lessons.turn(turns, response, results)。送り直して tokens_used を足し、step = next_step(response)\n"
            '  7. ループを抜けたら、step が "finish" なら return lessons.finished(response, turns, tokens_used)、\n'
            "     それ以外は return lessons.stopped(response.stop_reason, 停止メッセージ, turns, tokens_used)",
            "Steps (from lesson 2's run_agent):\n"
            "  1. turns, tokens_used, last_signature = 0, 0, None; after the first response add input_tokens + output_tokens\n"
            '  2. step = next_step(response); loop while step in ("run_tools", "resend"):\n'
            "  3. at the top: valve 1 turns >= MAX_TURNS, valve 2 tokens_used >= TOKEN_BUDGET: return lessons.stopped(...); then turns += 1\n"
            '  4. when step is "run_tools", valve 3: stop if signature_of(response.content) equals last_signature;\n'
            "     else keep it, and valve 4: run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n"
            '  5. append response.content as the assistant message, the results (if any) as the user message ("resend": assistant only)\n'
            "  6. yield lessons.turn(turns, response, results); send again, add the tokens, step = next_step(response)\n"
            '  7. after the loop: step "finish" returns lessons.finished(response, turns, tokens_used),\n'
            "     anything else lessons.stopped(response.stop_reason, message, turns, tokens_used)",
        ),
        "lesson.hint.my_agent": (
            "手順:\n"
            "  1. my_agent の中に def http_post(url, body): を書く\n"
            "  2. host = urllib.parse.urlsplit(url).hostname が ALLOWED_HOSTS になければ PermissionError（文字列の前方一致は使わない）\n"
            '  3. あれば send(url, body) を呼んで "送信しました" を返す\n'
            '  4. return run_agent(client, user_input, [GET_TIME, HTTP_POST], {{"get_time": get_time, "http_post": http_post}}, approve)\n'
            "     （http_post は HIGH_IMPACT にあるので、弁4が実行の前に approve に尋ねる）",
            "Steps:\n"
            "  1. inside my_agent, write def http_post(url, body):\n"
            "  2. unless host = urllib.parse.urlsplit(url).hostname is in ALLOWED_HOSTS, raise PermissionError (no string prefix test)\n"
            '  3. otherwise call send(url, body) and return "sent"\n'
            '  4. return run_agent(client, user_input, [GET_TIME, HTTP_POST], {{"get_time": get_time, "http_post": http_post}}, approve)\n'
            "     (http_post is in HIGH_IMPACT, so valve 4 asks approve before it runs)",
        ),
    }
)
