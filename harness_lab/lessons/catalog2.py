"""The lesson-2 check's strings (notebook 01: run_tools and the stop_reason loop run_agent), ja and en."""

from __future__ import annotations

from ..text import add

add(
    {
        # lesson 2: the history mistakes, named by the 400 the API sends
        "lesson.l2.keep_content": (
            "会話履歴から tool_use ブロックが消えています。assistant には response.content をまるごと入れましょう（API の 400: {error}）",
            "The tool_use block is missing from the history; append the whole response.content as the assistant message (the API's 400: {error})",
        ),
        "lesson.l2.pass_tools": (
            "続きのリクエストに tools がありません。履歴に tool_use があるかぎり、毎回 tools を渡します（API の 400: {error}）",
            "The follow-up request has no tools; pass tools on every request while the history holds tool_use blocks (the API's 400: {error})",
        ),
        "lesson.l2.results_first": (
            "tool_use の直後の user メッセージの先頭に、その tool_use と同じ id の結果がありません。どの tool_use にも tool_use_id が block.id の結果を1つずつ返し、結果は text より前に置きます（API の 400: {error}）",
            "The user message right after the tool_use does not start with a result carrying its id; answer every tool_use with one result whose tool_use_id is block.id, results before any text (the API's 400: {error})",
        ),
        "lesson.l2.results_in_user": (
            'ツールの結果が、user ではなく role が "{role}" のメッセージに入っています。tool_result ブロックは、assistant（response.content）の直後に {{"role": "user", "content": results}} として足します（API の 400: {error}）',
            'The tool results went into a message whose role is "{role}", not user; tool_result blocks go right after the assistant message (response.content), as {{"role": "user", "content": results}} (the API\'s 400: {error})',
        ),
        "lesson.l2.results_overwritten": (
            "前のターンの結果の user メッセージが、あとのターンの結果に書き換わっています。毎ターン同じリストを履歴に入れ、空にして詰め直していませんか。結果は呼ばれるたびに新しいリストで返します（results = [] を関数の中で作ります）（API の 400: {error}）",
            "The results message of an earlier turn now holds a later turn's results: is one list put into the history every turn, then emptied and refilled? Return the results in a new list on every call (create results = [] inside the function) (the API's 400: {error})",
        ),
        "lesson.l2.result_extra_key": (
            "tool_result に、API の知らないキー {extra} が入っています。tool_result に書くのは type・tool_use_id・content・is_error です。失敗の詳しいこと（例外の種類など）は content の文字列に書きます（API の 400: {error}）",
            "A tool_result carries {extra}, a key the API does not take; a tool_result holds type, tool_use_id, content and is_error. Put any detail of a failure (the exception's type, say) into the content text (the API's 400: {error})",
        ),
        "lesson.l2.results_before_call": (
            "tool_result の user メッセージが、その tool_use のある assistant メッセージより前に入っています。assistant（response.content）→ user（結果）の順に足します（API の 400: {error}）",
            "The user message with the tool_results comes before the assistant message holding their tool_use; append the assistant (response.content), then the user (results) (the API's 400: {error})",
        ),
        "lesson.l2.empty_message": (
            "中身が空のメッセージを送りました。ツールを呼ばなかった応答（stop_reason が tool_use でない）のあとも、結果のない user メッセージを足して回り続けていませんか。続けるかどうかは stop_reason で決めます（API の 400: {error}）",
            "It sent a message with nothing in it: does the loop go on after a response that called no tool (stop_reason not tool_use), adding a user message with no results? Let stop_reason decide whether to go on (the API's 400: {error})",
        ),
        "lesson.l2.content_not_list": (
            "メッセージの content が、ブロックのリスト（または文字列）になっていません。assistant には response ではなく response.content を、user には tool_result のリストを入れます（API の 400: {error}）",
            "A message's content is not a list of blocks (or a string): the assistant gets response.content, not response, and the user gets the list of tool_results (the API's 400: {error})",
        ),
        "lesson.l2.tools_twice": (
            "tools に同じ名前のツールが2つあります。関数の外で作ったリストに append すると、呼ぶたびに増えていきます。"
            "リストは呼ぶたびに新しく作ります（API の 400: {error}）",
            "tools holds two tools of the same name; appending to a list made outside the function adds one on every call. "
            "Make a new list on each call (the API's 400: {error})",
        ),
        "lesson.l2.reassign": (
            "同じ応答をもう一度積んでいます。ループの末尾で response = client.messages.create(...) と再代入していますか（API の 400: {error}）",
            "The same response went into the history again; do you reassign response = client.messages.create(...) at the bottom of the loop? (the API's 400: {error})",
        ),
        "lesson.l2.run_tools.p1": (
            "すべての tool_use に、tool_result を1つずつ呼び出しの順に返す",
            "one tool_result per tool_use, in call order",
        ),
        "lesson.l2.run_tools.p2": (
            "ツールの出力を文字列で返す（辞書は JSON に、日本語はそのまま）",
            "the output as text (a dict as JSON, non-ASCII text such as Japanese or ☀ kept as it is)",
        ),
        "lesson.l2.run_tools.p3": (
            "ツールが例外を投げても、impls にない名前でも、落ちずに is_error: true の結果で伝える",
            "a tool that raises, or a name missing from impls, becomes an is_error: true result, not a crash",
        ),
        "lesson.l2.run_tools.p4": (
            "返した結果を、API が次のリクエストで受け付ける",
            "the API accepts the results in the next request",
        ),
        "lesson.l2.run_tools.not_list": ("返り値がリストではなく {got} です", "It returned a {got}, not a list"),
        "lesson.l2.run_tools.returned_none": (
            "何も返していません（返り値が None）。最後に return results でリストを返します（print では返りません）",
            "It returned nothing (None); end with return results (print does not return it)",
        ),
        "lesson.l2.run_tools.message": (
            'user メッセージ（{{"role": "user", ...}}）を返しています。run_tools が返すのは tool_result のリストだけで、メッセージに包むのは run_agent の役目です',
            'It returned a user message ({{"role": "user", ...}}); run_tools returns the list of tool_results only, and run_agent wraps it in the message',
        ),
        "lesson.l2.run_tools.count": (
            "tool_use が {uses} 個なのに、結果が {results} 個です。text ブロックや思考ブロックは飛ばし、tool_use だけに答えます",
            "tool_use blocks: {uses}, but results: {results}; skip the text and thinking blocks and answer each tool_use",
        ),
        "lesson.l2.run_tools.too_few": (
            "tool_use が {uses} 個なのに、結果が {results} 個です。content[1] のように1つだけ取り出さず、for で全部の tool_use に答えてから（return はループの外で）返します",
            "tool_use blocks: {uses}, but results: {results}; do not take one block (content[1]): answer every tool_use in a for loop and return after it, outside the loop",
        ),
        "lesson.l2.run_tools.by_name": (
            "tool_use が {uses} 個なのに、結果が {results} 個で、残ったのは最後の呼び出しの結果だけです。後の結果が前の結果を上書きしています: ツール名をキーにした辞書に入れる（同じツールの2回目が1回目を消す）か、ループの中で results = [...] と作り直していませんか。結果はループの外で作った1つのリストに、tool_use 1つにつき1つ append します",
            "tool_use blocks: {uses}, but results: {results}, and only the last call's is left: each result overwrote the one before. Are the results kept in a dict keyed by tool name (the second call of a tool replaces the first), or is results = [...] made anew inside the loop? Append one result per tool_use to one list made before the loop",
        ),
        "lesson.l2.run_tools.one_dict": (
            "返したリストの中で、同じ辞書が何度も出てきます。結果の辞書をループの外で1つだけ作り、中身を書き換えては append しています（すべての結果が最後の呼び出しの中身になります）。結果の辞書は、tool_use ごとにループの中で新しく作ります",
            "The list it returned holds the same dict more than once: one result dict made outside the loop, refilled and appended for every call (every result ends up as the last call's). Make a new result dict for each tool_use, inside the loop",
        ),
        "lesson.l2.run_tools.text_in_results": (
            "返したリストに text ブロックが混ざっています。run_tools が返すのは tool_result だけです（text を結果より前に置くと、API が 400 を返します）",
            "The list it returned holds a text block; run_tools returns tool_results only (text before the results gets a 400 from the API)",
        ),
        "lesson.l2.run_tools.kept_results": (
            "次のターンに1つだけ呼ばれたのに、結果が {results} 個返りました。前の呼び出しの結果が残っています。results = [] は関数の中（呼ばれるたび）に作ります",
            "The next turn had one call, yet {results:results} came back: results from the previous call of run_tools were kept. Create results = [] inside the function, on every call",
        ),
        "lesson.l2.run_tools.reused_list": (
            "2回目に呼ばれたとき、1回目に返したリストの中身が書き換わりました。同じリストを clear() などで空にして使い回しています。1回目のリストは、前のターンの結果の user メッセージとして、もう会話履歴に入っています。run_tools は呼ばれるたびに新しいリストを返します（results = [] を関数の中で作ります）",
            "When called a second time, it changed the list it had returned the first time: one list is emptied (clear() or the like) and reused. The first list is already in the conversation history as the previous turn's results message; run_tools returns a new list on every call (create results = [] inside the function)",
        ),
        "lesson.l2.run_tools.call_failed": (
            "失敗しないはずの呼び出しが is_error になりました（{got}）。ツールは impls[block.name](**block.input) のように、引数を名前つきで渡して呼びます",
            "A call that works came back as is_error ({got}); call the tool with named arguments: impls[block.name](**block.input)",
        ),
        "lesson.l2.run_tools.own_code_failed": (
            "ツールは正しく呼ばれて出力を返したのに、結果が is_error になりました（{got}）。ツールのあとのあなたのコードで例外が起き、try がそれをツールの失敗として伝えています。その例外の行を直します",
            "The tool was called as it should be and returned its output, yet the result came back as is_error ({got}): your own code after the tool raised, and the try reported that as the tool's failure. Fix the line that raised",
        ),
        "lesson.l2.run_tools.by_position": (
            "入力のキーが引数と違う順番（unit, city）で来た呼び出しが、正しく実行されませんでした（{got}）。"
            "モデルがキーを書く順番は、関数の引数の順番と同じとは限りません。*block.input.values() ではなく、impls[block.name](**block.input) と名前で渡します",
            "A call whose input keys came in another order than the parameters (unit, city) did not run right ({got}); "
            "the model writes the keys in its own order. Pass them by name, impls[block.name](**block.input), not *block.input.values()",
        ),
        "lesson.l2.calls_unanswered": (
            "履歴が tool_use のある assistant メッセージで終わっていて、そのあとに tool_result の user メッセージがありません（API の 400: {error}）。呼び出しに答えないまま送り直しています。"
            'stop_reason が "tool_use" のとき（"tool_calls" のようなほかの API の言葉ではなく）ツールを実行し、その結果を user メッセージで足してから送ります',
            "The history ends with the assistant message holding tool_use, with no user message of tool_result after it (the API's 400: {error}): the calls went back unanswered. "
            'Run the tools when stop_reason is "tool_use" (not another API\'s word such as "tool_calls"), and add their results as a user message before sending',
        ),
        "lesson.l2.run_tools.changed_content": (
            "run_tools が、渡された content（応答の内容ブロック）を書き換えました。content はこのあと会話履歴にそのまま入るので、読むだけにします（リストから消す・並べ替える・block.input を書き換える、はしない）",
            "run_tools changed the content it was given (the response's blocks); that content goes into the history as it is, so only read it (no removing, reordering, or editing block.input)",
        ),
        "lesson.l2.run_tools.type": ('結果の "type" は "tool_result" にします', 'A result\'s "type" is "tool_result"'),
        "lesson.l2.run_tools.ids": (
            "tool_use_id が、答える tool_use の id（block.id）になっていません",
            "tool_use_id is not the id of the tool_use it answers (block.id)",
        ),
        "lesson.l2.run_tools.order": ("結果の順番が、呼び出しの順番と違います", "The results are not in call order"),
        "lesson.l2.run_tools.not_text": (
            "content が {got} のままです。辞書は json.dumps(..., ensure_ascii=False) で文字列にします",
            "content is a {got}; turn a dict into text with json.dumps(..., ensure_ascii=False)",
        ),
        "lesson.l2.run_tools.not_text_blocks": (
            'content が、text ブロックでない要素を含む list です。API は list の要素を1つずつブロック（{{"type": "text", "text": ...}}）として読みます。'
            "出力は文字列にして（辞書は json.dumps(..., ensure_ascii=False) で）、そのまま content に入れましょう",
            "content is a list with items that are not text blocks; the API reads each item of a list as a block "
            '({{"type": "text", "text": ...}}). Make the output a string (a dict with json.dumps(..., '
            "ensure_ascii=False)) and put that string in content.",
        ),
        "lesson.l2.run_tools.not_json": (
            "辞書の出力が JSON になっていません（{got}）。str() ではなく json.dumps(..., ensure_ascii=False) で文字列にします",
            "The dict did not become JSON ({got}); turn it into text with json.dumps(..., ensure_ascii=False), not str()",
        ),
        "lesson.l2.run_tools.wrong_output": (
            "結果の中身が、ツールの返した値と違います",
            "The result does not hold what the tool returned",
        ),
        "lesson.l2.run_tools.ascii": (
            "日本語が \\uXXXX になっています。json.dumps に ensure_ascii=False を付けましょう",
            "non-ASCII text (Japanese, ☀) became \\uXXXX; pass ensure_ascii=False to json.dumps",
        ),
        "lesson.l2.run_tools.raised": (
            "ツールの例外が外まで飛び出しました。try / except で受け止めて、is_error の結果にします",
            "The tool's exception escaped; catch it with try / except and return an is_error result",
        ),
        "lesson.l2.run_tools.other_blocks": (
            'tool_use ではないブロックを呼び出しとして扱いました（{error}）。暗号化された思考 redacted_thinking のように、まだ見ていない種類もあります。block.type が "tool_use" のものだけを実行します',
            'It took a block that is not a tool_use for a call ({error}); there are kinds not shown yet, like the encrypted redacted_thinking. Run only blocks whose type is "tool_use"',
        ),
        "lesson.l2.run_tools.list_output": (
            "ツールがリストを返したとき、content が JSON の文字列になっていません（{got}）。辞書だけでなくリストも json.dumps(..., ensure_ascii=False) で文字列にします",
            "When a tool returns a list, the content is not JSON text ({got}); json.dumps(..., ensure_ascii=False) lists as well as dicts",
        ),
        "lesson.l2.run_tools.repr_output": (
            "ツールの辞書に True や None があると、content が JSON の文字列になりませんでした（{got}）。str() の引用符を置き換えても JSON にはなりません（true・null と書くのが JSON）。json.dumps(..., ensure_ascii=False) で文字列にします",
            "When the tool's dict holds True or None, the content is not JSON text ({got}); str() with its quotes replaced is no JSON (JSON writes true and null). json.dumps(..., ensure_ascii=False) it",
        ),
        "lesson.l2.run_tools.unknown_name": (
            "impls にないツール名で KeyError が外まで飛び出したか、is_error の結果になりませんでした。impls[block.name] の引き当ても try の中に入れます",
            "A tool name missing from impls raised KeyError out of run_tools, or did not become an is_error result; do the impls[block.name] lookup inside the try too",
        ),
        "lesson.l2.run_tools.output_flagged": (
            "うまくいった呼び出しの結果（ツールの出力そのもの）に is_error: True が付いています。"
            "is_error はツールが失敗したときだけ付けます。付いていると、モデルは出力を失敗として読み、同じ呼び出しをやり直したり別の道を探したりします",
            "The result of a call that worked (the tool's own output) carries is_error: True. Set is_error only when the "
            "tool failed: with it, the model reads the output as a failure and retries the call or looks for another way",
        ),
        "lesson.l2.run_tools.not_error": (
            "失敗した呼び出しの結果に is_error: True がありません",
            "The failed call's result lacks is_error: True",
        ),
        "lesson.l2.run_tools.no_message": (
            "失敗の結果に、例外のメッセージ（何が起きたか）が入っていません。モデルはそれを読んで次の手を決めます",
            "The failure's result does not say what happened (the exception's message); the model reads it to decide what next",
        ),
        "lesson.l2.run_tools.failure_dropped": (
            "例外を投げた呼び出しに、結果がありません。except で例外を受け止めたまま何も append しないと（except: pass など）、その tool_use は答えのないまま残り、次のリクエストを API が 400 で断ります。"
            "except の中でも、例外のメッセージを入れた is_error: True の結果を append します",
            "The call that raised got no result: an except that catches the exception and appends nothing (except: pass and the like) leaves that tool_use unanswered, and the API answers the next request with a 400. "
            "In the except too, append an is_error: True result holding the exception's message",
        ),
        "lesson.l2.run_tools.stopped_early": (
            "1つ目の失敗で、残りの呼び出しを実行しませんでした。失敗は1件ずつ結果にして、先へ進みます",
            "After the first failure the other calls did not run; answer each failure and go on",
        ),
        "lesson.l2.run_agent.p1": (
            "ツールを使わない答えや、max_tokens で切れた応答なら、その text をそのまま返す",
            "an answer without tools, or a reply cut off at max_tokens, comes back as its text",
        ),
        "lesson.l2.run_agent.p2": (
            "2ターンかかる仕事を、API に 400 で断られずに最後まで運び、最後の text を返す",
            "a two-turn task runs to its end without a 400 and returns the final text",
        ),
        "lesson.l2.run_agent.p3": (
            "1ターンに複数の呼び出しがあっても、結果を1つの user メッセージにまとめる",
            "several calls in one turn: all results in one user message",
        ),
        "lesson.l2.run_agent.went_on": (
            'stop_reason が "max_tokens"（上限で切れた答え）なのに、ループを続けました。続けるのは stop_reason が '
            '"tool_use" のときだけです。止まる理由は end_turn のほかにもあります（次のレッスン3で扱います）',
            'It went on after a reply whose stop_reason was "max_tokens" (an answer cut off at the limit). Go on only '
            'while stop_reason is "tool_use": end_turn is not the only reason to stop (lesson 3, next, covers the others)',
        ),
        "lesson.l2.run_agent.joined_with": (
            "最後の応答の text ブロックを、あいだに {sep} を入れてつなぎました。1つの応答の text ブロックは、ひと続きの文章の切れ目にすぎません"
            "（引用などで、文の途中から次のブロックに分かれます）。何も入れずにつなぎます: hl.text_of(response.content)",
            "It joined the last reply's text blocks with {sep} between them; the text blocks of one reply are cuts in one text "
            "(a citation, say, cuts it mid-sentence). Join them with nothing in between: hl.text_of(response.content)",
        ),
        "lesson.l2.run_agent.cut_call_ran": (
            'stop_reason が "max_tokens"（上限で切れた応答）なのに、その中の tool_use を実行して、ループを続けました。'
            "切れた呼び出しは、入力が途中までかもしれません。続けるかどうかは、content に tool_use があるかではなく、"
            'stop_reason が "tool_use" かどうかで決めます',
            'It ran the tool_use of a reply whose stop_reason was "max_tokens" (cut off at the limit), and went on; '
            "a call cut off may hold half its input. Whether to go on is for stop_reason to say (go on only when it is "
            '"tool_use"), not for a tool_use block in the content',
        ),
        "lesson.l2.run_agent.tools_not_run": (
            "ツールの結果が、ツールを実行した答えではありません（{got}）。run_tools には、ツールの定義 tools ではなく、関数の辞書 impls を渡します",
            "The tool results are not what the tools returned ({got}); give run_tools impls, the dict of functions, not tools, the definitions",
        ),
        "lesson.l2.run_agent.not_text": (
            "返り値が最後の text ではありません（{got}）",
            "It did not return the final text ({got})",
        ),
        "lesson.l2.run_agent.returned_none": (
            "何も返していません（返り値が None）。ループを抜けたら return hl.text_of(response.content) で最後の text を返します（print では返りません）",
            "It returned nothing (None); after the loop, return hl.text_of(response.content) (print does not return it)",
        ),
        "lesson.l2.run_agent.returned_response": (
            "応答そのもの（Message）を返しています。返すのはその text です: return hl.text_of(response.content)",
            "It returned the whole response (a Message); return its text: return hl.text_of(response.content)",
        ),
        "lesson.l2.run_agent.requests": (
            'モデルへのリクエストが {count} 回でした（この仕事なら {want} 回）。stop_reason が "tool_use" のあいだ回っていますか（本文の言葉や text ブロックの有無では決めません）',
            'Model requests sent: {count} (this task takes {want}); does the loop go on while stop_reason is "tool_use" (not by words in the text or whether a text block exists)?',
        ),
        "lesson.l2.run_agent.stale_history": (
            "2回目に呼んだとき、最初のリクエストにメッセージが {count} 個ありました。前の会話が残っています。messages = [...] は run_agent の中（呼ばれるたび）に作ります",
            "Called a second time, its first request held {count:messages}: the previous conversation was kept. Create messages = [...] inside run_agent, on every call",
        ),
        "lesson.l2.run_agent.not_whole": (
            "assistant として送り返した内容が、応答の content と違います（ブロックが抜けた・順番や中身が変わった）。response.content をまるごと入れます。思考ブロックを1つでも抜くと、API は 400 を返します",
            "What went back as the assistant message differs from the response's content (a block dropped, reordered or changed); append response.content whole. Dropping even one thinking block gets a 400 from the API",
        ),
        "lesson.l2.run_agent.newest_first": (
            "応答と結果を messages の先頭に入れています（新しい順）。API は受け付けますが、会話は古い順に読まれるので、モデルは依頼より先に自分の最後の呼び出しを読みます。messages.append(...) で末尾に足します",
            "The responses and results go in at the top of messages (newest first). The API takes it, but a conversation is read oldest first, so the model reads its last call before the task. Add each with messages.append(...), at the end",
        ),
        "lesson.l2.run_agent.stalled": (
            "確認の制限時間（{seconds} 秒）を過ぎても終わらなかったので、確認を打ち切りました。ループの中で client.messages.create(...) を送り直し、response に再代入していますか。同じ応答を見ている限り、stop_reason は変わりません",
            "It ran past the check's time limit ({seconds} s), so the check stopped it. Does the loop send client.messages.create(...) again and reassign response? While it looks at the same response, stop_reason never changes",
        ),
        "lesson.l2.run_agent.split_results": (
            "1ターン分の結果が、1つの user メッセージにまとまっていません",
            "One turn's results are not in a single user message",
        ),
    }
)
