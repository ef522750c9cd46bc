"""The words of ``grade-class`` (ja, en), added to the catalog on import (issues 17, 26, 29).

What it tells the instructor on the terminal, on the class page and in each learner's feedback
(``class_command.py``, ``classroom.py``, ``class_report.py``), and about the record of grades
(``record.py``), the submissions folder and the report folder (``report_folder.py``,
``report_files.py``). What the sandbox says when a class is graded without it is in ``catalog.py``,
beside the sandbox's other words.
"""

from __future__ import annotations

from ..text import add

add(
    {
        # --- grading a class (harness-lab grade-class): the instructor's terminal ---------------------
        "grade.class.progress": (
            "採点中 {done}/{total}（タイムアウト {timeouts}・エラー {errors}）",
            "Grading {done}/{total} (timeouts: {timeouts}, errors: {errors})",
        ),
        "grade.class.done": (
            "ノートブック {total} 冊を {seconds} 秒で処理しました（新しく採点 {graded} 冊・前回の結果のまま {reused} 冊）",
            "Notebooks processed: {total}, in {seconds} s (graded now: {graded}, unchanged since the last run: {reused})",
        ),
        "grade.class.written": ("レポートを {path} に書き出しました:", "Report written to {path}:"),
        "grade.class.written.page": ("  {path}  ブラウザーで開くページ", "  {path}  the page, to open in a browser"),
        "grade.class.written.csv": (
            "  {path}  成績表（受講者と練習ごとに1行。LMS に取り込めます）",
            "  {path}  the gradebook (one row per learner and exercise; an LMS imports it)",
        ),
        "grade.class.written.feedback": (
            "  {path}/  受講者ごとのフィードバック（1人1ファイル。本人に渡せます）",
            "  {path}/  each learner's feedback (one file each, to hand back)",
        ),
        "grade.class.written.previous": (
            "  {path}  前回の成績表。そこから変わった成績は {count} 件です（ページに並べてあります）",
            "  {path}  the last run's gradebook; grades changed since: {count} (the page lists them)",
        ),
        "grade.class.one_at_a_time": (
            "このマシンでは、採点中のノートブックの答えのセルが、同時に採点するほかの人のノートブックのプロセスに届いてしまいます"
            "（ユーザー名前空間も、シグナルを閉じ込める Landlock もありません）。そのため --jobs にかかわらず、1冊ずつ採点します",
            "On this machine the answer cells of a notebook being graded could reach the processes grading another's "
            "at the same time (no user namespace, no Landlock that keeps signals in), so the notebooks are graded "
            "one at a time, whatever --jobs says.",
        ),
        "grade.class.interrupted": (
            "中断しました。採点の済んだ {done} 冊は {state} に記録してあるので、同じコマンドをもう一度実行すると続きから採点します",
            "Interrupted. Notebooks graded so far: {done}, recorded in {state}; run the same command again to continue.",
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
        "grade.class.out_busy": (
            "{out} には、いま別の grade-class がレポートを書いています。終わるのを待つか、--out に別のフォルダーを指定してください"
            "（止まった実行は、このフォルダーをふさぎ続けません）",
            "another grade-class is writing its report in {out} right now; wait for it to finish or give --out another "
            "folder (a run that stopped does not keep the folder)",
        ),
        "grade.class.state_unreadable": (
            "前回の記録 {state} を読めなかったので、すべて採点し直します: {error}",
            "Could not read the last run's record {state}, so everything is graded again: {error}",
        ),
        # --- grading a class: the report's words ----------------------------------------------------
        "grade.class.title": ("クラスの採点結果", "Class grading report"),
        "grade.class.summary": (
            "受講者 {learners} 人・ノートブック {notebooks} 冊: すべての基準を満たした {passed} 冊、"
            "満たしていない基準のある {failed} 冊、タイムアウト {timeouts} 冊、"
            "エラー {errors} 冊、未提出 {missing} 件、採点しなかったファイル {skipped} 件",
            "Learners: {learners}, notebooks: {notebooks}. Meeting every criterion: {passed}, "
            "failing a criterion: {failed}, timed out: {timeouts}, "
            "errors: {errors}, not handed in: {missing}, files not graded: {skipped}",
        ),
        "grade.class.rates": ("{exercise}: 基準ごとの通過率", "{exercise}: pass rate per criterion"),
        "grade.class.rates_note": (
            "提出された {total} 冊のうち、その基準を満たした冊数の割合です（タイムアウトとエラーは、満たしていないと数えます）",
            "The share of the notebooks handed in (total: {total}) that meet each criterion (timeouts and errors count as not met).",
        ),
        "grade.class.rate": ("{percent}%（{passed}/{total}）", "{percent}% ({passed}/{total})"),
        "grade.class.hints": ("よく出たヒント", "Most common hints"),
        "grade.class.no_hints": ("ヒントの出た基準はありません", "No criterion gave a hint."),
        "grade.class.sample": ("{learner} さんの答えのセル（{notebook}）", "{learner}'s answer cells ({notebook})"),
        "grade.class.sample_cut": (
            "（長いので、最初の {lines} 行だけを表示しました）",
            "(long: only the first {lines:lines} are shown)",
        ),
        "grade.class.sample_focus": (
            "（ヒントが名指しする部分だけを表示しました。答えのセルは全部で {lines} 行です）",
            "(only the parts the hint names are shown; the answer cells have {lines:lines} in all)",
        ),
        "grade.class.failures": ("タイムアウトとエラー", "Timeouts and errors"),
        "grade.class.no_failures": ("タイムアウトもエラーもありません", "No timeouts and no errors."),
        "grade.class.missing_title": ("未提出", "Not handed in"),
        "grade.class.skipped_title": ("採点しなかったファイル", "Files not graded"),
        "grade.class.skipped_more": (
            "このフォルダーには、採点しなかったファイルがほかに {count} 件あります（名前を挙げるのは最初の {shown} 件までです）",
            "This folder holds {count:more files} not graded (only the first {shown} are named).",
        ),
        "grade.class.none": ("ありません", "None."),
        "grade.class.col.count": ("件数", "Count"),
        "grade.class.col.exercise": ("練習", "Exercise"),
        "grade.class.col.criterion": ("基準", "Criterion"),
        "grade.class.col.hint": ("ヒント", "Hint"),
        "grade.class.col.sample": ("答えの例", "Sample answer"),
        "grade.class.col.learner": ("受講者", "Learner"),
        "grade.class.col.notebook": ("ノートブック", "Notebook"),
        "grade.class.col.file": ("ファイル", "File"),
        "grade.class.col.status": ("状態", "Status"),
        "grade.class.col.message": ("内容", "Message"),
        "grade.class.col.edition": ("版", "Edition"),
        "grade.class.col.before": ("前回", "Last run"),
        "grade.class.col.after": ("今回", "This run"),
        "grade.class.changed_title": ("前回の実行から変わった成績", "Changed since the last run"),
        "grade.class.changed_first": (
            "比べる前回の成績表がありません（このフォルダーでの最初の実行か、読めなかったとき）。次の実行からは、変わった成績をここに並べます",
            "No last run's gradebook to compare with (the first run into this folder, or it could not be read); "
            "from the next run, the grades that changed are listed here.",
        ),
        "grade.class.changed_none": ("変わった成績はありません", "No grade changed."),
        "grade.class.changed_absent": ("（なし）", "(none)"),
        "grade.class.changed_more": (
            "ほかに {count} 件あります。すべては {previous}（前回）と {current}（今回）にあります",
            "{count} more; all of them are in {previous} (last run) and {current} (this run).",
        ),
        "grade.class.previous_unread": (
            "前回の {name} を読めなかったので、変わった成績は示せません: {error}",
            "the last run's {name} could not be read, so no change is shown: {error}",
        ),
        "grade.class.edition.ja": ("日本語版", "Japanese"),
        "grade.class.edition.en": ("英語版", "English"),
        "grade.class.editions_title": (
            "受講者ごとの版（日本語版・英語版）",
            "Each learner's edition (Japanese or English)",
        ),
        "grade.class.status.ok": ("採点済み", "graded"),
        "grade.class.status.timeout": ("タイムアウト", "timeout"),
        "grade.class.status.error": ("エラー", "error"),
        "grade.class.status.missing": ("未提出", "not handed in"),
        "grade.class.footer": (
            "採点コードの版 {version}・制限時間はノートブック1冊につき {seconds} 秒、1回の確認につき {check} 秒"
            "（確認が制限時間を過ぎると、その基準は満たしていないと数え、ヒントがそう伝えます。タイムアウトの冊数には入りません）",
            "Grader version {version}; time limit {seconds} s per notebook and {check} s per check (a check past its "
            "limit fails its criterion, with a hint saying so, and is not counted as timed out)",
        ),
        # --- grading a class: lines in a learner's feedback file -------------------------------------
        "grade.class.feedback_title": ("{learner} さんの採点結果", "Grading results for {learner}"),
        "grade.class.other_exercise": (
            "× 不合格: このファイルの名前は {named} ですが、中身は {held} の答えです。{named} の答えを入れて提出し直しましょう",
            "[FAIL] This file is named for {named}, but it holds the answers to {held}. Hand it in again with {named}'s answers.",
        ),
        "grade.class.missing": (
            "× 不合格: {exercise} のノートブックが提出されていません",
            "[FAIL] No notebook was handed in for {exercise}.",
        ),
        "grade.class.not_notebook": (
            "{name} はノートブック（.ipynb）ではないので、採点していません",
            "{name} is not a notebook (.ipynb), so it was not graded.",
        ),
        "grade.class.duplicate": (
            "{name} は採点に入れていません: {exercise} のファイルはほかにもあり、{kept} を採点しました。練習ごとに1つのファイルで提出しましょう",
            "{name} was not counted: another file holds {exercise} too, and {kept} was the one graded. Hand in one file per exercise.",
        ),
        "grade.class.too_many_notebooks": (
            "{name} は開いていません: このフォルダーにはノートブックが多すぎます（開くのは、同じ練習の名前が付いたものと、練習の名前が付いていないものの、それぞれ名前の短い順に {limit} 冊までです）",
            "{name} was not opened: this folder holds too many notebooks (only the {limit:shortest names} of each exercise are opened, and {limit} of those named after none).",
        ),
        "grade.class.not_regular": (
            "{name} は普通のファイルではない（シンボリックリンクなど）ので、採点していません",
            "{name} is not a regular file (a symbolic link, say), so it was not graded.",
        ),
        "grade.class.too_large": (
            "× 不合格: {name} は {mb} MB あり、大きすぎるので採点していません（上限 {limit} MB）",
            "[FAIL] {name} is {mb} MB, too large to grade (the limit is {limit} MB).",
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
        "grade.class.host_altered": (
            "採点しているあいだに、採点する側のプロセスの上限か優先度（メモリ・プロセス数・nice・CPU・I/O）が変わったので、"
            "このノートブックは採点できませんでした（新しいプロセスで1冊だけ採点し直しても同じでした）。"
            "答えのセルが、ほかのプロセスの上限や優先度を変えていませんか。次に grade-class を実行すると、採点し直します",
            "While this notebook was graded, the grading process's own limits or priority (memory, processes, nice, "
            "CPUs, I/O) changed, so it was not graded (graded again alone on a fresh process, the same happened). "
            "Does an answer cell change another process's limits or priority? The next grade-class run grades it again.",
        ),
        # --- the submissions folder -----------------------------------------------------------------
        "grade.class.same_file": (
            "{files} は同じ1つのファイルです（ハードリンク）。それぞれの受講者の提出として採点しましたが、中身は1つです。"
            "だれのノートブックか確かめてください",
            "{files} are one and the same file (a hard link). Each was graded as its learner's, but there is only "
            "one notebook: check whose it is.",
        ),
        "grade.class.look_alike": (
            "受講者のフォルダー {names} は、名前が見分けにくいものです（見えない文字、全角と半角、大文字と小文字、同じ形に描かれるキリル文字やギリシャ文字の違いだけのもの、成績表で制御文字がエスケープで書かれたり数式よけの ' が付いたりして同じ文字列になるもの、または先頭の ' だけが違うもの）。"
            "それぞれ別の受講者として採点しましたが、成績表やページでは同じ名前に見えます。だれのフォルダーか確かめてください",
            "The learner folders {names} have names that look alike (they differ only by characters that show as "
            "nothing, full or half width, case, or Cyrillic and Greek letters drawn as Latin ones, or the gradebook writes them the "
            "same: a control character as its escape, a formula behind a ', or they differ only by a leading '). Each was graded as its own learner, but in the gradebook and on "
            "the page they read as one name: check whose each folder is.",
        ),
        # --- the report folder, checked before anything is graded ----------------------------------
        "grade.class.out_link": (
            "レポートの書き出し先 {out} はシンボリックリンクです。リンク先のフォルダー {target} を直接指定してください",
            "The report folder {out} is a symbolic link; give the folder it points to, {target}, instead.",
        ),
        "grade.class.out_not_private": (
            "レポートの書き出し先 {out} は、あなたのものではないか、だれでも書き込めるフォルダーです。"
            "ほかのアカウントに採点の記録や成績を書き換えられないよう、自分のフォルダー（chmod o-w）を指定してください",
            "The report folder {out} is not yours or any account may write it; so that no one else can change "
            "the grades or their record, give a folder of your own (chmod o-w).",
        ),
        "grade.class.out_file": (
            "レポートの書き出し先 {out} はファイルです。新しいフォルダーか空のフォルダー（前回のレポートのフォルダーでもかまいません）を指定してください",
            "The report folder {out} is a file; give a new or empty folder (or an earlier report's).",
        ),
        "grade.class.out_unusable": (
            "レポートの書き出し先 {out} を使えません: {error}",
            "Cannot use the report folder {out}: {error}",
        ),
        # --- the submissions folder, checked before anything is graded -------------------------------
        "grade.class.submissions_file": (
            "{path} はファイルです。提出フォルダー（受講者ごとのフォルダーが入ったフォルダー: SUBMISSIONS/<受講者>/*.ipynb）を指定してください",
            "{path} is a file, not a folder: give the submissions folder, which holds one folder per learner "
            "(SUBMISSIONS/<learner>/*.ipynb).",
        ),
        "grade.class.learner_folder": (
            "{path} にはノートブックが直接入っていて、受講者のフォルダーがありません。1人の受講者のフォルダーではありませんか。"
            "その1つ上の、受講者ごとのフォルダーが入ったフォルダーを指定してください（SUBMISSIONS/<受講者>/*.ipynb）",
            "{path} holds notebooks but no learner folders: is it one learner's folder? Give the folder above it, "
            "which holds one folder per learner (SUBMISSIONS/<learner>/*.ipynb).",
        ),
        "grade.class.submissions_denied": (
            "提出フォルダー {path} を読む権限がありません: {error}。collect.sh で回収したフォルダーは root だけが"
            "読めるので、sudo を付けて実行してください",
            "You may not read the submissions folder {path}: {error}. collect.sh makes it root's alone, so run "
            "grade-class with sudo.",
        ),
        "grade.class.submissions_unreadable": (
            "提出フォルダー {path} を読めません: {error}",
            "Cannot read the submissions folder {path}: {error}",
        ),
        "grade.class.no_learners": (
            "{path} に受講者のフォルダーがありません。採点するのは SUBMISSIONS/<受講者>/*.ipynb です"
            "（deploy/jupyterhub/collect.sh はこの形で回収します）",
            "{path} holds no learner folders. grade-class grades SUBMISSIONS/<learner>/*.ipynb (the layout "
            "deploy/jupyterhub/collect.sh collects into).",
        ),
        # --- the record of grades (state.json) and its key -----------------------------------------
        "grade.class.record_untrusted": (
            "前回の記録 {state} のうち {count} 件は、署名が合わない（採点コード以外が書いた）ので、使わずに採点し直します",
            "Entries of the last record {state} that fail the signature check (something other than the grader "
            "wrote them): {count}. Those notebooks are graded again.",
        ),
        "grade.class.record_not_saved": (
            "採点の記録 {state} を保存できませんでした: {error}。成績とレポートは今回の採点のとおりですが、"
            "次回は記録にないノートブックを採点し直します",
            "Could not save the record {state}: {error}. The grades and the report are this run's; the next "
            "run grades again whatever the record lacks.",
        ),
        "grade.class.key_unavailable": (
            "記録の署名キーを {path} に置けませんでした: {error}。今回の記録は、次回には使われません",
            "Could not keep the key that signs the record at {path}: {error}. The next run will not reuse this run's record.",
        ),
        "grade.class.key_folder_not_yours": (
            "{path} はあなたのフォルダーではありません",
            "{path} is not your folder",
        ),
        "grade.class.key_replaced": (
            "記録の署名キー {path} が信用できない（{why}）ので、新しい署名キーを作りました。これまでの記録は使わずに採点し直します",
            "The key that signs the record, {path}, cannot be trusted ({why}), so a new key was made; "
            "notebooks recorded with the old one are graded again.",
        ),
        "grade.class.key_not_a_key": (
            "普通のファイルでないか、大きさが違います: {size} バイト",
            "not a regular file, or the wrong size: {size:bytes}",
        ),
        "grade.class.key_not_private": (
            "ほかのアカウントが読み書きできるか、あなたのものではありません: モード {mode}",
            "other accounts may read or write it, or it is not yours: mode {mode}",
        ),
        # --- writing the report's files ---------------------------------------------------------------
        "grade.class.stray_removed": (
            "書きかけのまま残ったか、置かれたもの {name} を消しました",
            "Removed {name}: a partial file left behind, or something planted.",
        ),
        "grade.class.replaced": (
            "{name} が、レポートがそこに置く種類（ファイルかフォルダー）ではなかった（リンクなど）ので、たどらずに消して作り直しました",
            "{name} was not what the report puts there (a link, say): it was removed, never followed, and made anew.",
        ),
        "grade.class.not_a_file": ("{name} は普通のファイルではありません", "{name} is not a regular file"),
        "grade.class.file_too_large": ("{name} が {limit} MB を超えています", "{name} is over {limit} MB"),
        "grade.class.write_failed": (
            "レポートの {name} を書き出せませんでした: {error}",
            "Could not write {name} of the report: {error}",
        ),
        "grade.class.report_incomplete": (
            "レポート {out} のうち {count} 件のファイルを書き出せませんでした（上の行を見てください）",
            "Files of the report {out} that could not be written: {count} (see the lines above).",
        ),
        "grade.class.notes_title": ("この採点で気づいたこと", "Noticed during this run"),
        # The refusal of a second run on a report folder, naming the run that holds it (report_folder.claim).
        "grade.class.out_busy_by": (
            "{out} には、いま別の grade-class（PID {pid}、{running}前から実行中）がレポートを書いています。"
            "終わるのを待つか、--out に別のフォルダーを指定してください（止まった実行は、このフォルダーをふさぎ続けません）",
            "another grade-class (PID {pid}, running for {running}) is writing its report in {out} right now; wait "
            "for it to finish or give --out another folder (a run that stopped does not keep the folder)",
        ),
        "grade.class.seconds": ("{s} 秒", "{s} s"),
        "grade.class.minutes": ("{m} 分 {s} 秒", "{m} min {s} s"),
        "grade.class.hours": ("{h} 時間 {m} 分", "{h} h {m} min"),
    }
)
