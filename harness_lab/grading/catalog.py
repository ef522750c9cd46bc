"""The exercise graders' strings (ja, en): criteria, hints and verdicts, added to the catalog on import.

Keys ending a hint a ``Check`` can carry follow ``grade.<level>.c<n>.<what>`` (or ``grade.l1.*`` /
``grade.l2.*`` for both criteria of a level, and the generic ``grade.raised`` / ``timeout`` /
``crashed`` / ``memory``); ``tests/grading/test_hint_keys.py`` finds each one provoked by an answer.
"""

from __future__ import annotations

from ..text import add

add(
    {
        # --- the report ---------------------------------------------------------------------------
        "grade.criterion": ("基準{number}", "Criterion {number}"),
        "grade.hint": ("ヒント", "Hint"),
        "grade.mark.pass": ("○ 合格", "[PASS]"),
        "grade.mark.fail": ("× 不合格", "[FAIL]"),
        "grade.mark.note": ("△ 注意", "[NOTE]"),
        "grade.all_passed": (
            "◎ {total}つの基準をすべて満たしました。お見事です！",
            "[PASS] All {total} criteria are met. Well done!",
        ),
        "grade.some_passed": (
            "結果: {total}つの基準のうち {score}つを満たしています。「× 不合格」の行のヒントを手がかりに直して、もう一度実行しましょう。",
            "Result: {score} of {total} criteria met. Use the hints on the [FAIL] lines, fix your code and run again.",
        ),
        "grade.failed": (
            "× 不合格: 基準{numbers} を満たしていません。ヒントは、このセルの出力の「× 不合格」の行にあります（ターミナルでは python3 dev.py grade）",
            "[FAIL] Criteria not met: {numbers}. The hints are on the [FAIL] lines of this cell's output (in a terminal: python3 dev.py grade)",
        ),
        "grade.failed_join": ("・", ", "),
        # --- whatever the exercise ------------------------------------------------------------------
        "grade.raised": (
            "あなたのコードが例外を送出しました: {error}。どこで何が起きたかを、例外の種類とメッセージから追ってみましょう",
            "Your code raised an exception: {error}. Use its type and message to find where and why.",
        ),
        "grade.timeout": (
            "あなたのコードが制限時間内に終わらなかったので、採点のために止めました。無限ループになっていませんか",
            "Your code did not finish within the time limit, so the grader stopped it. Is there an endless loop?",
        ),
        "grade.crashed": (
            "あなたのコードを実行したプロセスが、結果を返す前に終了しました",
            "The process running your code ended before it returned a result.",
        ),
        "grade.tampered": (
            "あなたのコードを実行したプロセスから、正しく動くコードなら返さない答えが届きました。"
            "採点の仕組み（harness_lab.grading）に手を入れず、課題の関数だけを書きましょう",
            "The process running your code sent back an answer no working code sends. Leave the grading "
            "machinery (harness_lab.grading) alone and write only the exercise's functions.",
        ),
        "grade.memory": (
            "あなたのコードがメモリを使いすぎたので（1回の確認につき {mb} MB まで）、採点のために止めました。"
            "終わらないまま伸び続けるリストや履歴がありませんか",
            "Your code used too much memory (the limit is {mb} MB per check), so the grader stopped it. "
            "Does a list or a history keep growing without end?",
        ),
        "grade.raised_at": ("（{function} の `{line}` の行）", " (the line `{line}` in {function})"),
        "grade.try.raised": ("例外が送出されました: {error}", "An exception was raised: {error}"),
        "grade.try.timeout": (
            "{seconds}秒たっても終わらなかったので止めました。無限ループになっていませんか",
            "It did not finish within {seconds} seconds, so it was stopped. Is there an endless loop?",
        ),
        "grade.try.memory": (
            "メモリを使いすぎたので止めました（上限 {mb} MB）。終わらないまま伸び続けるリストがありませんか",
            "It used too much memory, so it was stopped (the limit is {mb} MB). Does a list keep growing without end?",
        ),
        "grade.try.cut": (
            "（出力が長いので、最初の {limit} 文字だけを表示しました）",
            "(the output was long: only its first {limit} characters are shown)",
        ),
        "grade.try.value_cut": (
            "（返り値が長いので、最初の {limit} 文字だけを表示しました）",
            "(the returned value was long: only its first {limit} characters are shown)",
        ),
        # --- level 1: the policy valve ------------------------------------------------------------
        "grade.l1.options.step": (
            'ANSWERS["step"] の選択肢（ポリシー弁が属するループのステップ）:',
            'Options for ANSWERS["step"] (the loop step the policy valve belongs to):',
        ),
        "grade.l1.options.approval": (
            'ANSWERS["approval"] の選択肢（既存の承認弁との関係）:',
            'Options for ANSWERS["approval"] (how it relates to the existing approval valve):',
        ),
        "grade.l1.options.deny": (
            'ANSWERS["deny"] の選択肢（deny に当たったとき、モデルに返すもの）:',
            'Options for ANSWERS["deny"] (what the model gets back on a deny):',
        ),
        "grade.l1.opt.step.before_request": (
            "モデルへのリクエストを送る前に、1回（最大ターン数や予算上限と同じ場所）",
            "once before each request to the model (where max turns and the budget live)",
        ),
        "grade.l1.opt.step.after_response": (
            "応答を受け取った直後に、応答全体に対して1回（無進捗検知と同じ場所）",
            "once right after the response arrives, on the whole response (where no-progress detection lives)",
        ),
        "grade.l1.opt.step.before_tool": (
            "run_tool_uses の中で tool_use ブロックごとに、ツールを実行する直前（承認弁と同じ場所）",
            "inside run_tool_uses, per tool_use block, just before the tool runs (where the approval valve lives)",
        ),
        "grade.l1.opt.step.after_tool": (
            "ツールを実行した後、結果を会話履歴に積む前",
            "after the tool ran, before its result goes into the history",
        ),
        "grade.l1.opt.approval.ask_reuses": (
            "ask の段階が承認弁そのもの。ask では既存の approve に判断を任せ、ポリシー弁はその手前で段階だけを決める",
            "the ask tier is the approval valve: ask hands the decision to the existing approve, and the policy only picks the tier before it",
        ),
        "grade.l1.opt.approval.own_prompt": (
            "ポリシー弁は承認弁とは別に、自前の確認の仕組みを持つ",
            "the policy valve has its own way of asking, separate from the approval valve",
        ),
        "grade.l1.opt.approval.replaces": (
            "ポリシー弁が承認弁を置き換えるので、approve はもう呼ばない",
            "the policy valve replaces the approval valve, so approve is no longer called",
        ),
        "grade.l1.opt.approval.after_approval": (
            "まず承認弁が高インパクトなツールすべてについて人間に尋ね、その答えのあとでポリシー弁が段階を決める",
            "the approval valve first asks a person about every high-impact tool, and the policy decides the tier after the answer",
        ),
        "grade.l1.opt.deny.error_result": (
            "ツールは実行せず、is_error: true の tool_result で、ポリシーで禁止されていることを伝える",
            "run nothing, and return an is_error: true tool_result saying the policy forbids the tool",
        ),
        "grade.l1.opt.deny.drop": (
            "その tool_use には何も返さず、黙って飛ばす",
            "return nothing for that tool_use and silently skip it",
        ),
        "grade.l1.opt.deny.stop_run": (
            "ループ全体をそこで止めて、ユーザーにエラーを返す",
            "stop the whole loop there and return an error to the user",
        ),
        "grade.l1.opt.deny.refusal_text": (
            "人間が拒否したときと同じ文（「ユーザーが拒否しました」）を返す",
            'return the same text as when a person refuses ("the user said no")',
        ),
        "grade.l1.opt.deny.run_and_discard": (
            "ツールは実行するが、結果を捨てて「拒否しました」と返す",
            'run the tool, throw its result away and return "denied"',
        ),
        "grade.l1.answer_missing": (
            'ANSWERS["{question}"] がまだ選ばれていません。level1_options() の一覧から、キーを1つ選びましょう',
            'ANSWERS["{question}"] is not chosen yet. Pick one key from the level1_options() list.',
        ),
        "grade.l1.unknown": (
            'ANSWERS["{question}"] の {value} は選択肢にありません。level1_options() の一覧からキーを1つ選びましょう',
            'ANSWERS["{question}"] is {value}, which is not an option. Pick one key from the level1_options() list.',
        ),
        "grade.l1.c1.title": (
            "3段階（allow / ask / deny）をポリシーのデータで表し、未記載のツールが落ちるデフォルトの段階がある",
            "the policy data expresses three tiers (allow / ask / deny), with a default tier for unlisted tools",
        ),
        "grade.l1.c1.no_default": (
            'DEFAULT_TIER が {value} です。ポリシーに載っていないツールがどの段階に落ちるかを、"allow" / "ask" / "deny" のどれかで決めましょう',
            'DEFAULT_TIER is {value}. Decide which tier ("allow" / "ask" / "deny") a tool missing from the policy falls to.',
        ),
        "grade.l1.c1.empty_policy": (
            "POLICY が空です。課題の表にあるツールそれぞれの段階を、あなたのポリシー構造に書き込みましょう",
            "POLICY is empty. Write the tier of each tool in the exercise's table into your policy structure.",
        ),
        "grade.l1.c1.shape": (
            "POLICY（{kind}）の形を、採点が書き換えて確かめられません。ツール名 → 段階の辞書、段階 → ツール名の集合（リストやタプルでも可）の辞書、"
            "ツール名を受け取って段階を返す関数、のどれかで書きましょう",
            "The grader cannot change POLICY ({kind}) to check it. Write it as a dict of tool name -> tier, a dict of "
            "tier -> set (or list, tuple) of names, or a function that takes a tool name and returns its tier.",
        ),
        "grade.l1.c1.unlisted_error": (
            "ポリシーに載っていないツール {tool} を呼んだところ、例外になりました: {error}。表にない名前が来たときにどうするかを考えましょう",
            "Calling {tool}, which is not in the policy, raised: {error}. Think about what happens when a name is not in the table.",
        ),
        "grade.l1.c1.fell_to_default": (
            "{tool} が POLICY に載っていないので、デフォルトの段階（{default}）に落ちています。課題の表では {expected} です",
            "{tool} is not in POLICY, so it fell to the default tier ({default}). The exercise's table says {expected}.",
        ),
        "grade.l1.c1.listed_wrong": (
            "POLICY では {tool} が {listed} になっています。課題の表では {expected} です",
            "POLICY gives {tool} the tier {listed}. The exercise's table says {expected}.",
        ),
        "grade.l1.c1.mismatch": (
            "{tool} は {expected} のはずが、{seen} として振る舞いました。課題の表と、run_tool_uses がその段階をどう扱っているかを見比べましょう",
            "{tool} should be {expected} but behaved as {seen}. Compare the exercise's table with how run_tool_uses handles that tier.",
        ),
        "grade.l1.c1.default_ignored": (
            "ポリシーに載っていないツール {tool} が、DEFAULT_TIER（{default}）ではなく {seen} として振る舞いました。デフォルトの段階は宣言するだけでなく、実際に使われていますか",
            "{tool}, which is not in the policy, behaved as {seen} instead of DEFAULT_TIER ({default}). Is the default actually used, not just declared?",
        ),
        "grade.l1.c1.not_data_driven": (
            "採点があなたの POLICY を書き換えて {tool} を {tier} にしたところ、{seen} として振る舞いました。"
            "run_tool_uses は呼ばれるたびに POLICY を引いていますか（定義したときに作った写しや、コードに直書きしたツール名ではなく）",
            "The grader changed your POLICY to make {tool} {tier}, and it behaved as {seen}. Does run_tool_uses look "
            "POLICY up on every call (not a copy made once, nor tool names written into the code)?",
        ),
        "grade.l1.c1.allow_warning": (
            "デフォルトが allow です。基準は満たしますが、新しく足したツールが確認なしで走ってしまいます。ask か deny に倒すほうが安全です",
            "The default is allow. The criterion is met, but a newly added tool would run unchecked; ask or deny is safer.",
        ),
        "grade.l1.c2.title": (
            "ポリシーは tool_use ごとに、ツールを実行する前に評価され、ask は承認のコールバックを再利用している",
            "the policy is checked per tool_use before the tool runs, and ask reuses the approval callback",
        ),
        "grade.l1.c2.deny_ran": (
            "deny の結果を返した {tool} が、実際には実行されていました。結果を捨てても、メールはもう送られています",
            "{tool} got a deny result, but it actually ran. Discarding its result does not unsend the email.",
        ),
        "grade.l1.c2.not_asked": (
            "ask の段階のツール（write_file, delete_file, http_post）を呼んでも、approve が一度も呼ばれませんでした。"
            "ask の段階では、既存の承認の仕組み（approve）に判断を任せましょう",
            "approve was never called for the ask tools (write_file, delete_file, http_post). For ask, hand the decision "
            "to the existing approval callback.",
        ),
        "grade.l1.c2.ran_before_asking": (
            "{tool} が、人間の答えを聞く前に実行されました。「いいえ」と言われたときには、もう実行済みです。尋ねる位置を見直しましょう",
            "{tool} ran before the human answered; by the time they say no, it has already run. Look again at where you ask.",
        ),
        "grade.l1.c2.refusal_ignored": (
            "approve に「いいえ」と言われた {tool} が実行されました。尋ねたあと、その答えで実行するかどうかを決めていますか",
            "{tool} ran although approve said no. After asking, do you use the answer to decide whether to run?",
        ),
        "grade.l1.c2.approved_not_run": (
            "承認された {tool} が、ちょうど1回は実行されませんでした（実行回数 {count}）。approve の返り値を正しく読めていますか",
            "The approved {tool} did not run exactly once (ran {count} times). Do you read approve's return value correctly?",
        ),
        "grade.l1.c2.per_call": (
            "1つの応答に {tool} が2回あり、1回目は承認、2回目は拒否されましたが、実行がそのとおりに分かれていません。判定は tool_use ブロック1つずつに行いましょう",
            "One response held two {tool} calls, the first approved and the second refused, but what ran does not match. Decide per tool_use block.",
        ),
        "grade.l1.c2.allowed_skipped": (
            "単独で呼べば実行される {tool} が、拒否や deny の呼び出しと1つの応答に混ざると実行されませんでした。拒否や禁止のあとも、残りの呼び出しの処理を続けましょう",
            "{tool} runs when called alone, but not when it shares a response with refused and denied calls. Keep handling the remaining calls after a refusal or a deny.",
        ),
        "grade.l1.c2.step": (
            'ANSWERS["step"] の {option!r}（{desc}）は、ポリシー弁の場所ではありません。'
            "deny のツールが動き出す前に止められて、しかも呼び出し1つずつに判定できるのはどこでしょう",
            'ANSWERS["step"] is {option!r} ({desc}): that is not where the policy valve goes. Where can it stop a deny '
            "tool before it starts, and judge each call on its own?",
        ),
        "grade.l1.c2.approval": (
            'ANSWERS["approval"] の {option!r}（{desc}）は、あなたの run_tool_uses がしていることと違います。ask のときに何が呼ばれているかを見直しましょう',
            'ANSWERS["approval"] is {option!r} ({desc}), which is not what your run_tool_uses does. Look at what is called for ask.',
        ),
        "grade.l1.c3.title": (
            "deny でも is_error: true の tool_result でポリシーによる禁止を伝え、すべての tool_use に順番どおり1つずつ、API が受け取れる結果を返す",
            "deny still returns an is_error: true tool_result saying the policy forbids it, and every tool_use gets one result, in order, that the API accepts",
        ),
        "grade.l1.c3.no_deny": (
            "deny として振る舞うツールがありませんでした（send_email は {seen} として振る舞いました）。"
            "deny のときに返す tool_result は、deny の段階が働いてはじめて確かめられます。基準1のヒントから直しましょう",
            "No tool behaved as deny (send_email behaved as {seen}), so the result a deny returns cannot be checked. "
            "Start with criterion 1's hint.",
        ),
        "grade.l1.c3.deny_no_result": (
            "deny のツール {tool} だけを呼ぶ応答に、tool_result が {count} 個返りました。呼び出しを宙ぶらりんにせず、ちょうど1つ返しましょう",
            "A response calling only the deny tool {tool} got {count} tool_results back. Leave no call dangling: return exactly one.",
        ),
        "grade.l1.c3.count": (
            "tool_use が {uses} 個ある応答に、tool_result が {results} 個返りました。実行しなかった呼び出しにも結果が要ります",
            "A response with {uses} tool_use blocks got {results} tool_results back. Calls you did not run need a result too.",
        ),
        "grade.l1.c3.type": (
            '返した要素に、type が "tool_result" でないものがあります',
            'Some returned items do not have type "tool_result".',
        ),
        "grade.l1.c3.order": (
            "tool_result の並びが tool_use の順番と違います。呼び出しの順に返しましょう",
            "The tool_results are not in the order of the tool_use blocks. Return them in call order.",
        ),
        "grade.l1.c3.ids": (
            "tool_result の tool_use_id が、対応する tool_use の id と一致していません",
            "The tool_use_id of a tool_result does not match the id of its tool_use.",
        ),
        "grade.l1.c3.no_id": (
            "{position}番目の tool_result に、文字列の tool_use_id がありません。どの tool_use への答えかを "
            '"tool_use_id": block.id で示しましょう（キーの名前は id ではなく tool_use_id です）',
            "Result {position} has no tool_use_id string. Say which tool_use it answers with "
            '"tool_use_id": block.id (the key is tool_use_id, not id).',
        ),
        "grade.l1.c3.deny_not_error": (
            "deny の {tool} に返した tool_result に is_error: true が付いていません。これでは、呼び出しが成功しなかったことがモデルに伝わりません",
            "The tool_result for the denied {tool} lacks is_error: true, so the model is not told the call did not succeed.",
        ),
        "grade.l1.c3.deny_no_reason": (
            "deny の {tool} に返した tool_result の文から、ポリシー（規則）で禁止されていることがモデルに伝わりません。"
            "「使えません」や「拒否しました」だけでは、人間が断ったのか、失敗したのかと区別がつきません。モデルが別の道を選べるよう、理由を書きましょう",
            "The tool_result for the denied {tool} does not tell the model that a policy (a rule) forbids it. "
            '"unavailable" or "denied" alone reads like a person saying no, or a failure. State the reason so the model can take another route.',
        ),
        "grade.l1.c3.refused_not_error": (
            "人間が拒否した {tool} の tool_result に is_error: true が付いていません",
            "The tool_result for the {tool} the human refused lacks is_error: true.",
        ),
        "grade.l1.c3.output_missing": (
            "実行された {tool} の出力が、エラーでない tool_result の content に入っていません",
            "The output of {tool}, which ran, is not in the content of a non-error tool_result.",
        ),
        "grade.l1.c3.api_rejected": (
            "この結果を次の user メッセージとして送ると、API が 400 を返します: {error}",
            "Sent as the next user message, these results get a 400 from the API: {error}",
        ),
        "grade.l1.c3.deny_answer": (
            'ANSWERS["deny"] の {option!r}（{desc}）では、モデルは何が起きたかを正しく知れません。'
            "API がすべての tool_use に結果を求めることと、モデルが別の道を選ぶには何が要るかを考えましょう",
            'ANSWERS["deny"] is {option!r} ({desc}): the model would not learn what happened. Remember the API wants a '
            "result for every tool_use, and think about what the model needs to take another route.",
        ),
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
            "2回目以降のリクエストに tools を渡していない",
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
            "MISSING yielded more than {limit} items. Answer with a dict, not an endless generator.",
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
            "MAX_TURNS が {value} です。2〜20 の整数にしましょう",
            "MAX_TURNS is {value}. Make it an integer from 2 to 20.",
        ),
        "grade.l2.c3.runaway": (
            "tool_use を返し続けるモデルに対して、ループが止まりませんでした。ハーネス側の上限は、実際にループを止めていますか",
            "Against a model that keeps returning tool_use, the loop did not stop. Does the harness's limit actually stop the loop?",
        ),
        "grade.l2.c3.one_early": (
            "MAX_TURNS={n} なのに、ツール呼び出し {rounds} ターン・モデルへのリクエスト {calls} 回で止まりました。1ターン早すぎます。カウンターを進めるのと上限を問うのは、どちらが先でしょう",
            "With MAX_TURNS={n} it stopped after {rounds} tool turns and {calls} requests: one turn early. Which comes first, moving the counter or asking about the limit?",
        ),
        "grade.l2.c3.results_unsent": (
            "ツール呼び出しを {rounds} ターン実行したのに、最後の結果をモデルに返さないまま止まりました（モデルへのリクエスト {calls} 回）。上限は「この一周に入る前に」問うものです。記事の for _ in range(MAX_TURNS) の書き方もこうなります（ノートブック02「上限をどこで問うか」）",
            'It ran {rounds} tool turns but stopped without sending the last results to the model ({calls} requests). The limit is asked before entering a lap of the loop; the article\'s for _ in range(MAX_TURNS) loop does the same (notebook 02, "Where to ask about the limit").',
        ),
        "grade.l2.c3.counts": (
            "MAX_TURNS={n} で、ツール呼び出し {rounds} ターン・モデルへのリクエスト {calls} 回でした。ツール呼び出しは MAX_TURNS ターン、リクエストはそれより1回多くなるはずです",
            "With MAX_TURNS={n} there were {rounds} tool turns and {calls} requests. Expected MAX_TURNS tool turns and one request more.",
        ),
        "grade.l2.c3.counts_blocks": (
            "1つの応答で2〜3個のツールを同時に呼ぶモデルだと、MAX_TURNS={n} なのにツール呼び出し {rounds} ターン（ツールの実行は {runs} 回）で止まりました。"
            "数えるのは tool_use ブロックの数ではなく、ターン（ループの一周）です",
            "Against a model that calls two or three tools per response, MAX_TURNS={n} stopped after {rounds} tool turns ({runs} tool runs). "
            "Count turns (laps of the loop), not tool_use blocks.",
        ),
        "grade.l2.c3.no_stop_message": (
            "上限で止まったときの返り値が {shown} でした。上限に達して止まったことが分かる文（たとえば「ターン数の上限に達したので停止しました」）を返しましょう",
            'When stopped at the limit it returned {shown}. Return a sentence that says the run stopped at the limit (for example "Stopped: reached the turn limit").',
        ),
        "grade.l2.c3.stale_response": (
            "API がリクエストを拒否しました（`tool_use` ids must be unique）: 前の周と同じ古い応答を、もう一度会話履歴に積んでいます。"
            "ループ本体の最後で response = client.messages.create(...) と再代入していますか？（レッスン4 のデッドループ）",
            "The API refused a request (`tool_use` ids must be unique): the same old response went into the history twice. "
            "Does the end of the loop body reassign response = client.messages.create(...)? (lesson 4's dead loop)",
        ),
        "grade.l2.c3.api_rejected": (
            "API がリクエストを 400（anthropic.BadRequestError）で拒否しました: {error}。会話履歴に積んだものを、API の形（tool_result のフィールドと型）と見比べましょう",
            "The API refused a request with a 400 (anthropic.BadRequestError): {error}. Compare what went into the history with the API's shapes (the fields and types of a tool_result).",
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
        "grade.l2.c3.cut_at_cap": (
            "ちょうど {n} ターンで答えるタスクが、モデルの答えではなく {shown} で終わりました。MAX_TURNS={n} は {n} ターンまでを許すはずです。判定の位置を見直しましょう",
            "A task that answers after exactly {n} turns ended with {shown}, not the model's answer. MAX_TURNS={n} should allow {n} turns; check where you test the limit.",
        ),
        "grade.l2.c3.normal_calls": (
            "普通のタスクでのモデルへのリクエストが {calls} 回でした（{expected} 回のはず）",
            "The normal task made {calls} requests to the model ({expected} expected).",
        ),
        # --- grading a notebook file (python -m harness_lab.grading) --------------------------------
        "grade.nb.header": ("== {path}（{exercise}）==", "== {path} ({exercise}) =="),
        "grade.nb.unreadable": (
            "× 不合格: ノートブックとして読めませんでした: {error}",
            "[FAIL] Could not read it as a notebook: {error}",
        ),
        "grade.nb.unknown_exercise": (
            "× 不合格: どの練習のノートブックか分かりませんでした（exercises/ の level1_… か level2_… を、コピーして使いましょう）",
            "[FAIL] Could not tell which exercise this notebook is (start from a copy of exercises/level1_… or level2_…).",
        ),
        "grade.nb.no_answer_cells": (
            "× 不合格: answer タグの付いたセルがありません。配布されたノートブックの TODO のセルに答えを書きましょう",
            "[FAIL] No cell is tagged answer. Write your answers in the TODO cells of the notebook you were given.",
        ),
        "grade.nb.cell_raised": (
            "× 不合格: 答えのセル（{cell}番目のコードセル）が例外を送出しました: {error}",
            "[FAIL] An answer cell (code cell {cell}) raised: {error}",
        ),
        "grade.nb.undefined": (
            "× 不合格: {name} が定義されていません。採点は、タグ answer / setup の付いたセル（TODO のセルと準備のセル）だけを実行します",
            "[FAIL] {name} is not defined. Grading runs only the cells tagged answer / setup (the TODO cells and the setup cells).",
        ),
        "grade.nb.name_note": (
            "△ 注意: NameError が出ています。採点が実行するのは、タグ answer / setup の付いたセルだけです。自分で足したセルの定義は、TODO のセルに移しましょう",
            "[NOTE] There is a NameError. Grading runs only the cells tagged answer / setup: move definitions from cells you added into a TODO cell.",
        ),
        "grade.nb.cell_timeout": (
            "× 不合格: answer のセル {cell} が {seconds} 秒たっても終わりませんでした。セルの一番外側でループが止まらなくなっていませんか（答えのセルは関数や値を定義するだけです）",
            "[FAIL] answer cell {cell} did not finish within {seconds} s. Does a loop at the cell's top level never end? (answer cells only define functions and values)",
        ),
        "grade.nb.timeout": (
            "× 不合格: {seconds}秒以内に採点が終わらなかったので止めました。答えのセルに、終わらないコードがありませんか",
            "[FAIL] Grading did not finish within {seconds} seconds, so it was stopped. Does an answer cell run code that never ends?",
        ),
        "grade.nb.memory": (
            "× 不合格: 答えのセルがメモリを使いすぎたので止めました（上限 {mb} MB）",
            "[FAIL] The answer cells used too much memory, so grading was stopped (the limit is {mb} MB).",
        ),
        "grade.nb.crashed": (
            "× 不合格: 答えのセルを実行したプロセスが、結果を返す前に終了しました",
            "[FAIL] The process running the answer cells ended before it returned a result.",
        ),
        "grade.nb.summary": (
            "{passed} / {total} 冊のノートブックが、すべての基準を満たしました",
            "{passed} of {total} notebooks meet every criterion",
        ),
        # --- grading a class (harness-lab grade-class): the instructor's terminal ---------------------
        "grade.class.progress": (
            "採点中 {done}/{total}（タイムアウト {timeouts}・エラー {errors}）",
            "Grading {done}/{total} ({timeouts} timeouts, {errors} errors)",
        ),
        "grade.class.done": (
            "ノートブック {total} 冊を {seconds} 秒で処理しました（新しく採点 {graded} 冊・前回の結果のまま {reused} 冊）",
            "Processed {total} notebooks in {seconds} s ({graded} graded now, {reused} unchanged since the last run)",
        ),
        "grade.class.written": ("レポートを書き出しました: {path}", "Report written to {path}"),
        "grade.class.interrupted": (
            "中断しました。採点の済んだ {done} 冊は {state} に記録してあるので、同じコマンドをもう一度実行すると続きから採点します",
            "Interrupted. The {done} notebooks graded so far are recorded in {state}; run the same command again to continue.",
        ),
        "grade.class.no_folder": ("提出フォルダーが見つかりません: {path}", "No submissions folder at {path}"),
        "grade.class.out_inside": (
            "レポートの書き出し先 {out} が、提出フォルダー {submissions} の中にあります。提出フォルダーの外を指定してください",
            "The report folder {out} is inside the submissions folder {submissions}; choose a folder outside it.",
        ),
        "grade.class.out_taken": (
            "{out} にはすでにファイルがありますが、grade-class のレポートではありません（{state} がありません）。"
            "新しいフォルダーか、空のフォルダーを指定してください",
            "{out} already holds files but is not a grade-class report ({state} is missing); choose a new or empty folder.",
        ),
        "grade.class.state_unreadable": (
            "前回の記録 {state} を読めなかったので、すべて採点し直します: {error}",
            "Could not read the last run's record {state}, so everything is graded again: {error}",
        ),
        # --- grading a class: the report's words ----------------------------------------------------
        "grade.class.title": ("クラスの採点結果", "Class grading report"),
        "grade.class.summary": (
            "受講者 {learners} 人・ノートブック {notebooks} 冊: すべての基準を満たした {passed} 冊、タイムアウト {timeouts} 冊、"
            "エラー {errors} 冊、未提出 {missing} 件、採点しなかったファイル {skipped} 件",
            "{learners} learners, {notebooks} notebooks: {passed} meet every criterion, {timeouts} timeouts, "
            "{errors} errors, {missing} not handed in, {skipped} files not graded",
        ),
        "grade.class.rates": ("{exercise}: 基準ごとの通過率", "{exercise}: pass rate per criterion"),
        "grade.class.rates_note": (
            "提出された {total} 冊のうち、その基準を満たした冊数の割合です（タイムアウトとエラーは、満たしていないと数えます）",
            "The share of the {total} notebooks handed in that meet each criterion (timeouts and errors count as not met).",
        ),
        "grade.class.rate": ("{percent}%（{passed}/{total}）", "{percent}% ({passed}/{total})"),
        "grade.class.hints": ("よく出たヒント", "Most common hints"),
        "grade.class.no_hints": ("ヒントの出た基準はありません", "No criterion gave a hint."),
        "grade.class.sample": ("{learner} さんの答えのセル（{notebook}）", "{learner}'s answer cells ({notebook})"),
        "grade.class.sample_cut": (
            "（長いので、最初の {lines} 行だけを表示しました）",
            "(long: only the first {lines} lines are shown)",
        ),
        "grade.class.failures": ("タイムアウトとエラー", "Timeouts and errors"),
        "grade.class.no_failures": ("タイムアウトもエラーもありません", "No timeouts and no errors."),
        "grade.class.missing_title": ("未提出", "Not handed in"),
        "grade.class.skipped_title": ("採点しなかったファイル", "Files not graded"),
        "grade.class.none": ("ありません", "None."),
        "grade.class.col.count": ("件数", "Count"),
        "grade.class.col.exercise": ("演習", "Exercise"),
        "grade.class.col.criterion": ("基準", "Criterion"),
        "grade.class.col.hint": ("ヒント", "Hint"),
        "grade.class.col.sample": ("答えの例", "Sample answer"),
        "grade.class.col.learner": ("受講者", "Learner"),
        "grade.class.col.notebook": ("ノートブック", "Notebook"),
        "grade.class.col.file": ("ファイル", "File"),
        "grade.class.col.status": ("状態", "Status"),
        "grade.class.col.message": ("内容", "Message"),
        "grade.class.status.ok": ("採点済み", "graded"),
        "grade.class.status.timeout": ("タイムアウト", "timeout"),
        "grade.class.status.error": ("エラー", "error"),
        "grade.class.status.missing": ("未提出", "not handed in"),
        "grade.class.footer": (
            "採点コードの版 {version}・制限時間はノートブック1冊につき {seconds} 秒",
            "Grader version {version}; time limit {seconds} s per notebook",
        ),
        # --- grading a class: lines in a learner's feedback file -------------------------------------
        "grade.class.feedback_title": ("{learner} さんの採点結果", "Grading results for {learner}"),
        "grade.class.missing": (
            "× 不合格: {exercise} のノートブックが提出されていません",
            "[FAIL] No notebook was handed in for {exercise}.",
        ),
        "grade.class.not_notebook": (
            "{name} はノートブック（.ipynb）ではないので、採点していません",
            "{name} is not a notebook (.ipynb), so it was not graded.",
        ),
        "grade.class.not_regular": (
            "{name} は普通のファイルではない（シンボリックリンクなど）ので、採点していません",
            "{name} is not a regular file (a symbolic link, say), so it was not graded.",
        ),
        "grade.class.too_large": (
            "{name} は {mb} MB あり、大きすぎるので採点していません（上限 {limit} MB）",
            "{name} is {mb} MB, too large to grade (the limit is {limit} MB).",
        ),
        "grade.class.no_notebooks": ("このフォルダーにはノートブックがありません", "This folder holds no notebook."),
        "grade.class.outside": (
            "{name} は受講者ごとのフォルダー（提出フォルダー/受講者名/）の外にあるので、採点していません",
            "{name} is outside the per-learner folders (SUBMISSIONS/<learner>/), so it was not graded.",
        ),
        "grade.class.unreadable_folder": (
            "フォルダーを読めませんでした: {error}",
            "Could not read the folder: {error}",
        ),
        "grade.class.worker_died": (
            "採点する側のプロセスが、結果を返す前に止まりました（採点の仕組みの不具合で、答えの誤りではありません）。"
            "次に grade-class を実行すると、このノートブックを採点し直します",
            "The grader's own process stopped before it returned a result (a failure of the grading machinery, "
            "not of the answer). The next grade-class run grades this notebook again.",
        ),
        "grade.class.internal": (
            "採点する側でエラーが起きました（答えの誤りではありません）: {error}。講師に知らせてください",
            "The grader itself failed on this notebook (not a fault of the answer): {error}. Please tell your instructor.",
        ),
    }
)

