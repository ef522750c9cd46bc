"""The words of a class report's record and files (ja, en), added to the catalog on import (issues 26, 29).

What ``grade-class`` tells the instructor about the record of grades (``record.py``), its key
(``record.py``), the submissions folder and the report folder (``report_folder.py``, ``report_files.py``,
``class_command.py``). The rest of the class report's words are in ``catalog.py``.
"""

from __future__ import annotations

from ..text import add

add(
    {
        # --- the submissions folder -----------------------------------------------------------------
        "grade.class.same_file": (
            "{files} は同じ1つのファイルです（ハードリンク）。それぞれの受講者の提出として採点しましたが、中身は1つです。"
            "だれのノートブックか確かめてください",
            "{files} are one and the same file (a hard link). Each was graded as its learner's, but there is only "
            "one notebook: check whose it is.",
        ),
        "grade.class.look_alike": (
            "受講者のフォルダー {names} は、名前が見分けにくいものです（見えない文字、全角と半角、大文字と小文字、同じ形に描かれるキリル文字やギリシャ文字の違いだけ）。"
            "それぞれ別の受講者として採点しましたが、成績表やページでは同じ名前に見えます。だれのフォルダーか確かめてください",
            "The learner folders {names} have names that look alike (they differ only by characters that show as "
            "nothing, full or half width, case, or Cyrillic and Greek letters drawn as Latin ones). Each was graded as its own learner, but in the gradebook and on "
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
            "not a regular file, or the wrong size: {size} bytes",
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
