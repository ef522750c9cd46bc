"""The exercise graders' strings (ja, en): criteria, hints and verdicts, added to the catalog on import."""

from __future__ import annotations

from ..text import add

add({
    "grade.criterion": (
        '基準{number}',
        'Criterion {number}',
    ),
    "grade.hint": (
        'ヒント',
        'Hint',
    ),
    "grade.all_passed": (
        '🎉 {total}つの基準をすべて満たしました。お見事です！',
        '🎉 All {total} criteria are met. Well done!',
    ),
    "grade.some_passed": (
        '結果: {total}つの基準のうち {score}つを満たしています。❌ の行のヒントを手がかりに直して、もう一度このセルを実行しましょう。',
        'Result: {score} of {total} criteria met. Use the hints on the ❌ lines, fix your code and run this cell again.',
    ),
    "grade.l2.c3.stale_response": (
        "API がリクエストを拒否しました（`tool_use` ids must be unique）: 前の周と同じ古い応答を、もう一度履歴に積んでいます。"
        "ループ本体の最後で response = client.messages.create(...) と再代入していますか？（レッスン4 のデッドループ）",
        "The API refused a request (`tool_use` ids must be unique): the same old response went into the history twice. "
        "Does the end of the loop body reassign response = client.messages.create(...)? (lesson 4's dead loop)",
    ),
    "grade.raised": (
        'あなたのコードが例外を送出しました: {error}。どこで何が起きたかを、例外の種類とメッセージから追ってみましょう',
        'Your code raised an exception: {error}. Use its type and message to find where and why.',
    ),
    "grade.timeout": (
        'あなたのコードが制限時間内に終わらなかったので、採点のために止めました。無限ループになっていませんか',
        'Your code did not finish within the time limit, so the grader stopped it. Is there an endless loop?',
    ),
    "grade.crashed": (
        'あなたのコードを実行したプロセスが、結果を返す前に終了しました',
        'The process running your code ended before it returned a result.',
    ),
    "grade.raised_at": (
        '（{function} の `{line}` の行）',
        ' (the line `{line}` in {function})',
    ),
    "grade.try.raised": (
        '例外が送出されました: {error}',
        'An exception was raised: {error}',
    ),
    "grade.try.timeout": (
        '{seconds}秒たっても終わらなかったので止めました。無限ループになっていませんか',
        'It did not finish within {seconds} seconds, so it was stopped. Is there an endless loop?',
    ),
    "grade.try.cut": (
        '（出力が長いので、最初の {limit} 文字だけを表示しました）',
        '(the output was long: only its first {limit} characters are shown)',
    ),
    "grade.l1.c1.title": (
        '3段階（allow / ask / deny）のポリシーと、未記載のツールが落ちるデフォルトの段階がある',
        'a policy with three tiers (allow / ask / deny) and a default tier for unlisted tools',
    ),
    "grade.l1.c1.no_default": (
        'DEFAULT_TIER が {value} です。ポリシーに載っていないツールがどの段階に落ちるかを、"allow" / "ask" / "deny" のどれかで決めましょう',
        'DEFAULT_TIER is {value}. Decide which tier ("allow" / "ask" / "deny") a tool missing from the policy falls to.',
    ),
    "grade.l1.c1.empty_policy": (
        'POLICY が空です。課題の表にあるツールそれぞれの段階を、あなたのポリシー構造に書き込みましょう',
        "POLICY is empty. Write the tier of each tool in the exercise's table into your policy structure.",
    ),
    "grade.l1.c1.unlisted_error": (
        'ポリシーに載っていないツール {tool} を呼んだところ、例外になりました: {error}。表にない名前が来たときにどうするかを考えましょう',
        'Calling {tool}, which is not in the policy, raised: {error}. Think about what happens when a name is not in the table.',
    ),
    "grade.l1.c1.mismatch": (
        '{tool} は {expected} のはずが、{seen} として振る舞いました。課題の表と、あなたのポリシーの引き方を見比べましょう',
        "{tool} should be {expected} but behaved as {seen}. Compare the exercise's table with how your code looks the tier up.",
    ),
    "grade.l1.c1.default_ignored": (
        'ポリシーに載っていないツール {tool} が、DEFAULT_TIER（{default}）ではなく {seen} として振る舞いました。デフォルトの段階は宣言するだけでなく、実際に使われていますか',
        '{tool}, which is not in the policy, behaved as {seen} instead of DEFAULT_TIER ({default}). Is the default actually used, not just declared?',
    ),
    "grade.l1.c1.allow_warning": (
        'デフォルトが allow です。基準は満たしますが、新しく足したツールが確認なしで走ってしまいます。ask か deny に倒すほうが安全です',
        'The default is allow. The criterion is met, but a newly added tool would run unchecked; ask or deny is safer.',
    ),
    "grade.l1.c2.title": (
        'ポリシーは tool_use ごとに、ツールを実行する前に評価され、ask は承認のコールバックを再利用している',
        'the policy is checked per tool_use before the tool runs, and ask reuses the approval callback',
    ),
    "grade.l1.c2.deny_ran": (
        'deny のツール（send_email）が実際に実行されてしまいました。結果を捨てても、メールはもう送られています',
        'The deny tool (send_email) actually ran. Discarding its result does not unsend the email.',
    ),
    "grade.l1.c2.not_asked": (
        'ask のツール（write_file）で approve が呼ばれませんでした。ask の段階では、既存の承認の仕組み（approve）に判断を委ねましょう',
        'approve was not called for the ask tool (write_file). For ask, hand the decision to the existing approval callback.',
    ),
    "grade.l1.c2.ran_before_asking": (
        'write_file が、人間の答えを聞く前に実行されました。「いいえ」と言われたときには、ファイルはもう書かれています。尋ねる位置を見直しましょう',
        'write_file ran before the human answered; by the time they say no, the file is already written. Look again at where you ask.',
    ),
    "grade.l1.c2.approved_not_run": (
        '承認された write_file が実行されませんでした（実行回数 {count}）。approve の返り値を正しく読めていますか',
        "The approved write_file did not run exactly once (ran {count} times). Do you read approve's return value correctly?",
    ),
    "grade.l1.c2.per_call": (
        '1つの応答に write_file が2回あり、1回目は承認、2回目は拒否されましたが、実行がそのとおりに分かれていません。判定は tool_use ブロック1つずつに行いましょう',
        'One response held two write_file calls, the first approved and the second refused, but what ran does not match. Decide per tool_use block.',
    ),
    "grade.l1.c2.allowed_skipped": (
        'allow・ask・deny のツールが1つの応答に混ざっていると、allow のツールが実行されませんでした。拒否や禁止のあとも、残りの呼び出しの処理を続けましょう',
        'With allow, ask and deny tools in one response, an allow tool did not run. Keep handling the remaining calls after a refusal or a deny.',
    ),
    "grade.l1.c3.title": (
        'deny でも is_error: true の tool_result でポリシーによる禁止を伝え、すべての tool_use に順番どおり1つずつ結果を返す',
        'deny still returns an is_error: true tool_result saying the policy forbids it, and every tool_use gets one result, in order',
    ),
    "grade.l1.c3.deny_no_result": (
        'deny のツールだけを呼ぶ応答に、tool_result が {count} 個返りました。呼び出しを宙ぶらりんにせず、ちょうど1つ返しましょう',
        'A response calling only a deny tool got {count} tool_results back. Leave no call dangling: return exactly one.',
    ),
    "grade.l1.c3.count": (
        'tool_use が {uses} 個ある応答に、tool_result が {results} 個返りました。実行しなかった呼び出しにも結果が要ります',
        'A response with {uses} tool_use blocks got {results} tool_results back. Calls you did not run need a result too.',
    ),
    "grade.l1.c3.type": (
        '返した要素に、type が "tool_result" でないものがあります',
        'Some returned items do not have type "tool_result".',
    ),
    "grade.l1.c3.order": (
        'tool_result の並びが tool_use の順番と違います。呼び出しの順に返しましょう',
        'The tool_results are not in the order of the tool_use blocks. Return them in call order.',
    ),
    "grade.l1.c3.ids": (
        'tool_result の tool_use_id が、対応する tool_use の id と一致していません',
        'The tool_use_id of a tool_result does not match the id of its tool_use.',
    ),
    "grade.l1.c3.no_id": (
        '{position}番目の tool_result に、文字列の tool_use_id がありません。どの tool_use への答えかを '
        '"tool_use_id": block.id で示しましょう（キーの名前は id ではなく tool_use_id です）',
        'Result {position} has no tool_use_id string. Say which tool_use it answers with '
        '"tool_use_id": block.id (the key is tool_use_id, not id).',
    ),
    "grade.l1.c3.deny_not_error": (
        'deny のときの tool_result に is_error: true が付いていません。これでは、呼び出しが成功しなかったことがモデルに伝わりません',
        'The tool_result for a deny lacks is_error: true, so the model is not told the call did not succeed.',
    ),
    "grade.l1.c3.deny_no_reason": (
        'deny のときの tool_result の内容から、そのツールがポリシーで禁止されていることがモデルに伝わりません。モデルが別の道を選べるよう、理由を書きましょう',
        'The deny tool_result does not tell the model that the tool is forbidden by policy. State the reason so the model can take another route.',
    ),
    "grade.l1.c3.refused_not_error": (
        '人間が拒否した write_file の tool_result に is_error: true が付いていません',
        'The tool_result for the write_file the human refused lacks is_error: true.',
    ),
    "grade.l1.c3.output_missing": (
        '実行された {tool} の出力が、エラーでない tool_result の content に入っていません',
        'The output of {tool}, which ran, is not in the content of a non-error tool_result.',
    ),
    "grade.l1.c3.api_rejected": (
        'この結果を次の user メッセージとして送ると、API が 400 を返します: {error}',
        'Sent as the next user message, these results get a 400 from the API: {error}',
    ),
    "grade.l2.options.gaps": (
        'MISSING の選択肢（裸のループに欠けている制御）:',
        'Options for MISSING (controls the bare loop lacks):',
    ),
    "grade.l2.options.runaways": (
        'RUNAWAYS の選択肢（その欠落が生む暴走の振る舞い）:',
        'Options for RUNAWAYS (runaway behaviours the gaps cause):',
    ),
    "grade.l2.gap.stop_condition": (
        '止まるか続けるかをモデルの stop_reason にまるごと委ねていて、ハーネス側の明示的な停止条件（ハードな上限）がない',
        "it leaves stop-or-continue entirely to the model's stop_reason: the harness has no explicit stop condition (hard limit)",
    ),
    "grade.l2.gap.token_budget": (
        '累計トークンの上限（予算）がない',
        'there is no cap on total tokens (budget)',
    ),
    "grade.l2.gap.no_progress": (
        '同じツール呼び出しの繰り返し（足踏み）を検知する仕組みがない',
        'nothing detects the same tool call repeating (spinning)',
    ),
    "grade.l2.gap.approval": (
        '高インパクトなアクションを実行前に人間に確認する仕組みがない',
        'nothing asks a human before a high-impact action runs',
    ),
    "grade.l2.gap.keep_history": (
        'モデルの応答（assistant の content）を履歴に残していない',
        "it does not keep the model's response (assistant content) in the history",
    ),
    "grade.l2.gap.tools_followup": (
        '2回目以降のリクエストに tools を渡していない',
        'it does not pass tools on the follow-up requests',
    ),
    "grade.l2.gap.reassign": (
        'ループの末尾で response を再代入していない',
        'it does not reassign response at the end of the loop body',
    ),
    "grade.l2.gap.one_user_message": (
        '1ターン分の tool_result を1つの user メッセージにまとめていない',
        "it does not put one turn's tool_results into a single user message",
    ),
    "grade.l2.runaway.endless_turns": (
        'モデルが tool_use を返し続けるかぎり、ターンが際限なく回り続ける',
        'as long as the model keeps returning tool_use, turns go on without end',
    ),
    "grade.l2.runaway.budget_burn": (
        '履歴が伸びるたびに1回あたりの入力トークンが増え、費用が燃え尽きるまで止まらない',
        "each request's input tokens grow with the history, and nothing stops the spending",
    ),
    "grade.l2.runaway.spinning": (
        '同じツールを同じ引数で何度も呼ぶ足踏みに、誰も気づかない',
        'nobody notices the model calling the same tool with the same arguments again and again',
    ),
    "grade.l2.runaway.early_stop": (
        'テキストとツール呼び出しが同じ応答に並ぶと、ツールを実行せずに止まってしまう',
        'when text and a tool call come in one response, it stops without running the tool',
    ),
    "grade.l2.runaway.api_400": (
        'tool_result が足りず、次のリクエストが 400 エラーで失敗する',
        'tool_results are missing, so the next request fails with a 400',
    ),
    "grade.l2.runaway.dead_loop": (
        'response が更新されず、古い stop_reason のまま同じリクエストを繰り返す',
        'response is never updated, so the same request repeats on a stale stop_reason',
    ),
    "grade.l2.unknown": (
        '選択肢にないキーがあります: {keys}。level2_options() の一覧からキーを選びましょう',
        'Some keys are not options: {keys}. Choose keys from the level2_options() list.',
    ),
    "grade.l2.c1.title": (
        '止まるか続けるかの判断がモデル任せで、明示的な停止条件がないことを指摘している',
        'it points out that stop-or-continue is left to the model, with no explicit stop condition',
    ),
    "grade.l2.c1.not_missing": (
        "'{option}'（{desc}）は、このループでは実はできています。コードをもう一度1行ずつ読んでみましょう",
        "'{option}' ({desc}): this loop actually does that. Read the code again line by line.",
    ),
    "grade.l2.c1.no_stop_condition": (
        'いちばん根本の欠落が挙がっていません。モデルが tool_use を返し続けたら、このループを止めるのは誰でしょう',
        'The most basic gap is not named. If the model keeps returning tool_use, who stops this loop?',
    ),
    "grade.l2.c2.title": (
        '暴走の振る舞いを少なくとも2種類（ターン/予算の暴走と、無進捗の足踏み）挙げている',
        'it names at least two runaway behaviours (turns/budget running away, and no-progress spinning)',
    ),
    "grade.l2.c2.not_this_loop": (
        "'{option}'（{desc}）は、このループでは起きません。このループが実際にやっていることと見比べましょう",
        "'{option}' ({desc}) does not happen in this loop. Compare it with what the loop actually does.",
    ),
    "grade.l2.c2.no_turns": (
        'モデルがいつまでも切り上げないとき、ターンや費用がどうなるかが挙がっていません',
        'Nothing says what happens to turns or cost when the model never wraps up.',
    ),
    "grade.l2.c2.no_spinning": (
        'ターン数も予算も上限に届いていないのに少しも進んでいない、という種類の暴走が挙がっていません',
        'The kind of runaway where neither turns nor budget hit a limit, yet nothing moves forward, is missing.',
    ),
    "grade.l2.c3.title": (
        'MAX_TURNS のチェックで、止まらないモデルでもちょうど N ラウンドで止まって停止メッセージを返し、普通のタスクはモデルの答えで終わる',
        "with the MAX_TURNS check, a model that never stops gets exactly N rounds and a stop message, and a normal task ends with the model's answer",
    ),
    "grade.l2.c3.bad_max_turns": (
        'MAX_TURNS が {value} です。2〜20 の整数にしましょう',
        'MAX_TURNS is {value}. Make it an integer from 2 to 20.',
    ),
    "grade.l2.c3.runaway": (
        'tool_use を返し続けるモデルに対して、ループが止まりませんでした。ハーネス側の上限は、実際にループを止めていますか',
        "Against a model that keeps returning tool_use, the loop did not stop. Does the harness's limit actually stop the loop?",
    ),
    "grade.l2.c3.one_early": (
        'MAX_TURNS={n} なのに、ツール実行 {rounds} ラウンド・モデル呼び出し {calls} 回で止まりました。1ラウンド早すぎます。カウンターを進めるのと上限を問うのは、どちらが先でしょう',
        'With MAX_TURNS={n} it stopped after {rounds} tool rounds and {calls} model calls: one round early. Which comes first, moving the counter or asking about the limit?',
    ),
    "grade.l2.c3.results_unsent": (
        'ツールを {rounds} ラウンド実行したのに、最後の結果をモデルに返さないまま止まりました（モデル呼び出し {calls} 回）。上限は「この一周に入る前に」問うものです',
        'It ran {rounds} tool rounds but stopped without sending the last results to the model ({calls} model calls). The limit is asked before entering a round.',
    ),
    "grade.l2.c3.counts": (
        'MAX_TURNS={n} で、ツール実行 {rounds} ラウンド・モデル呼び出し {calls} 回でした。ツール実行は MAX_TURNS ラウンド、モデル呼び出しはそれより1回多くなるはずです',
        'With MAX_TURNS={n} there were {rounds} tool rounds and {calls} model calls. Expected MAX_TURNS tool rounds and one model call more.',
    ),
    "grade.l2.c3.no_stop_message": (
        '上限で止まったときの返り値が {shown} でした。上限に達して止まったことが分かるメッセージ（ターン数や上限に触れる文）を返しましょう',
        'When stopped at the limit it returned {shown}. Return a message that says the run stopped at the limit (mention the turns or the limit).',
    ),
    "grade.l2.c3.normal_runaway": (
        'モデルが自分で答えを返す普通のタスクで、ループが止まりませんでした。モデルが切り上げた（end_turn）ことに気づけていますか',
        'On a normal task where the model answers by itself, the loop did not stop. Does it notice that the model wrapped up (end_turn)?',
    ),
    "grade.l2.c3.normal_raised": (
        'モデルが自分で切り上げる普通のタスクで、例外になりました: {error}。end_turn の後もループを回していませんか',
        'On a normal task where the model wraps up by itself, your code raised: {error}. Does the loop go on after end_turn?',
    ),
    "grade.l2.c3.normal_answer": (
        '普通のタスクで、モデルの最後の答えが返りませんでした（返り値: {shown}）',
        "On a normal task, the model's final answer was not returned (returned: {shown}).",
    ),
    "grade.l2.c3.cut_at_cap": (
        'ちょうど {n} ラウンドで答えるタスクが、モデルの答えではなく {shown} で終わりました。MAX_TURNS={n} は {n} ラウンドまでを許すはずです。判定の位置を見直しましょう',
        "A task that answers after exactly {n} rounds ended with {shown}, not the model's answer. MAX_TURNS={n} should allow {n} rounds; check where you test the limit.",
    ),
    "grade.l2.c3.normal_calls": (
        '普通のタスクでのモデル呼び出しが {calls} 回でした（{expected} 回のはず）',
        'The normal task made {calls} model calls ({expected} expected).',
    ),
    "grade.l1.c2.refusal_ignored": (
        'approve に「いいえ」と言われた write_file が実行されました。尋ねたあと、その答えで実行するかどうかを決めていますか',
        'write_file ran although approve said no. After asking, do you use the answer to decide whether to run?',
    ),
})
