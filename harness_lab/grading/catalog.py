"""The exercise graders' strings (ja, en): criteria, hints and verdicts, added to the catalog on import.

Keys ending a hint a ``Check`` can carry follow ``grade.<level>.c<n>.<what>`` (or ``grade.l1.*`` /
``grade.l2.*`` for both criteria of a level, and the generic ``grade.raised`` / ``timeout`` /
``crashed`` / ``memory``); ``tests/grading/test_hint_keys.py`` finds each one provoked by an answer.
Also the grading command's words for a notebook file and the sandbox's; ``grade-class``'s are in
``class_catalog.py``.
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
        "grade.none_passed": (
            "結果: まだどの基準も満たしていません（基準は {total}つ）。「× 不合格」の行のヒントを手がかりに直して、もう一度実行しましょう。",
            "Result: no criterion met yet (of {total}). Use the hints on the [FAIL] lines, fix your code and run again.",
        ),
        "grade.interrupted": (
            "採点を中断しました（カーネルの中断）。判定は出ていません。このセルをもう一度実行すると、はじめから採点します",
            "Grading was interrupted (the kernel was interrupted), so there is no verdict. Run this cell again to grade from the start",
        ),
        "grade.cell_failed": (
            "× 不合格: {name} を書いたセルが {error} で止まったので、{name} は前の答えのままです。このまま採点すると、"
            "いま書いた答えではなく前の答えを見ることになります。エラーを直してそのセルを実行し直し、それからこのセルをもう一度実行してください",
            "[FAIL] The cell that sets {name} raised {error}, so {name} still holds your earlier answer, and grading now "
            "would judge that, not what you just wrote. Fix the error, run that cell again, then run this cell again.",
        ),
        "grade.failed": (
            "× 不合格: 基準{numbers} を満たしていません。ヒントは、このセルの出力の「× 不合格」の行にあります（ターミナルでは python3 dev.py grade）",
            "[FAIL] Criteria not met: {numbers}. The hints are on the [FAIL] lines of this cell's output (in a terminal: python3 dev.py grade --lang en)",
        ),
        "grade.failed_join": ("・", ", "),
        # --- whatever the exercise ------------------------------------------------------------------
        "grade.raised": (
            "あなたのコードが例外を送出しました: {error}。どこで何が起きたかを、例外の種類とメッセージから追ってみましょう",
            "Your code raised an exception: {error}. Use its type and message to find where and why.",
        ),
        "grade.timeout": (
            "あなたのコードが採点の確認1回ごとの制限時間を過ぎても終わらなかったので、採点がそこで打ち切りました。無限ループになっていませんか",
            "Your code ran past the time limit the grader gives each check, so the grader stopped it there. Is there an endless loop?",
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
        "grade.file_limit": (
            "。サンドボックスなしの採点では、1つのファイルは {mb} MB までしか書けません（採点するマシンのディスクを守るため）",
            ". Graded without the sandbox, no file may grow past {mb} MB (it would fill the grading machine's disk).",
        ),
        "grade.raised_at": ("（{function} の `{line}` の行）", " (the line `{line}` in {function})"),
        "grade.raised_at_line": ("（`{line}` の行）", " (the line `{line}`)"),
        "grade.try.raised": ("例外が送出されました: {error}", "An exception was raised: {error}"),
        "grade.try.timeout": (
            "試すときの制限時間（{seconds} 秒）を過ぎてもあなたのコードが終わらなかったので、このセルが止めました。"
            "ループを止める条件（ターン数の上限など）がないか、あっても満たされないままになっていませんか。長く待つ呼び出し（sleep など）がないかも確かめましょう",
            "Your code ran past this cell's time limit for trying it ({seconds:seconds}), so the cell stopped it. "
            "Does a loop have nothing that ends it (a limit on turns, say), or a condition it never meets? Look for a long wait (a sleep) too.",
        ),
        "grade.try.memory": (
            "メモリを使いすぎたので止めました（上限 {mb} MB）。終わらないまま伸び続けるリストがありませんか",
            "It used too much memory, so it was stopped (the limit is {mb} MB). Does a list keep growing without end?",
        ),
        "grade.try.cut": (
            "（出力が長いので、最初の {limit} 文字だけを表示しました）",
            "(the output was long: only its first {limit:characters} are shown)",
        ),
        "grade.try.value_cut": (
            "（返り値が長いので、最初の {limit} 文字だけを表示しました）",
            "(the returned value was long: only its first {limit:characters} are shown)",
        ),
        # --- grading a notebook file (python -m harness_lab.grading) --------------------------------
        "grade.nb.header": ("== {path}（{exercise}）==", "== {path} ({exercise}) =="),
        "grade.nb.unsafe_path": (
            "△ 注意: -P なしで起動したので、今のフォルダーの .py が採点のモジュールより先に読まれます。"
            "`python -P -m harness_lab.grading` か `harness-lab grade` で採点しましょう",
            "[NOTE] Started without -P, so .py files in the current folder are imported before the grader's own "
            "modules. Grade with `python -P -m harness_lab.grading` or `harness-lab grade`.",
        ),
        # the command's usage errors: what it was given is no notebook file, told before anything is graded
        # python -P -m harness_lab.grading --help (command.py); harness-lab grade's is the cli's, in the same words
        "grade.nb.usage.help_description": (
            "第6回の練習ノートブックを、解答のセルから新しいプロセスで採点します",
            "Grade lesson 6 exercise notebooks from their answer cells, in a fresh process.",
        ),
        "grade.nb.usage.help_notebooks": ("練習ノートブックのファイル（.ipynb）", "exercise notebook files (.ipynb)"),
        "grade.nb.usage.help_timeout": (
            "ノートブックごとの制限時間、秒（既定 {default}）",
            "seconds per notebook (default {default})",
        ),
        "grade.nb.usage.help_lang": (
            "フィードバックの言語（既定: ノートブックごとに、その版の言語）",
            "language of the feedback (default: each notebook's edition's)",
        ),
        "grade.nb.usage.not_found": ("{path} が見つかりません", "{path}: not found"),
        "grade.nb.usage.folder": (
            "{path} はフォルダーです。ノートブックのファイル（.ipynb）を指定してください",
            "{path} is a folder; give notebook files (.ipynb).",
        ),
        "grade.nb.usage.unreadable": ("{path} を読めません: {error}", "Cannot read {path}: {error}"),
        "grade.nb.usage.not_regular": (
            "{path} は普通のファイルではありません（デバイス、FIFO、またはそれへのリンク）。ノートブックのファイルを指定してください",
            "{path} is not a regular file (a device, a FIFO, or a link to one); give notebook files.",
        ),
        "grade.nb.usage.others_link": (
            "{path} は、ほかのユーザーが作ったシンボリックリンク {link} を通っているので採点しません（あなたか root が作ったリンクだけを"
            "たどります。その人が読めないファイル、たとえば模範解答へのリンクかもしれません）",
            "{path} goes through {link}, a symbolic link another user made, so it is not graded (only links you or root "
            "made are followed: it may lead to a file its maker cannot read, such as a solution).",
        ),
        "grade.nb.usage.too_large": (
            "{path} は {limit} MB を超えているので採点しません（ノートブックは普通 数十 KB です）",
            "{path} is over {limit} MB, so it is not graded (a notebook is usually tens of KB).",
        ),
        "grade.nb.usage.not_json": (
            "{path} はノートブックではありません（JSON ではありません）。採点が読むのは JupyterLab が保存した .ipynb ファイルです。"
            "配布されたノートブックに答えを書き、JupyterLab で保存したファイルを指定してください",
            "{path} is not a notebook (not JSON). Grading reads the .ipynb file JupyterLab saves: write your answers in "
            "the notebook you were given, and give the file JupyterLab saved.",
        ),
        "grade.nb.usage.no_cells": (
            "{path} はノートブックではありません（セルの一覧がありません）",
            "{path} is not a notebook (no list of cells).",
        ),
        "grade.nb.usage.others_file": (
            "{path} は、ほかのユーザー（{owner}）のファイルです（ハードリンクで置かれたものなど）。置かれたフォルダーの持ち主のファイルではないので、"
            "採点しません（フォルダーの持ち主が読めないファイル、たとえば模範解答かもしれません）。"
            "あなたが学習者のために置いたファイルなら、学習者のものにしてから（chown）採点しましょう",
            "{path} is a file of another user's ({owner}), put there as a hard link, say: not a file of the folder's owner, "
            "so it is not graded (it may be a file the folder's owner cannot read, such as a solution). "
            "If you put it there for the learner yourself, give it to them first (chown), then grade it.",
        ),
        "grade.nb.others_file": (
            "× 不合格: {name} は、ほかのユーザー（{owner}）のファイル（ハードリンクで置かれたものなど）なので、あなたの答えとして採点していません。"
            "自分で保存したノートブックを提出しましょう",
            "[FAIL] {name} is a file of another user's ({owner}), put there as a hard link, say, so it was not graded as "
            "your answer. Hand in the notebook you saved yourself.",
        ),
        "grade.nb.unreadable": (
            "× 不合格: ノートブックとして読めませんでした（{error}）。採点が読むのは JupyterLab が保存した .ipynb ファイルです。"
            "配布されたノートブックに答えを書き、JupyterLab で保存したファイルを使いましょう",
            "[FAIL] Could not read it as a notebook ({error}). Grading reads the .ipynb file JupyterLab saves: write your "
            "answers in the notebook you were given, and use the file JupyterLab saved.",
        ),
        "grade.nb.unknown_exercise": (
            "× 不合格: どの練習のノートブックか分かりませんでした（exercises/ の level1_… か level2_… を、コピーして使いましょう）",
            "[FAIL] Could not tell which exercise this notebook is (start from a copy of exercises/en/level1_… or level2_…).",
        ),
        "grade.nb.no_answer_cells": (
            "× 不合格: answer タグの付いたセルがありません。配布されたノートブックの TODO のセルに答えを書きましょう",
            "[FAIL] No cell is tagged answer. Write your answers in the TODO cells of the notebook you were given.",
        ),
        "grade.nb.cell_raised": (
            "× 不合格: 答えのセル（{cell}番目のコードセル）が例外を送出しました: {error}",
            "[FAIL] An answer cell (code cell {cell}) raised: {error}",
        ),
        "grade.nb.cell_too_deep": (
            "× 不合格: 答えのセル（{cell}番目のコードセル）は、括弧や演算子の入れ子が深すぎて Python が読めません（メモリの上限とは関係ありません）。"
            "式を名前に分けて、何行かで書きましょう",
            "[FAIL] An answer cell (code cell {cell}) nests brackets or operators too deeply for Python to read it (not a "
            "matter of the memory limit). Split the expression into named parts over several lines.",
        ),
        "grade.nb.undefined": (
            "× 不合格: {name} が定義されていません。採点は、タグ answer / setup の付いたセル（TODO のセルと準備のセル）だけを実行します",
            "[FAIL] {name} is not defined. Grading runs only the cells tagged answer / setup (the TODO cells and the setup cells).",
        ),
        "grade.nb.name_note": (
            "△ 注意: NameError が出ています。採点が実行するのは、タグ answer / setup の付いたセルだけです。自分で足したセルの定義は、TODO のセルに移しましょう",
            "[NOTE] There is a NameError. Grading runs only the cells tagged answer / setup: move definitions from cells you added into a TODO cell.",
        ),
        "grade.nb.name_typo": (
            "△ 注意: NameError が出ています。{name} はノートブックのどのセルでも定義されていません。{close} の書き間違いではありませんか",
            "[NOTE] There is a NameError: no cell of the notebook defines {name}. Is it a misspelling of {close}?",
        ),
        "grade.nb.name_unknown": (
            "△ 注意: NameError が出ています。{name} はノートブックのどのセルでも定義されていません。名前の綴りと、定義を書いたかを確かめましょう",
            "[NOTE] There is a NameError: no cell of the notebook defines {name}. Check its spelling, and that you wrote its definition.",
        ),
        "grade.nb.cell_timeout": (
            "× 不合格: 答えのセル（{cell}番目のコードセル）が {seconds} 秒たっても終わりませんでした。セルの一番外側でループが止まらなくなっていませんか（答えのセルは関数や値を定義するだけです）",
            "[FAIL] An answer cell (code cell {cell}) did not finish within {seconds} s. Does a loop at the cell's top level never end? (answer cells only define functions and values)",
        ),
        "grade.nb.cell_recursion": (
            "× 不合格: 答えのセル（{cell}番目のコードセル）が {seconds} 秒たっても終わりませんでした。時間切れのとき、関数が自分自身を呼び続けていました（終わらない再帰）。"
            "再帰が止まる条件を確かめましょう（答えのセルは関数や値を定義するだけです）",
            "[FAIL] An answer cell (code cell {cell}) did not finish within {seconds} s: when time ran out, a function was "
            "calling itself over and over (a recursion that never ends). Check the condition that stops the recursion "
            "(answer cells only define functions and values).",
        ),
        "grade.nb.cell_stopped": (
            "× 不合格: 答えのセル（{cell}番目のコードセル）が自分のプロセスを一時停止させたので（SIGSTOP や SIGTSTP のシグナル。"
            "os.kill(os.getpid(), signal.SIGSTOP) など）、{seconds} 秒たっても終わりませんでした。自分のカーネルでも、そのセルで止まったままになります。"
            "シグナルを送る行を消しましょう（答えのセルは関数や値を定義するだけです）",
            "[FAIL] An answer cell (code cell {cell}) stopped its own process (a SIGSTOP or SIGTSTP signal: "
            "os.kill(os.getpid(), signal.SIGSTOP), say), so it did not finish within {seconds} s. Your own kernel would "
            "hang on that cell the same way. Take out the line that sends the signal (answer cells only define functions and values).",
        ),
        "grade.nb.timeout": (
            "× 不合格: {seconds}秒以内に採点が終わらなかったので止めました。答えのセルに、終わらないコードがありませんか",
            "[FAIL] Grading did not finish within {seconds:seconds}, so it was stopped. Does an answer cell run code that never ends?",
        ),
        "grade.nb.folder_full": (
            "× 不合格: 答えのセルが、自分用のフォルダーに {mb} MB か {entries} 個を超えるファイルを書いたので止めました"
            "（サンドボックスなしの採点で、採点するマシンのディスクを守るため）",
            "[FAIL] The answer cells wrote more than {mb} MB or {entries:files} into their folder, so grading was "
            "stopped (graded without the sandbox, they would fill the grading machine's disk).",
        ),
        "grade.nb.memory": (
            "× 不合格: 答えのセルがメモリを使いすぎたので止めました（上限 {mb} MB）",
            "[FAIL] The answer cells used too much memory, so grading was stopped (the limit is {mb} MB).",
        ),
        "grade.nb.crashed": (
            "× 不合格: 答えのセルを実行したプロセスが、結果を返す前に終了しました（自分で終了した、メモリを使いすぎて止められた、など）",
            "[FAIL] The process running the answer cells ended before it returned a result (it exited, or was stopped "
            "for using too much memory, say).",
        ),
        "grade.nb.pipe_cut": (
            "× 不合格: 答えのセル（{cell}番目のコードセル）が、採点が結果を受け取るファイル記述子を閉じたか置き換えたので"
            "（os.closerange(...) や os.dup2(...) など）、結果が返りませんでした。受け継いだファイル記述子には手を付けず、課題の関数だけを書きましょう",
            "[FAIL] An answer cell (code cell {cell}) closed or replaced the descriptor the grader reads the result from "
            "(os.closerange(...) or os.dup2(...), say), so no result came back. Leave the descriptors the cells inherit "
            "alone and write only the exercise's functions.",
        ),
        "grade.nb.tampered": (
            "× 不合格: 答えのセルを実行したプロセスから、正しく動くコードなら返さない答えが届きました（答えのセルが採点用のパイプや"
            "受け継いだファイル記述子に書き込んだ、など）。採点の仕組み（harness_lab.grading）に手を入れず、課題の関数だけを書きましょう",
            "[FAIL] The process running the answer cells sent back an answer no working code sends (an answer cell wrote "
            "into the grader's pipe or another descriptor it inherited, say). Leave the grading machinery "
            "(harness_lab.grading) alone and write only the exercise's functions.",
        ),
        "grade.nb.not_graded": (
            "× 不合格: 採点できませんでした: {reason}",
            "[FAIL] Not graded: {reason}",
        ),
        "grade.nb.summary": (
            "{passed} / {total} 冊のノートブックが、すべての基準を満たしました",
            "Notebooks meeting every criterion: {passed} of {total}",
        ),
        "grade.nb.summary_unread": (
            "（ノートブックとして読めなかったファイル {count} 件は、数に入れていません）",
            "(Files that could not be read as notebooks, not counted: {count})",
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
        "grade.sandbox.finding.keyring": ("キーリングに届いた", "reached a keyring"),
        "grade.sandbox.finding.dev": ("/dev にファイルを書けた", "could write a file into /dev"),
        "grade.sandbox.finding.processes": ("呼び出し元のプロセスが見えた", "saw the caller's processes"),
        "grade.sandbox.finding.capabilities": ("特権（capability）を持っていた", "held capabilities"),
        "grade.sandbox.finding.root": ("root のままだった", "was still root"),
        "grade.sandbox.finding.host": (
            "採点ホストの上限や優先度を変えられた（ノートブックごとの PID 名前空間がない）",
            "could change the grading host's limits or priority (no PID namespace of the notebook's own)",
        ),
        "grade.sandbox.finding.netlink": (
            "netlink ソケットを開けた（キューのメモリがどの上限にも数えられない）",
            "opened a netlink socket (whose queues no memory limit counts)",
        ),
        "grade.sandbox.finding.user_namespace": (
            "自分のユーザー名前空間を作れた（特権を取り戻せる）",
            "made a user namespace of its own (where it holds capabilities again)",
        ),
        "grade.class.no_host": (
            "採点用のプロセスを起動できなかったので、採点しません: {reason}",
            "Could not start a grading process, so nothing was graded: {reason}",
        ),
        "grade.sandbox.not_isolated": (
            "△ 注意: サンドボックス（bubblewrap）が使えないので、隔離せずに採点しました。答えのセルは、あなたの権限（root なら専用の"
            "一般ユーザーの権限）で動きましたが、環境変数（API キーなど）もネットワークもなく、書けたのは自分用のフォルダーだけ、"
            "読めたのはシステム・Python・このパッケージだけでした。CPU とディスクは使えます。"
            "ほかの人のノートブックは、bubblewrap の動くマシンで採点してください",
            "[NOTE] No sandbox (bubblewrap) works here, so the notebooks were graded without isolation. The "
            "answer cells ran with your rights (run as root: an unprivileged user's), but without your environment "
            "variables (your API key among them) or the network, writing only in a folder of their own and reading "
            "only the system, Python and this package; they could still use this machine's CPU and disk. "
            "Grade someone else's notebook where bubblewrap works.",
        ),
        "grade.sandbox.not_isolated.network_open": (
            "△ 注意: サンドボックス（bubblewrap）が使えないので、隔離せずに採点しました。答えのセルは、あなたの権限（root なら専用の"
            "一般ユーザーの権限）で動きましたが、環境変数（API キーなど）は見えず、書けたのは自分用のフォルダーだけ、"
            "読めたのはシステム・Python・このパッケージだけでした。ただし、このマシンではシステムコールのフィルターが効かないので、"
            "ネットワークには届きます。ほかの人のノートブックは、bubblewrap の動くマシンで採点してください",
            "[NOTE] No sandbox (bubblewrap) works here, so the notebooks were graded without isolation. The "
            "answer cells ran with your rights (run as root: an unprivileged user's), but without your environment "
            "variables (your API key among them), writing only in a folder of their own and reading only the system, "
            "Python and this package. This machine takes no system call filter, though, so they could reach the "
            "network. Grade someone else's notebook where bubblewrap works.",
        ),
        "grade.sandbox.not_isolated.files_open": (
            "△ 注意: サンドボックス（bubblewrap）が使えないので、隔離せずに採点しました。答えのセルは、あなたの環境変数"
            "（API キーなど）を見ずに動きましたが、このカーネルには Landlock がないので、あなたの権限（root なら専用の一般ユーザーの"
            "権限）で、あなたのファイルに届きます（x86-64 と ARM64 以外のマシンでは、ネットワークにも）。"
            "ほかの人のノートブックは、bubblewrap の動くマシンで採点してください",
            "[NOTE] No sandbox (bubblewrap) works here, so the notebooks were graded without isolation. The "
            "answer cells ran without your environment variables (your API key among them), but this kernel has "
            "no Landlock, so with your rights (run as root: an unprivileged user's) they reach your files (and on "
            "machines other than x86-64 and ARM64, the network). Grade someone else's notebook where bubblewrap works.",
        ),
        "grade.nb.host_not_restarted": (
            "採点用のプロセスが前のノートブックの採点中に止まり、同じように隔離したプロセスを起動し直せなかったので、"
            "採点しませんでした（隔離を弱めて採点することはしません）",
            "the grading process stopped while it graded an earlier notebook, and one isolated as it was could not be "
            "started again, so this notebook was not graded (it is never graded with less isolation)",
        ),
        "grade.sandbox.in_process": (
            "△ 注意: サンドボックス（bubblewrap）が使えないので、このプロセスの中で、隔離せずに採点しました。答えのセルは"
            "あなたの権限で動き、ファイル・環境変数（API キーなど）・ネットワークに届きます。"
            "ほかの人のノートブックは、bubblewrap の動くマシンで採点してください",
            "[NOTE] No sandbox (bubblewrap) works here, so the notebooks were graded in this process, without "
            "isolation. The answer cells ran with your rights: they reach your files, environment variables "
            "(your API key among them) and the network. Grade someone else's notebook where bubblewrap works.",
        ),
        "grade.class.unsandboxed.network_open": (
            "注意: 隔離なしで採点しました（--unsandboxed）。受講者のコードは、採点を実行した人の権限で、その人の環境変数を見ずに動きました。"
            "このマシンではシステムコールのフィルターが効かないので、ネットワークに届きました。Landlock のあるカーネルでは自分用のフォルダーにしか"
            "書けませんが、ないカーネルでは、その人のファイルにも届きました",
            "Warning: graded without isolation (--unsandboxed). Learner code ran with the rights of whoever "
            "graded, without their environment variables. This machine takes no system call filter, so it could reach "
            "the network; on a kernel with Landlock it wrote only in a folder of its own, but on one without Landlock "
            "it could reach their files too.",
        ),
        "grade.class.unsandboxed": (
            "注意: 隔離なしで採点しました（--unsandboxed）。受講者のコードは、採点を実行した人の権限で、その人の環境変数を見ずに動きました。"
            "Landlock のあるカーネルでは自分用のフォルダーにしか書けず、ネットワークもありませんが、ないカーネルでは、その人のファイルに届きました",
            "Warning: graded without isolation (--unsandboxed). Learner code ran with the rights of whoever "
            "graded, without their environment variables; on a kernel with Landlock it wrote only in a folder of its "
            "own and had no network, but on one without Landlock it could reach their files.",
        ),
    }
)