add(
    {
        # --- the sandbox around learner code (grade, grade-class; isolation.py, runner.py) ----------
        "grade.sandbox.missing": (
            "受講者のコードを閉じ込めるサンドボックス bubblewrap（bwrap）が見つからないので、採点しません。"
            "Debian / Ubuntu なら root で `apt-get install bubblewrap` を実行してください。"
            "隔離せずに採点するなら --unsandboxed を付けます（受講者のコードが、このコマンドを実行した人の権限で、"
            "ファイル・環境変数・ほかのプロセスに届きます）",
            "bubblewrap (bwrap), the sandbox that confines learner code, was not found, so nothing was graded. "
            "On Debian / Ubuntu run `apt-get install bubblewrap` as root. To grade without isolation pass "
            "--unsandboxed (learner code then runs with your rights and reaches your files, environment and processes).",
        ),
        "grade.sandbox.broken": (
            "bubblewrap のサンドボックスを用意できなかったので、採点しません: {reason}。"
            "ユーザー名前空間が使えるか（Debian / Ubuntu の bubblewrap パッケージ）を確かめてください。"
            "隔離せずに採点するなら --unsandboxed を付けます",
            "The bubblewrap sandbox could not be set up, so nothing was graded: {reason}. Check that user "
            "namespaces are available (Debian / Ubuntu's bubblewrap package). To grade without isolation pass --unsandboxed.",
        ),
        "grade.sandbox.leaks": (
            "bubblewrap のサンドボックスが受講者のコードを閉じ込めていないので、採点しません（試しに動かしたコードが届いたもの: {findings}）。"
            "PATH の bwrap が Debian / Ubuntu の bubblewrap か確かめてください。隔離せずに採点するなら --unsandboxed を付けます",
            "The bubblewrap sandbox does not confine learner code, so nothing was graded (what a probe reached: "
            "{findings}). Check that the bwrap on PATH is Debian / Ubuntu's bubblewrap. To grade without isolation pass --unsandboxed.",
        ),
        "grade.sandbox.finding.read": ("外のファイルを読めた", "read a file outside"),
        "grade.sandbox.finding.connect": ("ローカルのポートにつながった", "connected to a local port"),
        "grade.sandbox.finding.environment": ("呼び出し元の環境変数が見えた", "saw the caller's environment variables"),
        "grade.sandbox.finding.write": (
            "採点パッケージか venv に書き込めた",
            "could write into the grading package or venv",
        ),
        "grade.sandbox.finding.terminal": ("端末を開けた", "opened a terminal"),
        "grade.sandbox.finding.processes": ("呼び出し元のプロセスが見えた", "saw the caller's processes"),
        "grade.sandbox.finding.capabilities": ("特権（capability）を持っていた", "held capabilities"),
        "grade.sandbox.finding.root": ("root のままだった", "was still root"),
        "grade.class.no_host": (
            "採点用のプロセスを起動できなかったので、採点しません: {reason}",
            "Could not start a grading process, so nothing was graded: {reason}",
        ),
        "grade.class.unsandboxed": (
            "注意: 隔離なしで採点しました（--unsandboxed）。受講者のコードは、採点を実行した人の権限で動き、"
            "そのファイル・環境変数・プロセスに届きました",
            "Warning: graded without isolation (--unsandboxed). Learner code ran with the rights of whoever "
            "graded, and could reach their files, environment and processes.",
        ),
    }
)
