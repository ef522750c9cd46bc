"""The lesson-6 check's strings for valve 2 in ``run_agent``, the token budget (ja, en): each way a loop
counts the tokens otherwise than the package's ``TokenBudget`` (a field left out, counted twice, counted
late or compared the wrong way). Braces that are not placeholders are doubled (every entry is formatted)."""

from __future__ import annotations

from ..text import add

add(
    {
        "lesson.l6.valve.token_budget": ("弁2（トークン予算）", "valve 2 (token budget)"),
        "lesson.l6.run_agent.budget_after_answer": (
            "予算 {budget} を超えたのは答えの応答でしたが、弁2（トークン予算）が止めて、答えを捨てました。答えはもう受け取って払った後で、止める次の一周はありません。弁2 は応答を受け取った直後ではなく、次の一周に入る前（ループの先頭）に尋ねます",
            "The response that crossed the budget of {budget} was the answer, yet valve 2 (token budget) stopped the run and threw the answer away. It had already come and been paid for, and there was no next lap to stop; valve 2 asks before the next lap (at the top of the loop), not right after a response",
        ),
        "lesson.l6.run_agent.budget_reached": (
            "使ったトークンが予算 {budget} にちょうど達したのに、もう1回リクエストを送りました。弁2 は「予算に達したら」止めます（> ではなく >=）",
            "The tokens used reached the budget of {budget} exactly, yet it sent one more request; valve 2 stops once the budget is reached (>=, not >)",
        ),
        "lesson.l6.run_agent.budget_count_tokens": (
            "tokens_used は {used} でした（実際に使ったのは {total} トークン）。client.messages.count_tokens が数えるのは、これから送るプロンプトの大きさだけで、使ったトークンではありません（出力も、これまでのリクエストの分も入りません）。応答ごとに response.usage の input_tokens・キャッシュ書き込み・キャッシュ読み込み・output_tokens を tokens_used += で足し上げます",
            "tokens_used was {used} ({total:tokens} were used in all). client.messages.count_tokens counts the size of the prompt about to be sent, not the tokens used (no output, nothing of the requests before it); add up each response's response.usage (input_tokens, cache writes, cache reads and output_tokens) with tokens_used +=",
        ),
        "lesson.l6.run_agent.budget_output_twice": (
            "output_tokens（{output}）を2回足しています（tokens_used は {used}）。ストリームなら、message_delta が伝える usage.output_tokens と、get_final_message() の usage.output_tokens は、同じ出力を数えたものです。応答ごとに usage の4つの数を1回ずつ足します",
            "It adds the output_tokens ({output:tokens}) twice (tokens_used was {used}). With a stream, the usage.output_tokens a message_delta reports and the one of get_final_message() count the same output; add each of a response's four usage counts once",
        ),
        "lesson.l6.run_agent.budget_last_only": (
            "tokens_used は {used} で、最後の応答の分だけです（実際に使ったのは {total} トークン）。tokens_used = ではなく tokens_used += で、応答ごとに足し上げます",
            "tokens_used was {used}, the last response's alone ({total:tokens} were used in all); add up each response with tokens_used +=, not tokens_used =",
        ),
        "lesson.l6.run_agent.budget_after_tools": (
            "弁2（トークン予算）が止めたのは、予算を超えた応答のツールを実行した後でした（ツール {rounds} ターン。パッケージの Run は {want_rounds} ターン）。ツールの後で予算を問うと、超えた応答の呼び出しまで走ります。弁2は本体の先頭（ツールを実行する前、turns += 1 の手前）で問います",
            "Valve 2 (token budget) stopped it only after the tools of the response that crossed the budget had run ({rounds:tool turns}; the package's Run: {want_rounds}): asked after the tools, the budget lets that response's calls run. Ask valve 2 at the top of the loop body (before the tools run, before turns += 1)",
        ),
        "lesson.l6.run_agent.budget_output_only": (
            "tokens_used は {used} でしたが、実際に使ったのは {total} トークンです。output_tokens だけでは、毎回送り直す履歴（input_tokens と、プロンプトキャッシュを使うなら cache_creation_input_tokens・cache_read_input_tokens）が抜けます。応答ごとに input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens を足します",
            "tokens_used was {used}, but {total:tokens} were used: output_tokens alone leaves out the history sent again each time (input_tokens, and with prompt caching cache_creation_input_tokens and cache_read_input_tokens). Add input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens after each response",
        ),
        "lesson.l6.run_agent.budget_input_only": (
            "tokens_used は {used} でしたが、実際に使ったのは {total} トークンです。input_tokens だけでは、モデルが書いた分（output_tokens）と、プロンプトキャッシュのキャッシュ書き込み・読み込みが抜けます。応答ごとに input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens を足します",
            "tokens_used was {used}, but {total:tokens} were used: input_tokens alone leaves out what the model wrote (output_tokens) and prompt caching's cache writes and reads. Add input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens after each response",
        ),
        "lesson.l6.run_agent.budget_first_missing": (
            "最初の応答のトークン（{first}）が数えられていません。ループに入る前の client.messages.create(...) のあとにも tokens_used を足します",
            "The first response's tokens ({first}) were not counted; add to tokens_used after the client.messages.create(...) before the loop too",
        ),
        "lesson.l6.run_agent.budget_counted_late": (
            "最後の応答のトークンが数えられないまま（{used}）、予算 {budget} を越えて回りました。応答を数えるのが一周遅れで、弁2 が見たあとに足しています。client.messages.create(...) の直後に tokens_used を足します",
            "The latest response's tokens were never counted ({used}), and it went past the budget of {budget}: each response is counted a lap late, after valve 2 looks. Add to tokens_used right after each client.messages.create(...)",
        ),
        "lesson.l6.run_agent.budget_cache_twice": (
            "tokens_used は {used} でしたが、API が数えたのは {total} トークンです。キャッシュ書き込みとキャッシュ読み込みの {cached} トークンを2回足しています。input_tokens はキャッシュされなかった分だけなので、応答ごとに input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens を1回ずつ足します。2回数えると、弁2 は予算より早く止めます",
            "tokens_used was {used}, but the API billed {total:tokens}: the {cached:tokens} of cache writes and cache reads are added twice. input_tokens is the uncached part only, so add input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens once each after every response; counted twice, valve 2 stops before the budget is reached",
        ),
        "lesson.l6.run_agent.budget_overcounted": (
            "tokens_used は {used} でしたが、API が数えたのは {total} トークンで、{extra} トークン多く数えています。同じトークンを2回足していませんか。cache_creation（5分・1時間の内訳）は cache_creation_input_tokens と同じトークンの内訳です。応答ごとに input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens を1回ずつ足します",
            "tokens_used was {used}, but the API billed {total:tokens}: {extra:tokens} too many, some counted twice. cache_creation (the 5-minute and 1-hour breakdown) splits the same tokens as cache_creation_input_tokens; add input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens once each after every response",
        ),
        "lesson.l6.run_agent.budget_field_omitted": (
            "tokens_used は {used} でしたが、使ったのは {total} トークンです。{field} の {missing} トークンが数えられていません。プロンプトキャッシュを使うと、履歴の大半は input_tokens ではなく cache_creation_input_tokens（キャッシュ書き込み）と cache_read_input_tokens（キャッシュ読み込み）に数えられます。応答ごとに input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens を足します（キャッシュのフィールドが None なら 0 として）",
            "tokens_used was {used}, but {total:tokens} were used: the {missing:tokens} of {field} were not counted. With prompt caching, most of the history is counted in cache_creation_input_tokens (cache writes) and cache_read_input_tokens (cache reads), not input_tokens. Add input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens after each response (a None cache field as 0)",
        ),
        "lesson.fields_joiner": ("・", " and "),  # between the usage fields a count left out
        "lesson.l6.run_agent.budget_cache_omitted": (
            "tokens_used は {used} でしたが、キャッシュ書き込みとキャッシュ読み込みの {cached} トークンが入っていません（使ったのは合わせて {total} トークン）。プロンプトキャッシュを使うと、履歴の大半は input_tokens ではなく cache_creation_input_tokens と cache_read_input_tokens に数えられます。応答ごとに input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens を足します（None なら 0 として）",
            "tokens_used was {used}, leaving out {cached:tokens} of cache writes and cache reads ({total:tokens} were used in all): with prompt caching, most of the history is counted in cache_creation_input_tokens and cache_read_input_tokens, not input_tokens. Add input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens after each response (a None counts as 0)",
        ),
        "lesson.l6.run_agent.budget_not_total": (
            "tokens_used の数え方は合っていますが、弁2（トークン予算）が止めたのは応答 {stopped} 回目のあとでした。累計が予算 {budget} に達したのは応答 {reached} 回目のあと（累計 {total} トークン）です。"
            "弁2 は、累計の tokens_used ではないもの（1回の応答のトークンや、入力だけの累計など）と比べています。本体の先頭で tokens_used >= TOKEN_BUDGET と比べます",
            "tokens_used is counted right, but valve 2 (token budget) stopped it only after response {stopped}, while the running total reached the budget of {budget} after response {reached} ({total:tokens}): "
            "valve 2 compares something other than the running total tokens_used (one response's tokens, the input alone...). Compare tokens_used >= TOKEN_BUDGET at the top of the body",
        ),
        "lesson.l6.run_agent.budget_max_tokens": (
            "tokens_used が {used} で、リクエストの max_tokens を足した数です。max_tokens は応答の長さの上限で、使った数ではありません。"
            "応答ごとに response.usage の input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens を足します（この確認では {total} トークン）",
            "tokens_used is {used}, the sum of the requests' max_tokens: max_tokens is the ceiling on a response's length, not what it used. "
            "Add each response's response.usage input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens ({total:tokens} in this check)",
        ),
        "lesson.l6.run_agent.budget_ignored": (
            "確認は TOKEN_BUDGET = {budget} にして試しましたが、{used} トークンまで止まりませんでした。上限はモジュールの変数 TOKEN_BUDGET から読みます（引数で受け取るなら名前を token_budget に）",
            "The check set TOKEN_BUDGET = {budget}, yet it ran to {used:tokens}; read the limit from the module variable TOKEN_BUDGET (or an argument named token_budget)",
        ),
        "lesson.l6.run_agent.budget_not_counted": (
            "弁2 が働いていません（確認の予算は {budget}）。応答ごとに input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens を tokens_used に足し、本体の先頭で TOKEN_BUDGET と比べます。lessons.stopped にも tokens_used を渡します",
            "Valve 2 did not act (the check's budget: {budget}); add input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens to tokens_used after each response, compare with TOKEN_BUDGET at the top of the body, and pass tokens_used to lessons.stopped",
        ),
        "lesson.l6.run_agent.budget_too_early": (
            "弁2（トークン予算）が止めましたが、予算 {budget} に対して使ったのは {used} トークンです。tokens_used の足し方と、比べる相手を確かめます",
            "Valve 2 (token budget) stopped it, but only {used} of the {budget:tokens} were used; check how tokens_used is added up and what it is compared with",
        ),
        "lesson.l6.run_agent.budget_below": (
            "予算 {budget} に届く前（使ったのは {used} トークン）に、弁2 が止めました。弁2 は使ったトークンが予算に達したとき（tokens_used >= TOKEN_BUDGET）に止めます。"
            "TOKEN_BUDGET - 1 と比べたり、次の応答の分（max_tokens など）を見込んで足したりしていませんか",
            "Valve 2 stopped it before the budget of {budget} was reached ({used:tokens} used); valve 2 stops once the tokens used reach the budget "
            "(tokens_used >= TOKEN_BUDGET). Does it compare with TOKEN_BUDGET - 1, or add what the next response may use (max_tokens, say)?",
        ),
    }
)
