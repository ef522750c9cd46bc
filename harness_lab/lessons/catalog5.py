"""The lesson-5 check's strings (notebook 04, run_tool_uses with the approval valve), ja and en."""

from __future__ import annotations

from ..text import add

add(
    {
        "lesson.l5.p1": (
            "高インパクトなツールは、実行する「前」に approve に尋ねる",
            "a high-impact tool is put to approve before it runs",
        ),
        "lesson.l5.p2": (
            "「いいえ」なら実行せず、実行していないと伝える is_error の結果を返す",
            "a no means it does not run, and an is_error result says so",
        ),
        "lesson.l5.p3": (
            "無害なツールは尋ねずに実行し、すべての呼び出しに順番どおり1つずつ結果を返す",
            "harmless tools run without asking; every call gets one result, in order",
        ),
        "lesson.l5.returned_none": (
            "何も返していません（返り値が None）。tool_result を results に集めて、最後に return results でリストを返します",
            "It returned nothing (None); collect the tool_results in results and end with return results",
        ),
        "lesson.l5.not_list": (
            "返り値がリストではなく {got} です。tool_result を results に集めて、最後に return results でリストを返します（yield では返りません）",
            "It returned a {got}, not a list; collect the tool_results in results and end with return results (yield does not return them)",
        ),
        "lesson.l5.returned_early": (
            "呼び出し {calls} 個に、結果 {results} 個で返りました。return results が for の中にありませんか（全部を処理してから返します）",
            "It returned {results:results} for {calls:calls}; is return results inside the for? Return after every call is handled",
        ),
        "lesson.l5.yes_refused": (
            "approve は yes（True）と答えたのに、write_file を実行せずに断りの結果を返しました。approve は True（yes）か False（no）を返します。True なら実行します",
            "approve answered yes (True), yet write_file was not run and came back refused; approve returns True (yes) or False (no): run the tool on True",
        ),
        "lesson.l5.not_results": (
            "返したリストに {got} が入っていました。結果は1つずつ tool_result の辞書（type・tool_use_id・content）にします",
            "The returned list holds a {got}; make each result a tool_result dict (type, tool_use_id, content)",
        ),
        "lesson.l5.approve_args": (
            "approve を {got} と呼びました。approve にはツールの名前（block.name）と入力の辞書（block.input）を、この順で渡します",
            "It called {got}; pass approve the tool's name (block.name) and its input dict (block.input), in that order",
        ),
        "lesson.l5.not_asked": (
            "{tool} を approve に尋ねずに実行しました。名前が HIGH_IMPACT にあるツールは、どれも実行の前に尋ねます",
            "{tool} ran without asking approve; every tool whose name is in HIGH_IMPACT is asked about before it runs",
        ),
        "lesson.l5.approve_call": (
            "approve をレッスンの形で呼べていません（{error}）。approve(block.name, block.input) のように、名前と入力の2つを渡します",
            "approve was not called the lesson's way ({error}); pass it two arguments, the name and the input: approve(block.name, block.input)",
        ),
        "lesson.l5.per_call": (
            "同じターンの write_file 3つのうち、許可した1つが実行されませんでした。尋ねるのも決めるのも、呼び出し1つごとです（1つの「いいえ」で全部を止めない）",
            "Of three write_file calls in one turn, the approved one did not run; ask and decide per call (one no does not stop the others)",
        ),
        "lesson.l5.answer_reused": (
            "同じターンの write_file 3つを approve にそれぞれ尋ね、2つ目には「はい」と答えたのに、それも実行されませんでした。"
            "その呼び出しへの答えではない答えで決めています（ツール名をキーにして覚えた1つ目の答えや、1つの「いいえ」をターン全体に）。呼び出しごとに、その呼び出しへの答えで決めます",
            "The three write_file calls of one turn were each put to approve, which said yes to the second, yet it did not run either: "
            "the call was decided by an answer other than its own (the first answer, kept by the tool's name, or one no taken for the whole turn). Decide each call by its own answer",
        ),
        "lesson.l5.call_failed": (
            "許可した write_file が、実行されずに is_error になりました（{got}）。ツールは impls[block.name](**block.input) のように、引数を名前つきで渡して呼びます",
            "The approved write_file did not run and came back as is_error ({got}); call the tool with named arguments: impls[block.name](**block.input)",
        ),
        "lesson.l5.denied_raised": (
            "「いいえ」のときに例外で止まりました（{error}）。断るのはハーネスのエラーではなく、モデルに伝える結果です。例外は投げずに is_error: True の tool_result を足して、次の呼び出しへ進みます",
            "A no stopped it with an exception ({error}); a refusal is not the harness failing but a result for the model: add an is_error: True tool_result instead of raising, and go on",
        ),
        "lesson.l5.changed_content": (
            "run_tool_uses が、渡された content（応答の内容ブロック）を書き換えました。content は会話履歴に入るものなので、読むだけにします",
            "run_tool_uses changed the content it was given (the response's blocks); it goes into the history, so only read it",
        ),
        "lesson.l5.tool_raised": (
            "ツールの例外が外まで飛び出しました（{error}）。impls[block.name](**block.input) の呼び出しごと try の中に入れ、例外（impls にない名前の KeyError も）は is_error の結果にします",
            "A tool's exception escaped ({error}); put the whole impls[block.name](**block.input) call inside try, and turn an exception (a KeyError for a name impls lacks, too) into an is_error result",
        ),
        "lesson.l5.kept_results": (
            "{calls} つの呼び出しに {results} 個の結果が返りました。前の呼び出しの結果が残っています。results = [] は関数の中（呼ばれるたび）に作ります",
            "{calls:calls} got {results:results}: results from the previous call of the function were kept. Create results = [] inside the function, on every call",
        ),
        "lesson.l5.reused_list": (
            "次に呼ばれたとき、前に返したリストの中身が書き換わりました。同じリストを clear() などで空にして使い回しています。前のリストは、前のターンの結果の user メッセージとして、もう会話履歴に入っています。呼ばれるたびに新しいリストを返します（results = [] を関数の中で作ります）",
            "When called again, it changed the list it had returned before: one list is emptied (clear() or the like) and reused. That list is already in the conversation history as the previous turn's results message; return a new list on every call (create results = [] inside the function)",
        ),
        "lesson.l5.failure_dropped": (
            "失敗したツール（例外を投げた read_file、impls にない search）に結果がありません。except で例外を受け止めたまま何も append しないと（except: pass など）、"
            "その tool_use は答えのないまま残り、次のリクエストを API が 400 で断ります。except の中でも、例外のメッセージを入れた is_error: True の結果を append します",
            "A failed tool (read_file raising, search missing from impls) got no result: an except that catches the exception and appends nothing (except: pass and the like) "
            "leaves that tool_use unanswered, and the API answers the next request with a 400. In the except too, append an is_error: True result holding the exception's message",
        ),
        "lesson.l5.failure_not_error": (
            "失敗したツール（例外を投げた read_file、impls にない search）の結果に is_error: True がないか、残りの get_time が実行されませんでした。失敗は1件ずつ is_error の結果にして、先へ進みます",
            "A failed tool (read_file raising, search missing from impls) lacks is_error: True, or get_time after them did not run; answer each failure with an is_error result and go on",
        ),
        "lesson.l5.ran_before_asking": (
            "write_file を実行してから尋ねています。レッスン6の同僚の配線と同じで、「いいえ」のときにはもう書き込まれています",
            "write_file ran before approve was asked: the colleague's wiring from lesson 6, where the file is already written when the answer is no",
        ),
        "lesson.l5.approved_not_run": (
            "許可されたのに write_file を実行しませんでした（または2回実行しました）",
            "write_file was approved but did not run exactly once (it did not run, or it ran twice)",
        ),
        "lesson.l5.ran_anyway": (
            "approve が「いいえ」（False）と答えたのに、write_file が実行されました。approve の答えは True か False です。"
            '"n" や "no" と比べたり str() で包んだりすると、False が「いいえ」になりません。if not approve(block.name, block.input): で、「はい」以外をすべて断ります',
            'approve said no (False), yet write_file ran. approve answers True or False: compared with "n" or "no", or wrapped in str(), '
            "a False never counts as a no. Use if not approve(block.name, block.input): anything but a yes is refused",
        ),
        "lesson.l5.yes_reused": (
            "write_file（{path}）を approve に尋ねないまま実行しました。前の write_file への「はい」を覚えておき、この呼び出しにも使っています。「はい」は尋ねた呼び出し1つへの答えです。呼び出しごとに尋ねます",
            "write_file ({path}) ran without approve being asked about it: the yes given to an earlier write_file was remembered and used again. A yes answers the one call it was asked about; ask about every call",
        ),
        "lesson.l5.answer_carried": (
            "{tool} を approve に尋ねないまま実行しました（{tool} だけのターンなら尋ねています）。同じターンで先に尋ねた {asked} への答えを覚えておき、{tool} にも使っています。"
            "答えは尋ねた呼び出し1つへのものです。HIGH_IMPACT のツールは、呼び出しごとに尋ねます",
            "{tool} ran without approve being asked about it (alone in a turn, it is asked about): the answer given "
            "to {asked} earlier in the turn was kept and used for {tool} too. An answer is for the one call it was "
            "asked about; ask about every call of a tool in HIGH_IMPACT",
        ),
        "lesson.l5.failed_open": (
            "approve が答えずに例外を出したのに、write_file が実行されました。承認が取れないときは「いいえ」として扱います（except で許可に倒さない）",
            "approve raised instead of answering, yet write_file ran; an approval that could not be had is a no (do not let the except allow it)",
        ),
        "lesson.l5.unknown_allowed": (
            "approve が {got} を返した（「はい」とも「いいえ」とも答えていない）のに、write_file が実行されました。"
            "is False や == False で「いいえ」だけを断ると、答えのない承認が許可になります。if not approve(...) で、「はい」以外はすべて断ります",
            "approve returned {got} (neither a yes nor a no), yet write_file ran; refusing only an explicit no (is False, == False) "
            "turns an approval with no answer into an allow. Use if not approve(...): anything but a yes is refused",
        ),
        "lesson.l5.denied_dropped": (
            "拒否した呼び出しに結果がありません。実行しなくても tool_result は返します（返さないと次のリクエストが 400）",
            "The denied call got no result; return a tool_result even when nothing ran (else the next request gets a 400)",
        ),
        "lesson.l5.denied_not_error": (
            "拒否の結果に is_error: True がありません",
            "The denial's result lacks is_error: True",
        ),
        "lesson.l5.asked_harmless": (
            "get_time や read_file まで尋ねています。尋ねるのは高インパクトなツールだけです",
            "It asked about get_time and read_file too; ask only for the high-impact ones",
        ),
        "lesson.l5.not_all_ran": (
            "許可された、または無害な呼び出しの一部が実行されませんでした",
            "Some allowed or harmless calls did not run",
        ),
        "lesson.l5.results_order": (
            "結果が、呼び出しの順に1つずつになっていません",
            "The results are not one per call, in call order",
        ),
    }
)
