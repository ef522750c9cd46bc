"""The level-1 exercise's strings (ja, en): its options, criteria and hints, added to the catalog on import."""

from __future__ import annotations

from ..text import add

add(
    {
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
        "grade.l1.c1.unknown_tier": (
            'POLICY で {tool} の段階が {value} になっていますが、段階は "allow" / "ask" / "deny" の3つだけです。'
            "このとおりの綴り（小文字）で書きましょう",
            'POLICY gives {tool} the tier {value}, which is not one of the three tiers "allow", "ask" and "deny". '
            "Spell it exactly as one of them (lower case).",
        ),
        "grade.l1.c1.default_unknown": (
            'DEFAULT_TIER が {value} ですが、段階は "allow" / "ask" / "deny" の3つだけです。ポリシーに載っていない {tool} は '
            "{seen} として振る舞いました。このとおりの綴り（小文字）で書きましょう",
            'DEFAULT_TIER is {value}, which is not one of the three tiers "allow", "ask" and "deny": {tool}, which is not '
            "in the policy, behaved as {seen}. Spell it exactly as one of them (lower case).",
        ),
        "grade.l1.c1.tiers_unseen": (
            "POLICY と DEFAULT_TIER は3つの段階とデフォルトの段階を書けていますが、run_tool_uses が採点の制限時間（{seconds} 秒）を過ぎても戻らなかったので、"
            "採点がそこで打ち切りました。そのため、各ツールが実際にどの段階で扱われるかは確かめられていません。"
            "tool_use が1つだけの content で、approve が「はい」と答えるときと「いいえ」と答えるときの両方で run_tool_uses を呼んで、戻ってくるか試しましょう（終わらないループになっていませんか）",
            "POLICY and DEFAULT_TIER state three tiers and a default tier, but run_tool_uses ran past the grader's time limit ({seconds} s), "
            "so the grader stopped it there, and which tier each tool really gets could not be seen. "
            "Call run_tool_uses with a content holding one tool_use, once with approve saying yes and once saying no, and see whether it returns (is there a loop that never ends?).",
        ),
        "grade.l1.deny_raised": (
            "deny のツール {tool} を呼ぶ応答で、run_tool_uses が例外を出しました（{error}）。deny は例外で止めるのではなく、モデルに伝えます。"
            "例外を出すと、その応答のほかの呼び出しの結果も失われます。ポリシーで禁止されていると書いた is_error: true の tool_result を返しましょう",
            "Given a call of the deny tool {tool}, run_tool_uses raised ({error}). A deny is told to the model, not raised: "
            "an exception loses the results of the response's other calls too. Return an is_error: true tool_result saying the policy forbids it.",
        ),
        "grade.l1.c1.unlisted_error": (
            "ポリシーに載っていないツール {tool} を呼んだところ、例外になりました: {error}。表にない名前は DEFAULT_TIER の段階に落とします"
            "（辞書なら POLICY.get(name, DEFAULT_TIER) のように）",
            "Calling {tool}, which is not in the policy, raised: {error}. A name not in the table falls to DEFAULT_TIER's "
            "tier (with a dict: POLICY.get(name, DEFAULT_TIER)).",
        ),
        "grade.l1.c1.fell_to_default": (
            "{tool} が POLICY に載っていないので、デフォルトの段階（{default}）に落ちています。課題の表では {expected} です",
            "{tool} is not in POLICY, so it fell to the default tier ({default}). The exercise's table says {expected}.",
        ),
        "grade.l1.c1.listed_wrong": (
            "POLICY では {tool} が {listed} になっています。課題の表では {expected} です",
            "POLICY gives {tool} the tier {listed}. The exercise's table says {expected}.",
        ),
        "grade.l1.results_kept": (
            "{tool} を呼んだ run_tool_uses が、前の呼び出しの tool_result も一緒に返しました。結果のリストが呼び出しをまたいで残っています。"
            "results = [] は run_tool_uses の中（呼ばれるたび）で作りましょう",
            "run_tool_uses, called for {tool}, also returned the tool_results of an earlier call: the results list outlives "
            "a call. Make results = [] inside run_tool_uses, on every call.",
        ),
        "grade.l1.fell_through": (
            "{tool} に「実行しない」という結果を積んだあと、そのまま実行もしてしまいました（1つの呼び出しに結果が2つ）。"
            "その結果を積んだら continue で次のブロックへ進み、実行の行に届かないようにしましょう",
            "{tool} got a result refusing it, then ran anyway (two results for one call). After appending that result, "
            "continue to the next block so the run line is never reached.",
        ),
        "grade.l1.approve_args": (
            "{tool} について approve を呼びましたが、1つ目の引数がツールの入力（辞書）でした。approve(name, input) の順に、"
            "approve(block.name, block.input) と渡しましょう",
            "approve was asked about {tool}, but its first argument was the tool's input (a dict). Pass them in the "
            "order approve(name, input): approve(block.name, block.input).",
        ),
        "grade.l1.approve_call": (
            "{tool} について approve を {call} の形で呼びました。渡される approve は、ノートブックの say_no と同じく approve(name, input) の形で、"
            "ツールの名前と入力の辞書の2つだけを、この順に受け取ります（ほかの形で呼ぶと TypeError になります）。"
            "approve(block.name, block.input) と呼びましょう",
            "approve was called as {call} about {tool}. The approver you are given, like the notebook's say_no, is "
            "approve(name, input): it takes exactly two arguments, the tool's name and its input dict, in that order "
            "(called any other way, it raises a TypeError). Call approve(block.name, block.input).",
        ),
        "grade.l1.impl_call": (
            "ツール {tool} を {call} の形で、入力を位置引数として渡して呼びました。渡されるツールは、ノートブックの toy のツールと同じく"
            "入力をキーワード引数で受け取るので、この呼び方では TypeError になります（ツールは実行されず、結果はどれもその失敗になります）。"
            "tool_impls[block.name](**block.input) と、** を付けて呼びましょう",
            "The {tool} tool was called as {call}, its input passed by position. The tools you are given, like the "
            "notebook's toy, take their input as keyword arguments, so this call raises a TypeError: the tool never runs "
            "and every result is that failure. Call tool_impls[block.name](**block.input), with the **.",
        ),
        "grade.l1.c1.mismatch": (
            "{tool} は {expected} のはずが、{seen} として振る舞いました。課題の表と、run_tool_uses がその段階をどう扱っているかを見比べましょう",
            "{tool} should be {expected} but behaved as {seen}. Compare the exercise's table with how run_tool_uses handles that tier.",
        ),
        "grade.l1.c1.default_carried": (
            "ポリシーにない {tool} を、同じ応答で {before} のすぐあとに呼ぶと、デフォルトの {default} ではなく {seen} として扱われました。"
            "前のブロックの段階が残っています。段階はブロックごとにループの中で POLICY から引き直し、載っていなければ DEFAULT_TIER にしましょう",
            "{tool}, which the policy does not list, called right after {before} in the same response, behaved as {seen}, "
            "not as the default {default}: the tier of the block before it was kept. Look each block's tier up afresh "
            "inside the loop, falling to DEFAULT_TIER when the name is not listed.",
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
        "grade.l1.c1.not_exact_name": (
            "{tool} は POLICY にその名前では載っておらず、「{entry}」の項目で段階が決まっているようです。採点が POLICY を書き換えて "
            "{tool} を {tier} にしても、{seen} として振る舞いました。段階は、接頭辞や部分一致、ワイルドカードではなく、"
            "ツールの名前そのもの（完全一致）で引きましょう",
            '{tool} is not in POLICY under its own name; its tier seems to come from the entry "{entry}". When the '
            "grader changed POLICY to make {tool} {tier}, it behaved as {seen}. Look tiers up by the tool's exact name, "
            "not by a prefix, a substring or a wildcard.",
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
            "The approved {tool} did not run exactly once (ran {count:times}). Do you read approve's return value correctly?",
        ),
        "grade.l1.c2.approve_input": (
            "{tool} について approve に尋ねましたが、渡したのがその呼び出しの入力ではありませんでした（{got}）。何を許すのかが人間に見えるよう、approve(block.name, block.input) のように、その呼び出しの入力を渡しましょう",
            "approve was asked about {tool}, but not with that call's input ({got}). So the human can see what they allow, pass the call's own input: approve(block.name, block.input).",
        ),
        "grade.l1.c1.policy_rewritten": (
            "表にないツール {tool} に人間が答えたあと、POLICY（ポリシーのデータ）に {tool} が {tier} として書き込まれ、"
            "DEFAULT_TIER の段階では振る舞わなくなりました。人間の答えは呼び出し1つへの答えで、ツールの段階を変えるものではありません。"
            "POLICY は読むだけにしましょう",
            "After a person answered about {tool}, which is not in the table, the code wrote {tool} into POLICY (the policy data) "
            "as {tier}, and it no longer behaved as DEFAULT_TIER. A person's answer answers one call; it does not change the tool's "
            "tier. Only read POLICY.",
        ),
        "grade.l1.c2.refusal_rewritten": (
            "「いいえ」と答えられた {tool} が、次の呼び出しでは承認されても実行されませんでした。「いいえ」のあとで POLICY（ポリシーのデータ）を"
            "書き換えています。人間の答えは呼び出し1つへの答えで、ツールの段階を変えるものではありません。POLICY は読むだけにして、"
            "ask の呼び出しのたびに approve に尋ねましょう",
            "Once refused, {tool} did not run on the next call even when approved: after the no, the code rewrote POLICY (the "
            "policy data). A person's answer answers one call; it does not change the tool's tier. Only read POLICY, and ask "
            "approve for every ask call.",
        ),
        "grade.l1.c2.policy_rewritten": (
            "一度承認された {tool} が、そのあとは尋ねられずに実行されるようになりました。「はい」のあとで POLICY（ポリシーのデータ）を書き換えています。"
            "承認は呼び出し1つへの答えで、ツールの段階を変えるものではありません。POLICY は読むだけにして、ask の呼び出しのたびに approve に尋ねましょう",
            "Once approved, {tool} then ran without being asked: after the yes, the code rewrote POLICY (the policy data). "
            "An approval answers one call; it does not change the tool's tier. Only read POLICY, and ask approve for every ask call.",
        ),
        "grade.l1.c2.yes_kept": (
            "一度承認された {tool} が、そのあとは尋ねられずに実行されるようになりました。「はい」を覚えておいて使い回しています。"
            "承認は呼び出し1つへの答えです。ask の呼び出しのたびに approve に尋ねましょう",
            "Once approved, {tool} then ran without being asked: the yes was remembered and used again. "
            "An approval answers one call; ask approve for every ask call.",
        ),
        "grade.l1.c2.asked_twice": (
            "{tool} の呼び出し1つについて、approve を {count} 回呼びました。人間には1つの呼び出しにつき1回だけ尋ね、その答えで実行するかを決めます"
            "（尋ねるたびに答えが変わることがあり、同じ応答の次の呼び出しへの答えを先取りしてしまいます）",
            "approve was called {count:times} for one {tool} call. Ask the person once per call and decide by that answer "
            "(each question may get another answer, and takes the one meant for the next call in the response).",
        ),
        "grade.l1.c2.per_call": (
            "1つの応答に {tool} が2回あり、1回目は承認、2回目は拒否されましたが、実行がそのとおりに分かれていません。判定は tool_use ブロック1つずつに行いましょう",
            "One response held two {tool} calls, the first approved and the second refused, but what ran does not match. Decide per tool_use block.",
        ),
        "grade.l1.c2.answer_reused": (
            "1つの応答に {tool} が2回あり、approve にそれぞれ尋ねて1回目は承認、2回目は拒否されたのに、2回とも実行されました。"
            "2回目の答えを読まず、1回目の答えで決めています（ツール名をキーにして覚えた答えや setdefault）。呼び出しごとに、その呼び出しへの答えで決めましょう",
            "One response held two {tool} calls, each put to approve: the first approved, the second refused, yet both ran. "
            "The second answer was not read and the first one decided (an answer kept by the tool's name, or setdefault). Decide each call by its own answer.",
        ),
        "grade.l1.c2.input_changed": (
            "承認された {tool} が、モデルの呼び出しとは違う input で実行されました（{got}）。人間が承認したのはモデルの input です。"
            "block.input に書き足したり直したりせず、そのまま渡しましょう",
            "The approved {tool} ran with an input other than the model's call ({got}). The person approved the model's input: "
            "pass block.input as it is, with nothing written into it.",
        ),
        "grade.l1.c2.allowed_skipped": (
            "単独で呼べば実行される {tool} が、拒否や deny の呼び出しと1つの応答に混ざると実行されませんでした。拒否や禁止のあとも、残りの呼び出しの処理を続けましょう",
            "{tool} runs when called alone, but not when it shares a response with refused and denied calls. Keep handling the remaining calls after a refusal or a deny.",
        ),
        "grade.l1.c2.fails_open": (
            "approve が答えを返さずに例外を投げたのに、{tool} が実行されました。尋ねることに失敗しても「はい」ではありません。"
            "承認弁は閉じる側に倒します: 例外は捕まえずに呼び出し元へ伝えるか、拒否と同じく実行せずに is_error: true の tool_result を返しましょう",
            "approve raised an exception instead of answering, and {tool} ran anyway. An error in asking is not a yes: "
            "the approval valve must fail closed. Let the exception propagate, or treat it as a no: do not run the tool, "
            "and return an is_error: true tool_result.",
        ),
        "grade.l1.c2.failure_unreported": (
            "approve が答えを返さずに例外を投げたとき、{tool} は実行されませんでしたが、is_error: true の tool_result も返りませんでした。"
            "尋ねられなかったことがモデルに伝わりません。例外は捕まえずに呼び出し元へ伝えるか、拒否と同じく is_error: true の結果を返しましょう",
            "approve raised an exception instead of answering; {tool} did not run, but no is_error: true tool_result came "
            "back either, so the model is not told the call failed. Let the exception propagate, or return an is_error: "
            "true result as for a refusal.",
        ),
        "grade.l1.c2.unknown_allowed": (
            "approve が None を返した（「はい」とも「いいえ」とも答えていない）のに、{tool} が実行されました。承認弁は閉じる側に倒します: "
            "is False や == False で「いいえ」だけを断ると、答えのない承認が許可になります。if not approve(...) で、「はい」以外はすべて断りましょう",
            "approve returned None (neither a yes nor a no), yet {tool} ran. The approval valve must fail closed: refusing "
            "only an explicit no (is False, == False) turns an approval with no answer into an allow. Use if not approve(...): "
            "anything but a yes is refused.",
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
        "grade.l1.c3.not_list": (
            "run_tool_uses の返り値がリストではなく {got} です。ジェネレーターは読まれたときに初めてツールを実行し、一度しか読めません（履歴に入れたあとでもう一度読むと空です）。"
            "tool_result を results に集めて、return results でリストを返しましょう",
            "run_tool_uses returned a {got}, not a list. A generator runs the tools only when it is read, and can be read once "
            "(read again after it went into the history, it is empty). Collect the tool_results in results and return results as a list.",
        ),
        "grade.l1.c3.deny_no_result": (
            "deny のツール {tool} だけを呼ぶ応答に、tool_result が {count} 個返りました。呼び出しを宙ぶらりんにせず、ちょうど1つ返しましょう",
            "A response calling only the deny tool {tool} got {count:tool_results} back. Leave no call dangling: return exactly one.",
        ),
        "grade.l1.c3.too_many": (
            "tool_use が {uses} 個ある応答に、tool_result が {results} 個返りました。結果を2つ受け取った呼び出しがあります。"
            "拒否の結果を積んだら、continue で次のブロックへ進みましょう",
            "It returned {results:tool_results} for {uses:tool_use blocks}: some call got two. "
            "After appending a refusal's result, continue to the next block.",
        ),
        "grade.l1.c3.refused_no_result": (
            "approve が「いいえ」と答えた {tool} の呼び出しに、tool_result がありません。断った呼び出しにも、"
            "is_error: true で「承認されなかったので実行していない」と伝える結果を、その tool_use_id で1つ積みます",
            "The {tool} call that approve said no to got no tool_result. A refused call gets one too: a result "
            "with is_error: true, under its tool_use_id, saying it was not run because it was not approved.",
        ),
        "grade.l1.c3.same_tool_once": (
            "{tool} を2回呼ぶ応答で、実行した呼び出しの結果がなくなりました。結果をツール名で引く辞書に入れていませんか。"
            "同じツールの呼び出しでも、tool_use ごとに（その tool_use_id で）1つずつリストに積みます",
            "In a response that calls {tool} twice, a call that ran got no result of its own. Are results kept "
            "in a dict keyed by tool name? Each tool_use gets its own result in the list (with its tool_use_id), even for the same tool.",
        ),
        "grade.l1.c3.count": (
            "tool_use が {uses} 個ある応答に、tool_result が {results} 個返りました。実行しなかった呼び出しにも結果が要ります",
            "A response with {uses:tool_use blocks} got {results:tool_results} back. Calls you did not run need a result too.",
        ),
        "grade.l1.c3.type": (
            '返した要素に、type が "tool_result" でないものがあります。返すのは tool_use 1つにつき tool_result 1つだけで、'
            "text などほかのブロックは混ぜません",
            'Some returned items do not have type "tool_result". Return one tool_result per tool_use and nothing else: '
            "no text or other blocks among them.",
        ),
        "grade.l1.c3.order": (
            "tool_result の並びが tool_use の順番と違います。呼び出しの順に返しましょう",
            "The tool_results are not in the order of the tool_use blocks. Return them in call order.",
        ),
        "grade.l1.c3.one_dict": (
            "返した結果がすべて同じ中身（同じ tool_use_id）です。結果の辞書をループの外で1つだけ作り、中身を書き換えては append しているので、どの結果も最後の呼び出しのものになります。tool_use ごとに、ループの中で新しい辞書を作りましょう",
            "Every result returned is the same (one tool_use_id): one result dict made outside the loop, refilled and appended for each call, so every result is the last call's. Make a new dict for each tool_use, inside the loop.",
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
            "「使えません」や「拒否しました」だけでは、人間が断ったのか、失敗したのか、区別がつきません。モデルが別の道を選べるよう、理由を書きましょう",
            "The tool_result for the denied {tool} does not tell the model that a policy (a rule) forbids it. "
            '"unavailable" or "denied" alone reads like a person saying no, or a failure. State the reason so the model can take another route.',
        ),
        "grade.l1.c3.deny_blames_person": (
            "deny の {tool} に返した tool_result の文は、人間（ユーザー）が断ったように読めます。deny では、だれにも尋ねていません。"
            "断ったのはポリシー（規則）です。人間が断ったと読めば、モデルは頼み直せば通ると考えるかもしれません。ポリシーで禁止されていると書きましょう",
            "The tool_result for the denied {tool} reads as if a person (the user) said no. On a deny nobody was asked: the "
            "policy (a rule) refused it. A model told that the user said no may just ask again; say that the policy forbids the tool.",
        ),
        "grade.l1.c3.refusal_says_policy": (
            "approve が「いいえ」と答えた {tool} の tool_result が、ポリシー（規則）で禁止されていると伝えています。断ったのは人間で、"
            "{tool} は ask の段階です（次に尋ねれば許可されるかもしれません）。禁止と読んだモデルは、{tool} をもう使えないと考えます。"
            "deny と同じ文を使わず、ユーザーが拒否したことを伝えましょう",
            "The tool_result for the {tool} call that approve said no to says a policy (a rule) forbids it. A person said no, and "
            "{tool} is in the ask tier (asked again, it may be approved); a model told it is forbidden takes {tool} as unusable. "
            "Say that the user refused, not what a deny says.",
        ),
        "grade.l1.c3.refused_not_error": (
            "人間が拒否した {tool} の tool_result に is_error: true が付いていません",
            "The tool_result for the {tool} the human refused lacks is_error: true.",
        ),
        "grade.l1.c3.tool_error_raised": (
            "{tool} が例外を出すと、run_tool_uses ごと例外で終わりました（{error}）。ツールの実行は try で囲み、"
            "失敗は is_error: true の tool_result にして返しましょう。そうすれば、同じ応答のほかの呼び出しの結果も失われません",
            "When {tool} raised, run_tool_uses raised with it ({error}). Wrap the tool's run in try and return the "
            "failure as an is_error: true tool_result, so the other calls of the response keep their results too.",
        ),
        "grade.l1.c3.interrupt_caught": (
            "{tool} の実行中に押された Ctrl-C（KeyboardInterrupt）まで、失敗の tool_result になりました。except BaseException や素の except: は、"
            "人がループを中断するための割り込みも捕まえるので、ループが止まりません。ツールの失敗は except Exception で捕まえましょう",
            "Ctrl-C pressed while {tool} ran (KeyboardInterrupt) became a failed tool_result too: except BaseException, or a bare "
            "except:, also catches the interrupt a person uses to stop the loop, so the loop would not stop. Catch a tool's failures "
            "with except Exception.",
        ),
        "grade.l1.c3.tool_error_count": (
            "{tool} が例外を出した応答（tool_use {uses} 個）に、呼び出しの順で1つずつの tool_result が返りませんでした（{results} 個）。"
            "失敗した呼び出しにも結果を返し、そのあとの呼び出しも実行しましょう",
            "When {tool} raised, the response with {uses:tool_use blocks} did not get one tool_result each, in call "
            "order ({results:tool_results} came back). A failed call needs its result too, and the calls after it still run.",
        ),
        "grade.l1.c3.tool_error_not_error": (
            "例外を出した {tool} の tool_result に is_error: true がありません。モデルは失敗をツールの出力として読みます",
            "The tool_result of {tool}, which raised, has no is_error: true; the model reads the failure as the tool's output.",
        ),
        "grade.l1.c3.tool_error_empty": (
            "例外を出した {tool} の tool_result は is_error: true ですが、content が空です。API は空のエラー結果を 400 で断ります"
            "（content cannot be empty if `is_error` is true）。何が失敗したか（例外の文）を content に入れましょう",
            "The tool_result of {tool}, which raised, has is_error: true but empty content. The API refuses an empty error "
            "result with a 400 (content cannot be empty if `is_error` is true); put what failed (the exception's text) in it.",
        ),
        "grade.l1.c3.output_missing": (
            "実行された {tool} の出力が、エラーでない tool_result の content に入っていません",
            "The output of {tool}, which ran, is not in the content of a non-error tool_result.",
        ),
        "grade.l1.c3.content_changed": (
            "run_tool_uses が、渡された応答の `content`（内容ブロックのリスト）を変えています（{tool} の呼び出しで）。"
            "ループはこの同じリストを assistant のメッセージとして会話履歴に入れて送り返すので、tool_use が消えたり"
            "書き換わったりすると、次のリクエストで API が 400 を返すか、モデルが呼んでいない呼び出しが履歴に残ります。"
            "ブロックを取り出したり input を直したりするのは、コピーか自分の変数の上でしましょう",
            "run_tool_uses changes the `response.content` it was handed (the content blocks; at the {tool} call). "
            "The loop puts this same list in the history as the assistant message and sends it back, so with its "
            "tool_use blocks gone or rewritten the next request gets a 400 from the API, or the history holds calls "
            "the model never made. Take blocks out or tidy an input on a copy or in your own variables.",
        ),
        "grade.l1.never_ran": (
            "run_tool_uses を呼ぶと、中身を1行も実行しないまま {kind} が返りました（{error}）。async def の関数は、呼んだだけでは動きません。"
            "採点もレッスンのループも run_tool_uses(...) をふつうに呼んで、返ったリストを読みます。async を外して def で書きましょう",
            "Calling run_tool_uses returned a {kind} without running a line of it ({error}): a function written with async def does not run "
            "when called. The grader and the lesson's loop call run_tool_uses(...) as it is and read the list it returns: drop the async and write it with def.",
        ),
        "grade.l1.c3.other_api_result": (
            '結果が {{"role": "tool", "tool_call_id": ...}} の形です（OpenAI の関数呼び出しの形）。Messages API の結果は、tool_use 1つにつき '
            '{{"type": "tool_result", "tool_use_id": block.id, "content": ...}} の辞書です。その形で返しましょう',
            'The results have the shape {{"role": "tool", "tool_call_id": ...}} (OpenAI function calling). A Messages API result is a dict '
            '{{"type": "tool_result", "tool_use_id": block.id, "content": ...}} per tool_use: return that shape.',
        ),
        "grade.l1.c3.is_error_spelled": (
            "tool_result に、is_error ではなく {got} と書いています。isError は MCP のツール結果の綴りで、Messages API のキーは Python でも TypeScript でも is_error です。"
            'ほかの綴りは失敗の印にならず、API も知らないキーとして 400 で断ります。"is_error": True と書きましょう',
            "A tool_result says {got}, not is_error. isError is MCP's spelling for tool results; the Messages API's key is is_error, in Python and TypeScript alike: another spelling "
            'flags nothing, and the API refuses it with a 400 as a key it does not know. Write "is_error": True.',
        ),
        "grade.l1.c3.is_error_text": (
            'tool_result の is_error が真偽値ではなく文字列 {got} です。API は文字列の is_error を（"true" でも "false" でも）400 で断り、文字列は True ではないので失敗としても数えられません。'
            '引用符なしで、失敗には "is_error": True と書きます（うまくいった結果には書かないか False）（API の 400: {error}）',
            'A tool_result\'s is_error is the string {got}, not a boolean. The API answers a string is_error ("true" or "false" alike) with a 400, '
            'and a string is not True, so a failure does not count as one. Write "is_error": True for a failure, without quotes '
            "(leave it out, or False, on a result that worked). (The API's 400: {error})",
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
    }
)
