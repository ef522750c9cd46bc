"""The lesson-7 check's strings (notebook 06, the loop on the 2026 API), ja and en, and its steps."""

from __future__ import annotations

from ..text import add

add(
    {
        "lesson.l7.stop_message.p1": (
            "refusal では、stop_details の説明（explanation）と分類（category）を停止メッセージに入れる",
            "on a refusal, the stop message carries stop_details' explanation and category",
        ),
        "lesson.l7.stop_message.p2": (
            "stop_details の説明や分類が欠けた refusal でも、あるものを入れた空でない停止メッセージを返す（None とは書かない）",
            "a refusal whose stop_details lacks the explanation, the category or both still gets a non-empty stop message with what there is (without the word None)",
        ),
        "lesson.l7.stop_message.p3": (
            "model_context_window_exceeded と max_tokens では、どちらで止まったかと途中までの text を停止メッセージに入れる",
            "on model_context_window_exceeded and max_tokens, the stop message says which one stopped the run and keeps the partial text",
        ),
        "lesson.l7.stop_message.p4": (
            "ループが続ける応答（tool_use・pause_turn）と、答えで終わる応答（end_turn・stop_sequence）には None を返す",
            "a response the loop goes on after (tool_use, pause_turn), or one that ends with an answer (end_turn, stop_sequence), gets None",
        ),
        "lesson.l7.stop_message.not_text": (
            "停止メッセージは文字列（止めないなら None）で返します。返ってきたのは {got} でした",
            "Return the stop message as a string (None when the loop does not stop); it returned a {got}",
        ),
        "lesson.l7.stop_message.shows_none": (
            "分類も説明もない refusal で、停止メッセージに None と出ました（{got}）。None のときは「分類なし」「説明はありません」のような言葉に置き換えます",
            'For a refusal with no category or explanation the stop message shows None ({got}); put words such as "no category" or "no explanation given" in its place',
        ),
        "lesson.l7.stop_message.silent_everywhere": (
            'refusal、model_context_window_exceeded、max_tokens のどれで止まるときも、停止メッセージが空（None か ""）です。人には、なぜ止まったかを伝えます',
            'The run stops on refusal, model_context_window_exceeded and max_tokens, but the stop message is empty (None or "") on each; tell the person why it stopped',
        ),
        "lesson.l7.stop_message.silent": (
            '{reason} で止まるのに、停止メッセージが空（None か ""）です。人には、なぜ止まったかを伝えます',
            'The run stops on {reason} but the stop message is empty (None or ""); tell the person why it stopped',
        ),
        "lesson.l7.stop_message.printed": (
            "止まる応答で、停止メッセージを print して None を返しました。ループが人に渡せるように、文を return します",
            "For a response that stops the run, it printed the stop message and returned None; return the text, so the loop can hand it to the person",
        ),
        "lesson.l7.stop_message.no_explanation": (
            "refusal の理由が入っていません。response.stop_details.explanation を停止メッセージに入れます",
            "The refusal's reason is missing; put response.stop_details.explanation into the stop message",
        ),
        "lesson.l7.stop_message.no_category": (
            "refusal の分類が入っていません。response.stop_details.category も停止メッセージに入れます",
            "The refusal's category is missing; put response.stop_details.category into the stop message as well",
        ),
        "lesson.l7.stop_message.lost_text": (
            "{reason} で止まった応答の、途中までの text が停止メッセージにありません。モデルが書いたものは捨てずに渡します",
            "The partial text of the response that stopped on {reason} is not in the stop message; pass on what the model wrote",
        ),
        "lesson.l7.stop_message.text_apart": (
            "{reason} で止まった応答の途中までの text が、ひと続きの文になっていません（{got}）。"
            "text ブロックの文字を順につないでから（\"\".join(...)）入れます。リストのまま f-string に入れると、['…'] の形のまま人に見えます",
            "The partial text of the response that stopped on {reason} is not one piece of text ({got}); "
            "join the text blocks' text in order (\"\".join(...)) before putting it in: a list put into an f-string shows the person its ['…']",
        ),
        "lesson.l7.stop_message.no_reason": (
            "{reason} で止まった応答に、途中までの text だけを返しました。人には、なぜ止まったか（答えが途中で切れたこと）も伝えます",
            "For the response that stopped on {reason} it returned only the partial text; tell the person why it stopped (the answer was cut off) as well",
        ),
        "lesson.l7.stop_message.same_reason": (
            "model_context_window_exceeded と max_tokens に、同じ停止メッセージ（{got}）を返しました。どちらで止まったかを書きます"
            "（次の手が違います: 会話履歴を短くするか、max_tokens を大きくするか）",
            "It gave model_context_window_exceeded and max_tokens the same stop message ({got}); say which one stopped the run "
            "(the next step differs: a shorter history, or a larger max_tokens)",
        ),
        "lesson.l7.stop_message.not_none": (
            "{reason} の応答で停止メッセージを返しました（{got}）。ループが続ける応答と、答えで終わる応答には None を返します",
            "It returned a stop message for a {reason} response ({got}); return None when the loop goes on or ends with an answer",
        ),
        "lesson.hint.stop_message": (
            "手順:\n"
            "1. text = 応答の text ブロックをつないだもの（思考ブロックは飛ばす）\n"
            '2. stop_reason が "refusal" なら、response.stop_details の category と explanation を入れた文を返す（どちらも None のことがある）\n'
            '3. "model_context_window_exceeded" か "max_tokens" なら、止まった理由と text を入れた文を返す\n'
            "4. それ以外は None を返す",
            "Steps:\n"
            "1. text = the response's text blocks joined (skip the thinking blocks)\n"
            '2. if stop_reason is "refusal", return a sentence with response.stop_details\' category and explanation (either may be None)\n'
            '3. if it is "model_context_window_exceeded" or "max_tokens", return why it stopped and the text\n'
            "4. otherwise return None",
        ),
    }
)
