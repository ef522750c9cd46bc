"""The level-2 exercise's strings (ja, en): its options, criteria and hints, added to the catalog on import."""

from __future__ import annotations

from ..text import add

add(
    {
        # --- level 2: the missing gate ------------------------------------------------------------
        "grade.l2.options.gaps": (
            "MISSING のキー（裸のループに欠けている制御）:",
            "Keys of MISSING (controls the bare loop lacks):",
        ),
        "grade.l2.options.runaways": (
            "MISSING の値（その欠落が生む暴走の振る舞い。1つでも、集合でも構いません）:",
            "Values of MISSING (the runaway behaviour each gap causes; one key or a set):",
        ),
        "grade.l2.gap.stop_condition": (
            "止まるか続けるかをモデルの stop_reason にまるごと委ねていて、ハーネス側の明示的な停止条件（ハードな上限）がない",
            "it leaves stop-or-continue entirely to the model's stop_reason: the harness has no explicit stop condition (hard limit)",
        ),
        "grade.l2.gap.token_budget": ("累計トークンの上限（予算）がない", "there is no cap on total tokens (budget)"),
        "grade.l2.gap.no_progress": (
            "同じツール呼び出しの繰り返し（足踏み）を検知する仕組みがない",
            "nothing detects the same tool call repeating (spinning)",
        ),
        "grade.l2.gap.approval": (
            "高インパクトなアクションを実行前に人間に確認する仕組みがない",
            "nothing asks a human before a high-impact action runs",
        ),
        "grade.l2.gap.keep_history": (
            "モデルの応答（assistant の content）を会話履歴に残していない",
            "it does not keep the model's response (assistant content) in the history",
        ),
        "grade.l2.gap.tools_followup": (
            "続きのリクエストに tools を渡していない",
            "it does not pass tools on the follow-up requests",
        ),
        "grade.l2.gap.reassign": (
            "ループの末尾で response を再代入していない",
            "it does not reassign response at the end of the loop body",
        ),
        "grade.l2.gap.one_user_message": (
            "1ターン分の tool_result を1つの user メッセージにまとめていない",
            "it does not put one turn's tool_results into a single user message",
        ),
        "grade.l2.runaway.endless_turns": (
            "モデルが tool_use を返し続けるかぎり、ターンが際限なく回り続ける",
            "as long as the model keeps returning tool_use, turns go on without end",
        ),
        "grade.l2.runaway.budget_burn": (
            "会話履歴が伸びるたびに1回あたりの入力トークンが増え、費用が燃え尽きるまで止まらない",
            "each request's input tokens grow with the history, and nothing stops the spending",
        ),
        "grade.l2.runaway.spinning": (
            "同じツールを同じ引数で何度も呼ぶ足踏みに、誰も気づかない",
            "nobody notices the model calling the same tool with the same arguments again and again",
        ),
        "grade.l2.runaway.unchecked_action": (
            "ファイルの書き込みや送信のような高インパクトなアクションが、人間の確認なしに実行される",
            "high-impact actions such as writing files or sending data run without a person checking",
        ),
        "grade.l2.runaway.early_stop": (
            "テキストとツール呼び出しが同じ応答に並ぶと、ツールを実行せずに止まってしまう",
            "when text and a tool call come in one response, it stops without running the tool",
        ),
        "grade.l2.runaway.api_400": (
            "tool_result が足りず、次のリクエストが 400 エラーで失敗する",
            "tool_results are missing, so the next request fails with a 400",
        ),
        "grade.l2.runaway.dead_loop": (
            "response が更新されず、古い stop_reason のまま同じリクエストを繰り返す",
            "response is never updated, so the same request repeats on a stale stop_reason",
        ),
        "grade.l2.unknown": (
            "選択肢にないキーがあります: {keys}。level2_options() の一覧からキーを選びましょう",
            "Some keys are not options: {keys}. Choose keys from the level2_options() list.",
        ),
        "grade.l2.endless": (
            "MISSING から {limit} 個を超える項目が出てきました。終わらないジェネレーターではなく、辞書で答えましょう",
            "MISSING yielded more than {limit:items}. Answer with a dict, not an endless generator.",
        ),
        "grade.l2.c1.title": (
            "明示的な停止条件がない（止まるか続けるかがモデル任せ）ことを挙げ、このループにすでにあるもの（末尾の再代入など）は挙げていない",
            "it names the missing explicit stop condition (stop-or-continue left to the model), and nothing this loop already does (such as the reassignment at the bottom)",
        ),
        "grade.l2.c1.not_missing": (
            "'{option}'（{desc}）は、このループでは実はできています。コードをもう一度1行ずつ読んでみましょう",
            "'{option}' ({desc}): this loop actually does that. Read the code again line by line.",
        ),
        "grade.l2.c1.no_stop_condition": (
            "いちばん根本の欠落が挙がっていません。モデルが tool_use を返し続けたら、このループを止めるのは誰でしょう",
            "The most basic gap is not named. If the model keeps returning tool_use, who stops this loop?",
        ),
        "grade.l2.c2.title": (
            "欠けている制御それぞれに、それが生む暴走を対応づけ、少なくとも2種類（ターン/予算の暴走と、無進捗の足踏み）を挙げている",
            "each missing control is paired with the runaway it causes, covering at least two kinds (turns/budget running away, and no-progress spinning)",
        ),
        "grade.l2.c2.not_mapping": (
            "MISSING が辞書になっていません。「欠けている制御のキー: それが生む暴走のキー」の辞書で、それぞれの欠落がどの暴走を生むかを答えましょう",
            'MISSING is not a dict. Answer with a dict of "missing control key: runaway key", saying which runaway each gap causes.',
        ),
        "grade.l2.c2.unpaired": (
            "'{control}' に、それが生む暴走が対応づけられていません",
            "'{control}' is not paired with the runaway it causes.",
        ),
        "grade.l2.c2.not_this_loop": (
            "'{option}'（{desc}）は、このループでは起きません。このループが実際にやっていることと見比べましょう",
            "'{option}' ({desc}) does not happen in this loop. Compare it with what the loop actually does.",
        ),
        "grade.l2.c2.mispaired": (
            "'{control}'（{gap}）が欠けていても、'{runaway}'（{desc}）は生まれません。その制御があれば、どの暴走が止まるでしょう",
            "Lacking '{control}' ({gap}) does not cause '{runaway}' ({desc}). Which runaway would that control stop?",
        ),
        "grade.l2.c2.no_turns": (
            "モデルがいつまでも切り上げないとき、ターンや費用がどうなるかが挙がっていません",
            "Nothing says what happens to turns or cost when the model never wraps up.",
        ),
        "grade.l2.c2.no_spinning": (
            "ターン数も予算も上限に届いていないのに少しも進んでいない、という種類の暴走が挙がっていません",
            "The kind of runaway where neither turns nor budget hit a limit, yet nothing moves forward, is missing.",
        ),
        "grade.l2.c3.title": (
            "MAX_TURNS のチェックで、止まらないモデルでもツール呼び出しちょうど N ターンで止まって停止メッセージを返し、普通のタスクはモデルの答えで終わる",
            "with the MAX_TURNS check, a model that never stops gets exactly N tool turns and a stop message, and a normal task ends with the model's answer",
        ),
        "grade.l2.c3.bad_max_turns": (
            "MAX_TURNS が {value} です。2〜50 の整数にしましょう",
            "MAX_TURNS is {value}. Make it an integer from 2 to 50.",
        ),
        "grade.l2.c3.runaway": (
            "tool_use を返し続けるモデルに対して、ループが止まりませんでした。ターンが MAX_TURNS に届いても、run_agent のループを抜けるチェックが働いていません。カウンターはループの前に用意し、本体の先頭で MAX_TURNS と比べてから進めます",
            "Against a model that keeps returning tool_use, the loop did not stop: no check in run_agent's loop ended it once the turns reached MAX_TURNS. Set the counter up before the loop, and at the top of the body compare it with MAX_TURNS before moving it on.",
        ),
        "grade.l2.c3.one_early": (
            "MAX_TURNS={n} なのに、ツール呼び出し {rounds} ターン・モデルへのリクエスト {calls} 回で止まりました。1ターン早すぎます。カウンターを進めるのと上限を問うのは、どちらが先でしょう（MAX_TURNS - 1 と比べたり、モデルへのリクエストの回数を数えたりしても、こうなります）",
            "With MAX_TURNS={n} it stopped after {rounds:tool turns} and {calls:requests}: one turn early. Which comes first, moving the counter or asking about the limit? (Comparing with MAX_TURNS - 1, or counting model requests, does this too.)",
        ),
        "grade.l2.c3.one_too_many": (
            "MAX_TURNS={n} なのに、ツール呼び出し {rounds} ターン・モデルへのリクエスト {calls} 回で止まりました。1ターン多すぎます。"
            "turns > MAX_TURNS と比べると、上限ちょうどでも、もう1ターン進んでしまいます。本体の先頭で turns >= MAX_TURNS を問いましょう",
            "With MAX_TURNS={n} it stopped after {rounds:tool turns} and {calls:requests}: one turn too many. "
            "Comparing turns > MAX_TURNS lets one more lap run at the limit itself; ask turns >= MAX_TURNS at the top of the body.",
        ),
        "grade.l2.c3.results_unsent": (
            "ツール呼び出しを {rounds} ターン実行したのに、最後の結果をモデルに返さないまま止まりました（モデルへのリクエスト {calls} 回）。上限は「この一周に入る前に」問うものです。記事の for _ in range(MAX_TURNS) の書き方もこうなります（ノートブック02「上限をどこで問うか」）",
            'It ran {rounds:tool turns} but stopped without sending the last results to the model ({calls:requests}). The limit is asked before entering a lap of the loop; the article\'s for _ in range(MAX_TURNS) loop does the same (notebook 02, "Where to ask about the limit").',
        ),
        "grade.l2.c3.counts": (
            "MAX_TURNS={n} で、ツール呼び出し {rounds} ターン・モデルへのリクエスト {calls} 回でした。ツール呼び出しは MAX_TURNS ターン、リクエストはそれより1回多くなるはずです",
            "With MAX_TURNS={n} there were {rounds:tool turns} and {calls:requests}. Expected MAX_TURNS tool turns and one request more.",
        ),
        "grade.l2.impl_call": (
            "ツール {tool} を {call} の形で、入力を位置引数として渡して呼びました。ノートブックのツール（toy）は入力をキーワード引数で受け取るので、"
            "この呼び方では TypeError になり、ツールは実行されません。準備のセルの run_tool_uses を使うか、"
            "tool_impls[block.name](**block.input) と ** を付けて呼びましょう",
            "The {tool} tool was called as {call}, its input passed by position. The notebook's tools (toy) take their "
            "input as keyword arguments, so this call raises a TypeError and the tool never runs. Use the setup cell's "
            "run_tool_uses, or call tool_impls[block.name](**block.input), with the **.",
        ),
        "grade.l2.c3.no_tools_ran": (
            "tool_use を返し続けるモデルなのに、ツールを1つも実行せず、最初の応答で終わりました（MAX_TURNS={n}、モデルへのリクエスト {calls} 回）。"
            'ツールを呼ぶ応答の stop_reason は "tool_use" です（"tool_calls" のようなほかの API の言葉ではありません）。ループは stop_reason が "tool_use" の間、回ります',
            "Against a model that keeps returning tool_use, it ran no tool and ended at the first response (MAX_TURNS={n}, {calls:requests}). "
            'A response that calls tools says stop_reason "tool_use" (not another API\'s word such as "tool_calls"); the loop goes on while stop_reason is "tool_use".',
        ),
        "grade.l2.c3.other_limit": (
            "MAX_TURNS={n} で試しましたが、ツール呼び出し {rounds} ターン・モデルへのリクエスト {calls} 回で、きれいに止まりました。"
            "MAX_TURNS ではない上限（MAX_TURNS * 2 のように MAX_TURNS から計算した数など）で止まっています。"
            "上限は、採点セルに渡すモジュールの MAX_TURNS をそのまま使います",
            "With MAX_TURNS={n}, it stopped cleanly after {rounds:tool turns} and {calls:requests}: at a limit other than MAX_TURNS "
            "(one worked out from it, such as MAX_TURNS * 2). Use the module's MAX_TURNS as it is, the one the grading cell is given.",
        ),
        "grade.l2.c3.fixed_limit": (
            "MAX_TURNS={n} でも、MAX_TURNS を1つ増やしても、ツール呼び出し {rounds} ターン・モデルへのリクエスト {calls} 回で止まりました。"
            "止まる上限が MAX_TURNS に合わせて動きません。直書きした数、関数の中で決め直した MAX_TURNS、"
            'os.environ.get("MAX_TURNS", 8) のように環境変数から読んだ値など、MAX_TURNS とは別に決まる上限で止まっています。'
            "上限は、採点セルに渡すモジュールの MAX_TURNS から読みます",
            "With MAX_TURNS={n}, and again with MAX_TURNS one higher, it stopped after {rounds:tool turns} and {calls:requests}: "
            "the limit it stops at does not follow MAX_TURNS. It is set apart from MAX_TURNS: a number written in, a MAX_TURNS "
            'set again inside the function, or a value read from elsewhere, such as an environment variable (os.environ.get("MAX_TURNS", 8)). '
            "Read the limit from the module's MAX_TURNS, the one the grading cell is given.",
        ),
        "grade.l2.c3.counts_more": (
            "1つの応答で1つずつツールを呼ぶモデルに、MAX_TURNS={n} なのにツール呼び出し {rounds} ターン（モデルへのリクエスト {calls} 回）で止まりました。"
            "1つの応答で、ターンを1つより多く数えています。ターンは応答1回（ループの一周）ごとに 1 つ数えます",
            "Against a model that calls one tool per response, MAX_TURNS={n} stopped after {rounds:tool turns} ({calls:requests}): "
            "each response was counted as more than one turn. Count one turn per response (per lap of the loop).",
        ),
        "grade.l2.c3.counts_messages": (
            "1つの応答で1つずつツールを呼ぶモデルに、MAX_TURNS={n} なのにツール呼び出し {rounds} ターン（モデルへのリクエスト {calls} 回）で止まりました。"
            "応答の中身によらず、1ターンに2つずつ数えています。会話履歴のメッセージの数（len(messages)）は、1ターンで assistant と user のメッセージが1つずつ、2つ増えます。"
            "ターンは応答1回（ループの一周）ごとに 1 つ、turns のようなカウンターで数えます",
            "Against a model that calls one tool per response, MAX_TURNS={n} stopped after {rounds:tool turns} ({calls:requests}): "
            "it counted two a turn, whatever the response held, as the messages in the conversation history (len(messages)) grow: each turn adds two, the assistant's and the user's. "
            "Count one turn per response (per lap of the loop) with a counter such as turns.",
        ),
        "grade.l2.c3.counts_content": (
            "1つの応答で1つずつツールを呼ぶモデルに、MAX_TURNS={n} なのにツール呼び出し {rounds} ターン（モデルへのリクエスト {calls} 回）で止まりました。"
            "数えていたのは応答の content の内容ブロック（テキストや tool_use）の数です。そのため、テキストのない応答ならターンが多く、呼び出しの多い応答なら少なく回りました。"
            "ターンは、応答が何を含んでいても、応答1回（ループの一周）ごとに 1 つ数えます",
            "Against a model that calls one tool per response, MAX_TURNS={n} stopped after {rounds:tool turns} ({calls:requests}): "
            "it counted the blocks in the response's content (text, tool_use...), so responses with no text ran more turns and responses with more calls fewer. "
            "Count one turn per response (per lap of the loop), whatever the response holds.",
        ),
        "grade.l2.c3.counts_text": (
            "1ターンおきにテキストなしで（tool_use だけで）ツールを呼ぶモデルだと、MAX_TURNS={n} なのにツール呼び出し {rounds} ターン・リクエスト {calls} 回でした。"
            "テキストのない応答も1ターンです。ターンは応答1回（ループの一周）ごとに数えます",
            "Against a model that calls its tools with no text every other turn (tool_use blocks only), MAX_TURNS={n} gave {rounds:tool turns} and {calls:requests}. "
            "A response with no text is a turn too: count one turn per response (per lap of the loop).",
        ),
        "grade.l2.c3.counts_blocks": (
            "1つの応答で2〜3個のツールを同時に呼ぶモデルだと、MAX_TURNS={n} なのにツール呼び出し {rounds} ターン（ツールの実行は {runs} 回）で止まりました。"
            "数えるのは tool_use ブロックの数ではなく、ターン（ループの一周）です",
            "Against a model that calls two or three tools per response, MAX_TURNS={n} stopped after {rounds:tool turns} ({runs:tool runs}). "
            "Count turns (laps of the loop), not tool_use blocks.",
        ),
        "grade.l2.c3.no_stop_message": (
            "上限で止まったときの返り値が「{shown}」でした。上限に達して止まったことが分かる文（たとえば「ターン数の上限に達したので停止しました」）を返しましょう",
            'When stopped at the limit it returned "{shown}". Return a sentence that says the run stopped at the limit (for example "Stopped: reached the turn limit").',
        ),
        "grade.l2.c3.stop_not_text": (
            "上限で止まったときの返り値が、文字列ではなく {shown} でした。上限に達して止まったことが分かる文（たとえば「ターン数の上限に達したので停止しました」）を、文字列で返しましょう",
            'When stopped at the limit it returned {shown}, not a string. Return a sentence, as a str, that says the run stopped at the limit (for example "Stopped: reached the turn limit").',
        ),
        "grade.l2.c3.results_reused": (
            "API がリクエストを拒否しました: 前のターンの tool_result が、最後のターンの結果に置き換わっていました。"
            "1つの結果のリストを空にして（clear()）詰め直し、毎ターン同じリストを会話履歴に積んでいませんか。ターンごとに新しいリストを作ります（API の 400: {error}）",
            "The API refused a request: the earlier turns' tool_result blocks had become the last turn's results. Does the loop empty one "
            "results list (clear()) and refill it, putting that same list into the history every turn? Make a new list each turn (the API's 400: {error})",
        ),
        "grade.l2.c3.stale_response": (
            "API がリクエストを拒否しました（`tool_use` ids must be unique）: 古い応答を、もう一度会話履歴に積んでいます。"
            "ループ本体の最後で response = client.messages.create(...) と再代入していますか？（レッスン4 のデッドループ）",
            "The API refused a request (`tool_use` ids must be unique): the same old response went into the history again. "
            "Does the end of the loop body reassign response = client.messages.create(...)? (lesson 4's dead loop)",
        ),
        "grade.l2.c3.results_assistant": (
            "ツールの結果（tool_result）を、assistant のメッセージに入れて会話履歴に積んでいます。結果は role が user のメッセージで返します（API の 400: {error}）",
            "The tool results (tool_result) went into the history in an assistant message; send them back in a message whose role is user (the API's 400: {error})",
        ),
        "grade.l2.c3.results_before": (
            "ツールの結果（tool_result）を、その呼び出しを含む assistant の応答より前に積んでいます。応答（response.content）を積んでから、その結果を積みます（API の 400: {error}）",
            "The tool results (tool_result) went into the history before the assistant response that made the calls; add the response (response.content) first, then its results (the API's 400: {error})",
        ),
        "grade.l2.c3.block_not_text": (
            "応答の content のブロックを text として読み、例外になりました: {error}。どのブロックが text かは決まっていません"
            '（max_tokens で切れた応答は tool_use で終わることがあります）。block.type が "text" のブロックだけを読みます',
            "It read a block of the response's content as text and raised: {error}. Which block is text is not fixed (a response cut off "
            'at max_tokens can end with a tool_use); read only the blocks whose block.type is "text"',
        ),
        "grade.l2.c3.thinking_lost": (
            "API がリクエストを 400 で拒否しました: {error}。既定のモデルは考えてから（thinking ブロックを先頭に）応答します。"
            "assistant のメッセージには response.content をそのまま、順番も変えずに入れましょう（thinking を抜いたり、text を前に出したりしない）",
            "The API refused a request with a 400: {error}. The default model thinks before it answers (a thinking block first); "
            "put response.content into the assistant message as it is, in its order (no thinking left out, no text moved to the front).",
        ),
        "grade.l2.c3.tools_missing": (
            "API がリクエストを 400 で拒否しました: {error}。会話履歴に tool_use や tool_result があるリクエストには、tools が要ります。"
            "モデルへのリクエストには、毎回 tools=tools を渡しましょう",
            "The API refused a request with a 400: {error}. A request whose history holds tool_use or tool_result blocks needs tools; "
            "pass tools=tools with every model request.",
        ),
        "grade.l2.c3.other_role": (
            '会話履歴に、role が user でも assistant でもないメッセージがあり、API が 400 で拒否しました（OpenAI の "system" や "tool" の書き方）: {error}。'
            "Messages API の会話は user と assistant の role で進みます（途中の system メッセージを受け付ける新しいモデルもありますが、先頭には置けません）。ツールの結果は tool_result のリストにして role が user のメッセージで返し、"
            'モデルへの指示は client.messages.create(..., system="...") の system 引数で渡しましょう',
            'The history holds a message whose role is neither user nor assistant, and the API refused it with a 400 (the OpenAI way, "system" or "tool"): {error}. '
            "A Messages API conversation goes by the user and assistant roles (some newer models take a system message later on, never first): send the tool results back as a list of tool_results in a message whose role is user, "
            'and give the model its instructions in the system argument, client.messages.create(..., system="...").',
        ),
        "grade.l2.c3.message_extra_key": (
            "会話履歴のメッセージに、API の知らないキー {extra} が入っていて、API が 400 で拒否しました: {error}。メッセージに書くのは role と content だけです。"
            'ツールの呼び出しは content の tool_use ブロックのまま、{{"role": "assistant", "content": response.content}} で積みましょう',
            "A message in the history holds {extra}, a key the API does not know, and the API refused it with a 400: {error}. A message has role and content only; "
            'the tool calls stay as the tool_use blocks of its content: append {{"role": "assistant", "content": response.content}}.',
        ),
        "grade.l2.c3.other_sdk": (
            "別の SDK（OpenAI）の応答の形で読んでいます: {error}。Messages API の応答に choices や finish_reason はありません。"
            'ループを続けるかは response.stop_reason == "tool_use" で、答えは response.content の text ブロックで読みましょう',
            "It reads another SDK's (OpenAI's) response shape: {error}. A Messages API response has no choices and no finish_reason: "
            'go on while response.stop_reason == "tool_use", and read the answer from the text blocks of response.content.',
        ),
        "grade.l2.c3.is_error_text": (
            'tool_result の is_error が真偽値ではなく文字列 {got} です。API は文字列の is_error を（"true" でも "false" でも）400 で断り、文字列は True ではないので失敗としても数えられません。'
            '引用符なしで、失敗には "is_error": True と書きます（うまくいった結果には書かないか False）（API の 400: {error}）',
            'A tool_result\'s is_error is the string {got}, not a boolean. The API answers a string is_error ("true" or "false" alike) with a 400, '
            'and a string is not True, so a failure does not count as one. Write "is_error": True for a failure, without quotes '
            "(leave it out, or False, on a result that worked). (The API's 400: {error})",
        ),
        "grade.l2.c3.api_rejected": (
            "API がリクエストを 400（anthropic.BadRequestError）で拒否しました: {error}。会話履歴に積んだものを、API の形（tool_result のフィールドと型）と見比べましょう",
            "The API refused a request with a 400 (anthropic.BadRequestError): {error}. Compare what went into the history with the API's shapes (the fields and types of a tool_result).",
        ),
        "grade.l2.c3.history_dropped": (
            "普通のタスクで、モデルの答えが返りませんでした（返り値: {shown}）。{request} 回目のリクエストが運んだメッセージは、その前のリクエストより増えていません: "
            "会話履歴をループの中で作り直しているので、モデルは自分のこれまでのターンを見られず、同じことを頼み続けます。messages はループの前で一度だけ作り、毎ターン append で積み足しましょう",
            "On a normal task, the model's final answer was not returned (returned: {shown}). Request {request} carried no more messages than the one before: "
            "the history is built again inside the loop, so the model never sees its earlier turns and keeps asking for the same. Make messages once, before the loop, and append to it every turn.",
        ),
        "grade.l2.c3.retried_400": (
            "API がリクエストを 400 で拒否したのに、ループは同じリクエストをそのまま {times} 回送り直しました: {error}。"
            "400 はリクエストそのものの誤りなので、送り直しても通りません（except で捕まえて送り直すと、止まらなくなります）。"
            "400 が名指しするところ（会話履歴に積んだもの）を直しましょう。送り直してよいのは 429 や 529 のような一時的なエラーだけで、それも回数を決めて",
            "The API refused a request with a 400, and the loop sent the same request again, unchanged, {times:times}: {error}. "
            "A 400 is the request's own fault, so sending it again never passes (an except that sends it again never stops). "
            "Fix what the 400 names (what went into the history); only a passing error such as 429 or 529 is worth retrying, and only a set number of times.",
        ),
        "grade.l2.c3.normal_runaway": (
            "モデルが自分で答えを返す普通のタスクで、ループが止まりませんでした。モデルが切り上げた（end_turn）ことに気づけていますか",
            "On a normal task where the model answers by itself, the loop did not stop. Does it notice that the model wrapped up (end_turn)?",
        ),
        "grade.l2.c3.normal_raised": (
            "モデルが自分で切り上げる普通のタスクで、例外になりました: {error}。end_turn の後もループを回していませんか",
            "On a normal task where the model wraps up by itself, your code raised: {error}. Does the loop go on after end_turn?",
        ),
        "grade.l2.c3.normal_answer": (
            "普通のタスクで、モデルの最後の答えが返りませんでした（返り値: {shown}）",
            "On a normal task, the model's final answer was not returned (returned: {shown}).",
        ),
        "grade.l2.c3.fixed_cap": (
            "セルを実行したあとで MAX_TURNS を {cap} に変えても、ループは {n} ターンで止まりました。上限はセルを実行したときに決まっています"
            "（ループに書いた数字か、先に取った MAX_TURNS の写し）。ここでは合格です。あとで変えた MAX_TURNS に従わせるなら、run_agent が走るときに MAX_TURNS を読みます",
            "With MAX_TURNS changed to {cap} after your cell ran, the loop still stopped after {n:turns}: its limit was fixed when the "
            "cell ran (a number in the loop, or a copy of MAX_TURNS taken earlier). That passes here; to follow a later change, read "
            "MAX_TURNS when run_agent runs.",
        ),
        # both levels: input() in a child that has no keyboard (level_slips.py)
        "grade.keyboard": (
            "input() でキーボードからの入力を待ちました: {error}。ハーネスは、人が打ち込むのを待たずに回ります。実行してよいかを人に尋ねるのは、渡された approve(name, input) の役目で、ループの上限で人に尋ねることはしません。input() を消しましょう",
            "Your code waited for keyboard input with input(): {error}. A harness runs without waiting for anyone to type: asking a person whether a call may run is what the approve(name, input) it is given does, and the loop's limit asks no one. Remove the input() call.",
        ),
        "grade.l2.c3.raised_at_cap": (
            "ツール呼び出しちょうど {n} ターンで上限に届いたところで、例外になりました: {error}。例外では呼び出し側に答えが何も返りません。上限で止まったことを伝える文を return しましょう",
            "Your loop reached the limit after exactly {n:tool turns}, then raised: {error}. An exception gives the caller no answer at all; return a sentence saying the run stopped at the limit.",
        ),
        "grade.l2.c3.went_on": (
            'ツール呼び出しのあと、答えが max_tokens で切れた応答（stop_reason が "max_tokens"、tool_use なし）でも、ループを続けました。'
            'ループを続けるのは stop_reason が "tool_use" のときだけです。止まる理由は end_turn のほかにもあります',
            'After a tool turn, the model\'s answer was cut off at max_tokens (stop_reason "max_tokens", no tool_use), and your loop '
            'went on. Go on only while stop_reason is "tool_use": end_turn is not the only reason to stop.',
        ),
        "grade.l2.c3.cut_call_ran": (
            'ツール呼び出しのあと、max_tokens で切れた応答（stop_reason が "max_tokens"）に入っていた tool_use を実行して、ループを続けました。'
            '切れた呼び出しは、入力が途中までかもしれません。続けるかどうかは、content に tool_use があるかではなく、stop_reason が "tool_use" かどうかで決めましょう',
            'After a tool turn, a reply was cut off at max_tokens (stop_reason "max_tokens") with a tool_use block in it, and your loop '
            'ran that call and went on. A call cut off may hold half its input: go on only while stop_reason is "tool_use", '
            "not whenever the content holds a tool_use block.",
        ),
        "grade.l2.c3.history_kept": (
            "同じタスクを同じカーネルで2回続けて走らせると、2回目のリクエストにユーザーの依頼が {times} 回入っていました。前の実行の会話が持ち越されています。messages を run_agent の外（グローバル変数や、既定値の引数）に置いていませんか。履歴は実行のたびに積み上がり、送るトークンも増え続けます。messages = [...] は run_agent の中で、呼ばれるたびに作ります",
            "Run twice in the same kernel, the second run's request carried the user's task {times:times}: the earlier run's conversation came along. Is messages kept outside run_agent (a global, or a default argument)? The history then piles up run after run, and so do the tokens sent. Create messages = [...] inside run_agent, on every call.",
        ),
        "grade.l2.c3.interrupt_caught": (
            "{tool} の実行中に Ctrl-C（KeyboardInterrupt）を押しても、ループは止まらずに続けました。run_tool_uses のまわりの except BaseException・素の except:・"
            "except KeyboardInterrupt で先へ進むと、人がループを中断するための割り込みまで捕まえてしまい、止められるのは MAX_TURNS だけになります。"
            "KeyboardInterrupt はそのまま通すか、捕まえたら停止メッセージを return して止めます",
            "Ctrl-C (KeyboardInterrupt) pressed while {tool} ran did not stop the loop: it went on. An except BaseException, a bare except:, "
            "or an except KeyboardInterrupt that carries on around run_tool_uses also catches the interrupt a person uses to stop the loop, "
            "so only MAX_TURNS can end it. Let KeyboardInterrupt through, or catch it and return a stop message.",
        ),
        "grade.l2.c3.never_ran": (
            "run_agent を呼ぶと、中身を1行も実行しないまま {kind} が返りました（モデルへのリクエストは 0 回）。async def や yield のある関数は、呼んだだけでは動きません。"
            "採点は run_agent(...) をふつうに呼んで、返り値の文を読みます。def で書き、yield ではなく return で答えや停止メッセージを返しましょう",
            "Calling run_agent returned a {kind} without running a line of it (0 requests to the model): a function with async def or yield "
            "does not run when called. The grader calls run_agent(...) plainly and reads the text it returns: write it with def, and return "
            "the answer or the stop message instead of yielding it.",
        ),
        "grade.l2.c3.task_not_first": (
            "モデルへのリクエスト {request} 回目の messages が、ユーザーの依頼から始まっていませんでした。API は受け付けますが、モデルは依頼より先に自分の呼び出しを読むか、依頼を読めません。会話は古い順（依頼が最初）です。新しいターンを先頭に入れたり（insert(0, ...)）、古いメッセージを切り捨てたりせず、messages.append で末尾に足しましょう",
            "Request {request} to the model did not start its messages with the user's task. The API takes it, but the model reads its own calls before the task, or never sees the task. The conversation runs oldest first, the task first: add each turn at the end with messages.append, not at the top (insert(0, ...)), and cut no earlier message.",
        ),
        "grade.l2.c3.tool_runner": (
            'client.beta.messages.tool_runner でループを回しています。これは SDK のループで、この練習で MAX_TURNS のチェックを足すループの代わりにはなりません（渡した tools は定義だけで、実行する関数がないため、どの呼び出しにも "Error: Tool \'...\' not found" が返ります）。client.messages.create を呼び、stop_reason が "tool_use" のあいだ tool_impls でツールを実行して結果を返すループを自分で書き、その先頭で MAX_TURNS と比べます',
            'It loops with client.beta.messages.tool_runner: the SDK\'s own loop, which does not stand in for the loop this exercise has you give a MAX_TURNS check (the tools given to it are definitions only, with no function to run, so every call gets "Error: Tool \'...\' not found"). Write the loop yourself: call client.messages.create and, while stop_reason is "tool_use", run the tools through tool_impls and send their results back, comparing the turns with MAX_TURNS at the top of each lap.',
        ),
        "grade.l2.c3.count_kept": (
            "ちょうど {n} ターンで答えるタスクを同じカーネルで2回続けて走らせると、2回目は答えずに {shown} で終わりました。ターン数を run_agent の外（グローバル変数や、既定値の引数）で数えていませんか。turns = 0 は run_agent の中で、呼ばれるたびに作ります",
            "Run twice in the same kernel, a task that answers after exactly {n:turns} ended the second time with {shown}, not the answer. Is the turn count kept outside run_agent (a global, or a default argument)? Set turns = 0 inside run_agent, on every call.",
        ),
        "grade.l2.c3.cut_at_cap": (
            "ちょうど {n} ターンで答えるタスクが、モデルの答えではなく {shown} で終わりました。MAX_TURNS={n} は {n} ターンまでを許すはずです。判定の位置を見直しましょう",
            "A task that answers after exactly {n:turns} ended with {shown}, not the model's answer. MAX_TURNS={n} should allow {n:turns}; check where you test the limit.",
        ),
        "grade.l2.c3.normal_calls": (
            "普通のタスクでのモデルへのリクエストが {calls} 回でした（{expected} 回のはず）",
            "The normal task made {calls:requests} to the model ({expected} expected).",
        ),
    }
)
