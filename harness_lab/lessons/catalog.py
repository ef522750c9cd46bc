"""The lesson checks' strings (ja, en): verdicts, hints that name the cause, predictions, the workbook; lesson 2's pieces are in catalog2.py, 5's in catalog5.py, 6's and 7's beside it."""

from __future__ import annotations

from ..text import add

add(
    {
        # the workbook file's own header
        "lesson.workbook.title": (
            "あなたのハーネス — ノートブックで書いて、確認を通った関数です",
            "Your harness: the functions you wrote in the notebooks and that passed their checks",
        ),
        "lesson.workbook.body": (
            "確認のセル（lessons.check）が通るたびに、ここへ書き足します。読んで、自由に書き換えてかまいません。\n"
            '次のノートブックは lessons.use("名前") で、ここから読み込みます。',
            "Each check cell (lessons.check) that passes adds its function here. Read it and edit it freely.\n"
            'The next notebooks load from here with lessons.use("name").',
        ),
        "lesson.workbook.footer": (
            "まだ書いていない（確認を通っていない）部品は、参考実装で補います。上の関数がそれを呼んでも動くようにするためです",
            "Pieces not written yet (or not passed yet) come from the references, so the functions above can call them",
        ),
        # verdicts
        "lesson.check.met": ("○ できています: {title}", "[PASS] {title}"),
        "lesson.check.missed": ("× まだです: {title} — ヒント: {hint}", "[FAIL] {title}: hint: {hint}"),
        "lesson.check.unwritten": (
            "△ {name} はまだ書かれていません（NotImplementedError のまま）。参考実装で先へ進みます（中身は {show} で読めます）。書けたら、このセルをもう一度実行してください",
            "[NOTE] {name} is not written yet (it still raises NotImplementedError). The lesson goes on with the reference (read it with {show}); run this cell again once you have written it.",
        ),
        "lesson.check.reference_again": (
            "△ いまの {name} は、このチェックが渡した参考実装で、あなたのコードではありません（あなたの {name} が未完成か、満たしていない点があるあいだは、"
            "参考実装を渡します）。{name} を書いたセルで直してそのセルを実行し、それからこのセルをもう一度実行してください。それまでは参考実装で先へ進みます（中身は {show} で読めます）",
            "[NOTE] {name} now holds the reference this check handed back (it does while your {name} is unwritten or misses a point), "
            "not code of yours. Write or fix {name} in its cell and run that cell, then run this cell again. Until then the lesson "
            "goes on with the reference (read it with {show}).",
        ),
        "lesson.check.interrupted": (
            "{name} のチェックを中断しました（カーネルの中断）。判定は出ていないので、{name} はあなたが書いたまま、まだチェックされていません。このセルをもう一度実行すると、はじめからチェックします",
            "The check of {name} was interrupted (the kernel was interrupted), so there is no verdict: {name} is still the one you wrote, unchecked. Run this cell again to check it from the start.",
        ),
        "lesson.check.cell_failed": (
            "△ {name} を定義するセルが {error} で止まったので、{name} は前の定義のままです。このチェックが見るのも、あなたが書いたコードではなく"
            "その前の定義です。エラーを直してそのセルを実行し直し、それからこのセルをもう一度実行してください。それまでは参考実装で先へ進みます（中身は {show} で読めます）",
            "[NOTE] The cell that defines {name} raised {error}, so {name} still holds its earlier definition, and that, not the code you "
            "wrote, is what this check would look at. Fix the error, run that cell again, then run this cell again. Until then the lesson "
            "goes on with the reference (read it with {show}).",
        ),
        "lesson.check.saved": (
            "◎ 全部できました。この先のセルは、あなたの {name} を使います（{path} に保存しました）",
            "[ALL PASS] The following cells use your {name} (saved to {path}).",
        ),
        "lesson.check.not_saved": (
            "◎ 全部できました。ただ {name} のソースを読めなかったので、ファイルには保存していません（関数は def で書いてください）",
            "[ALL PASS] But the source of {name} could not be read, so it was not saved to the file (define it with def).",
        ),
        "lesson.check.not_saved_name": (
            "◎ 全部できました。ただ {name} が使う {used} を my_harness.py に書けないので、保存していません（{why}）。この先のセルは、あなたの {name} を使います",
            "[ALL PASS] But {used}, which {name} uses, cannot be written into my_harness.py, so it was not saved ({why}). The following cells use your {name}.",
        ),
        "lesson.check.not_saved_file": (
            "◎ 全部できました。ただ {error}。ファイルは書き換えずに残したので、直してから、このセルをもう一度実行してください",
            "[ALL PASS] But {error}. The file was left as it is: fix it, then run this cell again.",
        ),
        "lesson.check.not_saved_later": (
            "◎ 全部できました。ただ {path} の {name} は後のレッスン{lesson}で書いたものなので、上書きしていません",
            "[ALL PASS] But the {name} in {path} was written in a later lesson ({lesson}), so it was not overwritten.",
        ),
        "lesson.check.not_saved_broken": (
            "◎ 全部できました。ただ {name} を保存すると my_harness.py が読み込めなくなるので（{error}）、保存していません",
            "[ALL PASS] But saving {name} would leave my_harness.py unloadable ({error}), so it was not saved.",
        ),
        "lesson.check.go_on_with_reference": (
            "この先のセルは参考実装の {name} で進みます（中身は {show} で読めます）。直したら、このセルをもう一度実行してください",
            "The following cells go on with the reference {name} (read it with {show}); fix yours and run this cell again.",
        ),
        "lesson.use.mine": ("あなたの {name} を使います（{path} から）", "Using your {name} (from {path})"),
        "lesson.use.reference": (
            "{path} に {name} がまだないので、参考実装を使います（中身は {show} で読めます）",
            "{path} has no {name} yet, so the reference is used (read it with {show})",
        ),
        "lesson.use.broken": (
            "{path} を読み込めませんでした（{error}）。直すまで参考実装を使います（中身は {show} で読めます）",
            "{path} could not be loaded ({error}); the references are used until you fix it (read them with {show})",
        ),
        "lesson.use.unreadable": (
            "{error}。直すまで参考実装を使います（中身は {show} で読めます）",
            "{error}; the references are used until you fix it (read them with {show})",
        ),
        "lesson.use.earlier": (
            "{path} の {name} はレッスン{lesson}のものなので、ここでは参考実装を使います（中身は {show} で読めます）",
            "The {name} in {path} is from lesson {lesson}, so the reference is used here (read it with {show})",
        ),
        "lesson.unknown_piece": (
            "{name} という確認はありません（あるのは {known}）",
            "There is no check called {name} (known: {known})",
        ),
        # predictions
        "lesson.predict.right": ("○ {what}: 予想どおり {actual}", "[RIGHT] {what}: {actual}, as you predicted"),
        "lesson.predict.wrong": (
            "× {what}: 予想 {guess} → 実際は {actual}。予想とどこで食い違ったか、上のコードと出力でたどってみましょう",
            "[WRONG] {what}: you said {guess}, it was {actual}. Trace the code and outputs above to find where they part from your reasoning",
        ),
        "lesson.predict.blank": (
            "△ {what}: 予想が空欄なので、答えはまだ伏せます",
            "[NOTE] {what}: no prediction, so the answer stays hidden",
        ),
        "lesson.predict.no_row": (
            "△ MY_GUESS に「{row}」の行がありません（いまある行: {rows}）。行は消さずに残し、その行に予想を書いてから、このセルをもう一度実行してください。それまで、この行の答えは伏せておきます",
            "[NOTE] MY_GUESS has no row \"{row}\" (its rows now: {rows}). Keep every row, write this row's guesses into it, then run this cell again; until then this row's answer stays hidden.",
        ),
        "lesson.predict.joiner": ("・", ", "),  # between the names of the numbers still to predict
        "lesson.predict.all_blank": (
            "△ 予想（{whats}）がまだ空欄なので、答えは伏せておきます。MY_GUESS に予想を書いてから、このセルをもう一度実行してください",
            "[NOTE] No prediction yet ({whats}), so the answer stays hidden. Write your guesses into MY_GUESS, then run this cell again.",
        ),
        # hints shared by every piece
        "lesson.todo": ("まだ NotImplementedError のままです", "It still raises NotImplementedError"),
        "lesson.not_callable": (
            "関数ではなく {got} です。def で関数を書いてください",
            "That is a {got}, not a function; write it with def",
        ),
        "lesson.async_def": (
            "{name} が async def で書かれています。async def の関数は、呼んでも本体が走らず、coroutine（yield があれば async_generator）を返すだけです。"
            "レッスンのループは await しません（client.messages.create もそのまま呼んで応答が返ります）。async を外して def で書きます",
            "{name} is written with async def: calling it runs none of its body and only hands back a coroutine (an async_generator, with a yield). "
            "The lesson's loop does not await it (client.messages.create, called as it is, returns the response). Drop the async and write it with def",
        ),
        "lesson.raised": ("例外で止まりました: {error}", "It raised: {error}"),
        "lesson.empty_content": (
            "応答の content が空でした（{error}）。出力の前に断った refusal は content が [] で届きます。"
            "content[0] のように位置でブロックを取らず、あるブロックだけを順に見ます",
            "The response's content was empty ({error}): a refusal made before any output arrives with content == []; "
            "do not take a block by its position (content[0]), go through the blocks there are",
        ),
        "lesson.same_cause": ("上と同じ原因です", "The same cause as above"),
        "lesson.rule.is_error_text": (
            'is_error が真偽値ではなく文字列 {got} です。API は文字列の is_error を（"true" でも "false" でも）400 で断り、文字列は True ではないので失敗としても数えられません。'
            '引用符なしで、失敗には "is_error": True と書きます（うまくいった結果には書かないか False）',
            'is_error is the string {got}, not a boolean. The API answers a string is_error ("true" or "false" alike) with a 400, and a string is not True, '
            'so a failure does not count as one. Write "is_error": True for a failure, without quotes (leave it out, or False, on a result that worked)',
        ),
        "lesson.rule.result_as_message": (
            "tool_result ブロックが、メッセージとして messages に直接入っています（messages.extend(results) など）。API はそれを role のない"
            'メッセージとして 400 で断ります。結果のリストは {{"role": "user", "content": results}} という1つのユーザーメッセージに入れて append します（API の 400: {error}）',
            "A tool_result block went into messages as a message of its own (messages.extend(results), say), and the API refuses it with a 400 "
            'as a message without a role. Put the list of results in one user message, {{"role": "user", "content": results}}, and append that '
            "(the API's 400: {error})",
        ),
        "lesson.rule.role_missing": (
            'messages に role のないメッセージがあり、API が 400 で断りました。どのメッセージにも role が要ります。アシスタントの応答は {{"role": "assistant", '
            '"content": response.content}} として append します（API の 400: {error}）',
            "A message in messages has no role, and the API refused it with a 400: every message needs one. Append the assistant's response "
            'as {{"role": "assistant", "content": response.content}} (the API\'s 400: {error})',
        ),
        "lesson.rule.is_error_type": (
            "is_error が真偽値ではなく {got} です。API は True / False のほかの is_error を 400 で断ります。"
            "失敗には True を書き、うまくいった結果には False を書くか、is_error を書かずにおきます（API の 400: {error}）",
            "is_error is {got}, not a boolean; the API answers any is_error other than True or False with a 400. "
            "Write True for a failure, and False, or no is_error at all, on a result that worked (the API's 400: {error})",
        ),
        "lesson.rule.error_without_content": (
            "失敗の結果（is_error: True）に content がないか、空です。API は中身のない失敗の結果を 400 で断り、モデルも何が起きたかを読めません。"
            "例外のメッセージ（断ったのなら、その理由）を文字列で content に入れます",
            "A failure's result (is_error: True) has no content, or an empty one: the API answers a failure with nothing in it with a 400, "
            "and the model could not read what happened either. Put the exception's message (or, for a denial, why) in content as a string",
        ),
        "lesson.rule.interrupt_caught": (
            "ツールの実行中に押された Ctrl-C（KeyboardInterrupt）まで失敗の結果になり、ループが止まりません。except BaseException や素の except: は、"
            "人がループを中断するための割り込みも捕まえます。ツールの失敗は except Exception で捕まえます",
            "Ctrl-C pressed while a tool ran (KeyboardInterrupt) became a failed result, so the loop would not stop: except BaseException, "
            "or a bare except:, also catches the interrupt a person uses to stop the loop. Catch a tool's failures with except Exception",
        ),
        "lesson.rule.text_block": (
            'text ブロックや思考ブロックには id も name も input もありません。block.type が "tool_use" のブロックだけを使います。出た例外は {error}',
            'A text or thinking block has no id, name or input; use only the blocks whose block.type is "tool_use". The exception: {error}',
        ),
        "lesson.rule.first_not_text": (
            "応答の先頭が text ブロックとは限りません（思考ブロックが先に来ることもあります）。hl.text_of(response.content) で text ブロックだけをつなぎます。出た例外は {error}",
            "The first block of a response need not be text (a thinking block may come first); join the text blocks with hl.text_of(response.content). The exception: {error}",
        ),
        "lesson.rule.message_attributes": (
            '応答は辞書ではなく SDK のオブジェクトです。response["stop_reason"] ではなく response.stop_reason のように読みます。出た例外は {error}',
            'A response is an SDK object, not a dict: read response.stop_reason, not response["stop_reason"]. The exception: {error}',
        ),
        "lesson.rule.sdk_fields": (
            "response.usage も response.stop_details も、辞書ではなく SDK のオブジェクトです。"
            'usage["input_tokens"] ではなく usage.input_tokens、stop_details["category"] ではなく stop_details.category のように読みます。出た例外は {error}',
            "response.usage and response.stop_details are SDK objects, not dicts: read usage.input_tokens, not "
            'usage["input_tokens"], and stop_details.category, not stop_details["category"]. The exception: {error}',
        ),
        "lesson.rule.usage": (
            "response.usage にあるのは input_tokens、cache_creation_input_tokens、cache_read_input_tokens、output_tokens です。応答ごとにそのすべてを足します（キャッシュのフィールドが None なら 0 として）。出た例外は {error}",
            "response.usage holds input_tokens, cache_creation_input_tokens, cache_read_input_tokens and output_tokens; add them all after each response (a None cache field as 0). The exception: {error}",
        ),
        "lesson.rule.content_given": (
            "渡されるのは応答そのものではなく、応答の content（内容ブロックのリスト）です。for block in content: でそのまま回します。出た例外は {error}",
            "What is passed in is the response's content (the list of blocks), not the response: loop over it with for block in content:. The exception: {error}",
        ),
        "lesson.tool_runner": (
            'client.beta.messages.tool_runner でループを回しています。これは SDK のループで、このレッスンで自分で書くループの代わりにはなりません（渡した tools は定義だけで、実行する関数がないため、どの呼び出しにも "Error: Tool \'...\' not found" が返ります）。client.messages.create を呼び、stop_reason が "tool_use" のあいだ impls でツールを実行して結果を返すループを、自分で書きます',
            'It loops with client.beta.messages.tool_runner: the SDK\'s own loop, which does not stand in for the loop this lesson has you write (the tools given to it are definitions only, with no function to run, so every call gets "Error: Tool \'...\' not found"). Write the loop yourself: call client.messages.create and, while stop_reason is "tool_use", run the tools through impls and send their results back',
        ),
        "lesson.rule.generator": (
            '返り値が generator です。本体に yield があったり、(... for ...) の generator 式を返したりすると、値はまだできていません。yield はやめ、generator 式は list(...) や "".join(...) で値にして、できあがった値（結果のリスト、署名の文字列、停止メッセージ、最後の text）を return します',
            'It returned a generator: with a yield in the body, or a generator expression (... for ...) returned, no value has been made yet. Drop the yield, turn a generator expression into a value with list(...) or "".join(...), and return the finished value (the list of results, the signature\'s string, the stop message, the final text)',
        ),
        "lesson.rule.keyboard": (
            "input() でキーボードからの入力を待ちました（{error}）。ハーネスは、人が打ち込むのを待たずに回ります。実行してよいかを人に尋ねるのは、渡された approve(name, input) を呼ぶときだけです（レッスン2のループは何も尋ねません）。input() を消します",
            "It waited for keyboard input with input() ({error}). A harness runs without waiting for anyone to type: the one way it asks a person whether a call may run is the approve(name, input) it is given (lesson 2's loop asks nothing). Remove the input() call",
        ),
        "lesson.rule.response_given": (
            "内容ブロックのリストの代わりに、応答そのものを回しています。渡すのは response ではなく response.content です。出た例外は {error}",
            "It loops over the response itself instead of its list of blocks: pass response.content, not response. The exception: {error}",
        ),
        "lesson.arguments": (
            "レッスンは {shape} の形で呼びますが、引数が合いませんでした（{error}）。def の行を TODO のセルのとおりにします",
            "The lesson calls it as {shape}, and its parameters do not fit ({error}); keep the def line as the TODO cell has it",
        ),
        "lesson.rule.other_api": (
            "別の SDK（OpenAI の関数呼び出し）の形で読んでいます。Messages API の応答には choices も finish_reason もありません。"
            '止まった理由は response.stop_reason（"tool_use" など）、中身は response.content のブロックで、tool_use ブロックは block.name と block.input（辞書）を持ちます。出た例外は {error}',
            "It reads another SDK's shape (OpenAI function calling): a Messages API response has no choices and no finish_reason. Why it "
            'stopped is response.stop_reason ("tool_use" and so on), what it says is the blocks of response.content, and a tool_use block has '
            "block.name and block.input (a dict). The exception: {error}",
        ),
        "lesson.rule.is_error_spelled": (
            "失敗の結果に、is_error ではなく {got} と書いています。isError は MCP のツール結果の綴りで、Messages API のキーは Python でも TypeScript でも is_error です。"
            'ほかの綴りは失敗の印にならず、API も知らないキーとして 400 で断ります。"is_error": True と書きます',
            "A failure's result says {got}, not is_error. isError is MCP's spelling for tool results; the Messages API's key is is_error, in Python and TypeScript alike: another spelling "
            'flags nothing, and the API refuses it with a 400 as a key it does not know. Write "is_error": True',
        ),
        "lesson.rule.system_role": (
            'messages に role が "system" のメッセージがあり、API が 400 で断りました（OpenAI の書き方）。Messages API の messages は user と assistant だけです。'
            'モデルへの指示は client.messages.create(..., system="...") の system 引数で渡します（API の 400: {error}）',
            'messages holds a message whose role is "system", and the API refused it with a 400 (the OpenAI way). The Messages API\'s messages are '
            'user and assistant only; give the model its instructions in the system argument, client.messages.create(..., system="...") (the API\'s 400: {error})',
        ),
        "lesson.rule.message_extra_key": (
            "messages のメッセージに、API の知らないキー {extra} が入っていて、API が 400 で断りました。メッセージに書くのは role と content だけです。"
            'ツールの呼び出しは content の tool_use ブロックのまま、{{"role": "assistant", "content": response.content}} で渡します（API の 400: {error}）',
            "A message in messages holds {extra}, a key the API does not know, and the API refused it with a 400: a message has role and content only. "
            'The tool calls stay as the tool_use blocks of its content: {{"role": "assistant", "content": response.content}} (the API\'s 400: {error})',
        ),
        "lesson.rule.other_api_result": (
            '結果が {{"role": "tool", "tool_call_id": ...}} の形です（OpenAI の関数呼び出しの形）。Messages API の結果は、tool_use 1つにつき '
            '{{"type": "tool_result", "tool_use_id": block.id, "content": ...}} の辞書で、1ターン分をリストにして1つの user メッセージに入れます',
            'The results have the shape {{"role": "tool", "tool_call_id": ...}} (OpenAI function calling). A Messages API result is a dict '
            '{{"type": "tool_result", "tool_use_id": block.id, "content": ...}} per tool_use, and one turn\'s results go, as a list, into one user message',
        ),
        "lesson.rule.block_attributes": (
            'ブロックは辞書ではなく SDK のオブジェクトです。block["name"] ではなく block.name のように、どの欄も属性で読みます'
            "（block.type・block.id・block.input も）。出た例外は {error}",
            'A block is an SDK object, not a dict: read each field as an attribute, block.name and not block["name"] '
            "(block.type, block.id, block.input too). The exception: {error}",
        ),
        "lesson.timeout": (
            "確認の制限時間（{seconds} 秒）を過ぎても終わらなかったので、確認を打ち切りました。"
            "関数を新しいセルで呼んでみて、終わらなければ ■（カーネルの中断）で止めると、"
            "トレースバックがそのとき動いていた行を示します（止まらないループ、自分を呼び続ける関数、待ち続ける呼び出しなど）",
            "It ran past the check's time limit ({seconds} s), so the check stopped it. Call your function in a new "
            "cell and, if it does not return, stop it with ■ (interrupt the kernel): the traceback shows the line it "
            "was running (a loop that never ends, a function that keeps calling itself, a call that keeps waiting).",
        ),
        "lesson.memory": (
            "確認のメモリの上限（{mb} MB）を超えたので、確認を打ち切りました。"
            "終わらないまま要素を足し続けるループや、呼ぶたびに伸び続けるリストや履歴がないか確かめましょう",
            "It used more memory than the check allows ({mb} MB), so the check stopped it. Look for a loop that "
            "keeps adding to a list without end, or a list or history that grows on every call.",
        ),
        "lesson.crashed": (
            "確認のプロセスが、結果を返す前に終わりました（os._exit() の呼び出しやシグナルなど）",
            "The check's process ended before it returned a result (a call of os._exit(), say, or a signal).",
        ),
        "lesson.tampered": (
            "確認のプロセスから、正しく動く関数なら返さない答えが届きました（関数が確認用のパイプや受け継いだファイル記述子に書き込んだ、など）。"
            "確認の仕組み（harness_lab）に手を入れず、求められた関数だけを書きましょう",
            "The check's process sent back an answer no working function sends (your function wrote into the check's "
            "pipe or another descriptor it inherited, say). Leave the checking machinery (harness_lab) alone and "
            "write only the function asked for.",
        ),
        "lesson.runaway": ("止まらないまま、確認の上限に達しました", "It ran on until the check's limit"),
        "lesson.history_trimmed": (
            "モデルへのリクエストが {count} 回を超えても止まりませんでした。前のターンのやりとりか、先頭のユーザーの質問が、後のリクエストの履歴から抜けています（messages[-2:] のような切り詰めや、質問と直前のターンだけで messages を作り直すなど）。モデルは送られた履歴しか見ないので、自分が前のターンで何をしたかが分からず、同じことを頼み続けます。messages は切り詰めず、ターンごとに追加して、毎回まるごと送ります",
            "More than {count:requests} and the loop did not stop: earlier turns, or the user's question at its head, were missing from a later request's history (a slice such as messages[-2:], or messages rebuilt from the question and the last turn alone). The model sees only the history it is sent, so it cannot tell what it did in earlier turns and keeps asking; append each turn to messages and send the whole list every time, never a slice of it",
        ),
        "lesson.swallowed_400": (
            "API が 400 で断ったリクエストがあったのに、例外が関数の外に出ませんでした。except で受け止めて、何もなかったように返しています（except Exception: など）。"
            "受け止めたまま黙ると、何が起きたのかが見えなくなります。400 の原因: {cause}",
            "The API answered a model request with a 400, yet no exception left the function: an except caught it and returned as though nothing had happened "
            "(except Exception: and the like), which hides what went wrong. The 400's cause: {cause}",
        ),
        "lesson.history_cut": (
            "送った履歴が、ユーザーの質問ではなく tool_result で始まっています。messages[-3:] のように会話履歴を切り詰めると、"
            "残した tool_result が、答えている tool_use（その前の assistant の応答の content）から切り離され、API が 400 で断ります。"
            "モデルへのリクエストには、毎回 messages のリスト全体を送ります（トークンを抑えるのは弁2 トークン予算の役目です）（API の 400: {error}）",
            "The history sent opens with a tool_result, not the user's question: a slice of the conversation history such as messages[-3:] "
            "parts the tool_result it keeps from the tool_use it answers (in the assistant's content before it), and the API answers 400. "
            "Send the whole messages list with every model request (keeping tokens down is valve 2's job, the token budget) (the API's 400: {error})",
        ),
        "lesson.runaway_requests": (
            "モデルへのリクエストが {count} 回を超えても止まりませんでした。ループが止まる条件は、ループの中で変わっていますか",
            "More than {count:model requests} and still going. Does anything inside the loop change its condition?",
        ),
        "lesson.api_400": ("API が 400 で断りました: {error}", "The API refused it with a 400: {error}"),
        "lesson.unsendable": (
            "返した結果を、SDK が JSON にできず送れませんでした（{error}）。tool_result の content は文字列にします（例外なら str(err)）",
            "The SDK could not turn the results into JSON to send them ({error}); a tool_result's content is a string (for an exception, str(err))",
        ),
        # lesson 3
        "lesson.l3.next_step.p1": (
            "tool_use ならツールを実行し、pause_turn なら送り返して続ける",
            "tool_use runs the tools and goes on; pause_turn is sent back and goes on",
        ),
        "lesson.l3.next_step.p2": (
            "end_turn（text が空でも）と stop_sequence で終わる",
            "end_turn (even with no text) and stop_sequence finish",
        ),
        "lesson.l3.next_step.p3": (
            "それ以外（max_tokens、refusal、コンテキスト超過、まだ知らない値）はすべて止める",
            "everything else (max_tokens, refusal, context full, a value not known yet) stops",
        ),
        "lesson.l3.next_step.returned_nothing": (
            'どの stop_reason にも何も返していません（None）。どの値にも4つの言葉のどれかを return し、最後に return "stop" を置きます（print では返りません）',
            'It returned nothing (None) for every stop_reason; return one of the four words for every value, with return "stop" last (print does not return it)',
        ),
        "lesson.l3.next_step.returned_none": (
            'stop_reason が {reason} のとき、何も返していません（None）。どの値にも4つの言葉のどれかを return し、最後に return "stop" を置きます（print では返りません）',
            'With stop_reason {reason} it returned nothing (None); return one of the four words for every value, with return "stop" last (print does not return it)',
        ),
        "lesson.l3.next_step.vocabulary": ("返り値 {got} は {steps} のどれでもありません", "{got} is none of {steps}"),
        "lesson.l3.next_step.text_first": (
            "思考ブロックのない tool_use の応答（先頭が text ブロック）で {got} を返しました。「調べます」のような text のあとに呼び出しが来ることもあります。内容ブロックの並びではなく stop_reason で決め、tool_use ならツールを実行します",
            'A tool_use response without a thinking block (a text block first) gave {got}. A call may come after text such as "Let me look that up": decide by stop_reason, not by the order of the blocks, and run the tools on tool_use',
        ),
        "lesson.l3.next_step.generator": (
            'next_step が言葉ではなく generator を返しました。本体に yield があると、呼んでも generator が返るだけです。yield ではなく return "run_tools" のように、言葉を return します',
            'next_step handed back a generator, not a word: with a yield in its body, calling it only makes a generator. Return the word (return "run_tools", say), not yield it',
        ),
        "lesson.l3.next_step.tool_use": (
            "tool_use で {got} を返しました。ツールを実行して続けます",
            "tool_use gave {got}; it runs the tools and goes on",
        ),
        "lesson.l3.next_step.pause_turn": (
            "pause_turn で {got} を返しました。サーバー側の処理の一時停止なので、内容をそのまま送り返して続けます",
            "pause_turn gave {got}; the server paused its own loop, so send the content back and go on",
        ),
        "lesson.l3.next_step.end_turn": (
            "end_turn で {got} を返しました。モデルが自分で切り上げたので終わります",
            "end_turn gave {got}; the model wrapped up, so finish",
        ),
        "lesson.l3.next_step.stop_sequence": (
            "stop_sequence で {got} を返しました。指定した停止シーケンスに当たったのは、モデルの正常な終わり方です。finish を返します",
            "stop_sequence gave {got}; hitting a stop sequence you asked for is a normal ending: finish",
        ),
        "lesson.l3.next_step.empty_end_turn": (
            "text のない end_turn で {got} を返しました。text の有無ではなく stop_reason で決めます",
            "An end_turn without text gave {got}; decide by stop_reason, not by whether there is text",
        ),
        "lesson.l3.next_step.max_tokens": (
            "max_tokens で {got} を返しました。途中で切れた呼び出しを実行してはいけません",
            "max_tokens gave {got}; a call cut off midway must not run",
        ),
        "lesson.l3.next_step.max_tokens_finish": (
            "max_tokens で finish を返しました。max_tokens は上限で途中で切られた応答で、答えは終わっていません。止めて報告します（stop）",
            "max_tokens gave finish; the response was cut off at the limit and the answer is not complete: stop and report it",
        ),
        "lesson.l3.next_step.refusal": (
            "refusal で {got} を返しました。止めて報告します",
            "refusal gave {got}; stop and report it",
        ),
        "lesson.l3.next_step.model_context_window_exceeded": (
            "コンテキストが一杯（model_context_window_exceeded）で {got} を返しました。止めます",
            "A full context window (model_context_window_exceeded) gave {got}; stop",
        ),
        "lesson.l3.next_step.unknown": (
            "知らない stop_reason で {got} を返しました。知らない値は安全な側（止める）に倒します",
            "An unknown stop_reason gave {got}; unknown values must fall to the safe side: stop",
        ),
        "lesson.l3.next_step.compaction": (
            "compaction（圧縮のあと一時停止した応答）で {got} を返しました。この応答にあるのは会話の要約（compaction ブロック）だけで、"
            '答えも実行する呼び出しもありません。知らない値と同じく止めるか（"stop"）、pause_turn と同じく content をまるごと足して送り直します（"resend"）',
            "compaction (a response paused after compaction) gave {got}; it holds only the summary of the conversation (a compaction block), "
            'no answer and no call to run. Stop, as on any value you do not know ("stop"), or append its content whole and send it again, as after pause_turn ("resend")',
        ),
        "lesson.l3.next_step.unknown_raised": (
            '知らない stop_reason で例外になりました（{error}）。表にない値でも "stop" を返します: '
            '辞書なら .get(response.stop_reason, "stop") で引きます',
            'An unknown stop_reason raised {error}; a value your table lacks must still give "stop": '
            'with a dict, look it up with .get(response.stop_reason, "stop")',
        ),
        # lesson 4
        "lesson.l4.signature.p1": (
            "同じ呼び出しは、引数のキーの順番が違っても同じ署名",
            "the same call gives the same signature, whatever the key order",
        ),
        "lesson.l4.signature.p2": (
            "違う引数や違うツールなら、違う署名",
            "other arguments or another tool give another signature",
        ),
        "lesson.l4.signature.p3": (
            "呼び出しの順番が違っても同じ署名、呼び出しが増えれば違う署名",
            "the order of calls does not matter, another call does",
        ),
        "lesson.l4.signature.not_text": ("署名が文字列ではなく {got} です", "The signature is a {got}, not a string"),
        "lesson.l4.signature.key_order": (
            "キーの順番だけが違う同じ呼び出しが、別の署名になりました（{a} と {b}）。引数は json.dumps(block.input, sort_keys=True) で文字列にします（str(dict) や sort_keys のない json.dumps では、キーの順番が署名に入ります）",
            "The same call with its keys in another order got another signature ({a} vs {b}); turn the input into text with json.dumps(block.input, sort_keys=True) (str(dict), or json.dumps without sort_keys, keeps the key order)",
        ),
        "lesson.l4.signature.ids": (
            "次のターンの同じ呼び出しが、別の署名になりました。id のように応答ごとに変わるものは入れず、名前と引数だけにします",
            "The same call in the next turn got another signature; leave out what changes with every response (like the id): name and input only",
        ),
        "lesson.l4.signature.text": (
            "呼び出しは同じなのに、text ブロックや思考ブロックの文が違うだけで署名が変わりました。署名に入れるのは tool_use の名前と引数だけです（text も思考も、毎ターン言い回しが変わります）",
            "The same calls got another signature because the text or thinking said something else; a signature holds the tool_use names and inputs only (the wording of both changes every turn)",
        ),
        "lesson.l4.signature.changed_content": (
            "signature_of が、渡された content（応答の内容ブロック）を書き換えました（content.sort() など）。content は会話履歴に入るものなので、sorted(...) で新しいリストを作って並べ替えます",
            "signature_of changed the content it was given (content.sort(), say); that content is the history's, so sort a new list with sorted(...)",
        ),
        "lesson.l4.signature.unstable": (
            "同じ応答なのに、呼ぶたびに署名が変わります",
            "The same response gives a different signature each time",
        ),
        "lesson.l4.signature.collides": (
            "違う呼び出しが同じ署名 {signature} になりました。名前と引数の両方を入れます",
            "Different calls got the same signature {signature}; include both the name and the input",
        ),
        "lesson.l4.signature.cut": (
            "引数の最後だけが違う2つの呼び出しが、同じ署名 {signature} になりました。引数の JSON を途中で切っていませんか。署名には引数を全部入れます",
            "Two calls whose inputs differ only at the end got the same signature {signature}; is the input's JSON cut short? A signature holds the whole input",
        ),
        "lesson.l4.signature.twice": (
            "同じ呼び出しを2回したターンが、1回だけのターンと同じ署名 {signature} になりました。set のように重複をまとめるものは使わず、呼び出しを1つずつ全部並べます",
            "A turn making the same call twice got the same signature as a turn making it once ({signature}); keep every call, one part each (a set merges the repeats)",
        ),
        "lesson.l4.signature.pairs": (
            "違う呼び出しが同じ署名 {signature} になりました。どの引数がどの呼び出しのものかが消えています。呼び出しごとに「名前(引数の JSON)」を1つの部分にしてから並べ替えます（名前と引数を別々に並べ替えたり、キーを落として値だけにしたりしない）",
            "Different calls got the same signature {signature}: which input belongs to which call is lost; make one part per call, name(input as JSON), then sort the parts (do not sort names and inputs apart, or keep values without their keys)",
        ),
        "lesson.l4.signature.digest": (
            "違うファイルを読む {count} 通りのターンのうち、{a} と {b} を読む2つが同じ署名 {signature} になりました。"
            "ハッシュの先頭数文字のように署名を短く切ると、違う呼び出しがたまたま同じ署名になり、無進捗検知が空回りしていないターンを止めます。"
            "「名前(引数の JSON)」をそのまま使うか、ハッシュなら全桁（hexdigest() 全部）を使います",
            "Of {count:turns} each reading another file, the two reading {a} and {b} got the same signature {signature}. "
            "A signature cut short (the first few characters of a hash, say) makes different calls match by chance, and "
            "no-progress detection then stops a turn that was not spinning. Use name(input as JSON) as it is, or the "
            "whole hash (all of hexdigest())",
        ),
        "lesson.l4.signature.call_order": (
            "呼び出しの順番が入れ替わっただけで、署名が変わりました。名前だけでなく引数まで含めた部分ごと、並べ替えてからつなぎます（sorted）",
            "Swapping the order of the calls changed the signature: sort the parts with sorted before joining them, each part whole (name and arguments, not the name alone)",
        ),
        "lesson.l4.signature.one_call": (
            "呼び出しが1つ増えても署名が同じです。全部の tool_use を入れます",
            "One more call gave the same signature; include every tool_use",
        ),
    }
)
