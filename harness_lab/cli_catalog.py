"""The ``harness-lab`` command's help (cli_parser.py), ja and en: argparse prints it in the language asked for."""

from __future__ import annotations

from .text import add

add(
    {
        "cli.help.description": (
            "第6回のエージェントハーネスをターミナルで動かします。",
            "Lesson 6's agent harness in the terminal.",
        ),
        "cli.help.commands": ("コマンド", "commands"),
        "cli.help.lang": ("メッセージの言語（既定は日本語）", "language of the messages (default ja)"),
        "cli.help.run": (
            "プロンプトをひとつ渡してエージェントを動かし、トレースを表示します",
            "run the agent on one prompt and print its trace",
        ),
        "cli.help.prompt": ("モデルに渡す最初のメッセージ", "the first message to the model"),
        "cli.help.max_turns": (
            "弁1: ツールを使うターンの上限（既定 {default}）",
            "valve 1: tool turns allowed (default {default})",
        ),
        "cli.help.budget": ("弁2: トークン予算（既定 {default}）", "valve 2: token budget (default {default})"),
        "cli.help.scenario": (
            "オフラインのときのエミュレーターのシナリオ（既定 {default}）",
            "the emulator's scenario when offline (default {default})",
        ),
        "cli.help.live": (
            "ライブの Claude を使います（ANTHROPIC_API_KEY が必要）",
            "use live Claude (needs ANTHROPIC_API_KEY)",
        ),
        "cli.help.model": (
            "モデル ID（既定: HARNESS_LAB_MODEL、なければ {default}）",
            "model id (default: HARNESS_LAB_MODEL, else {default})",
        ),
        "cli.help.yes": ("承認を尋ねずに、すべて許可します", "allow every approval without asking"),
        "cli.help.high_impact": (
            "高インパクトなツール（サンドボックスの中の write_file・delete_file・http_post）もつなぎます",
            "also wire the high-impact tools (the sandboxed write_file, delete_file and http_post)",
        ),
        "cli.help.grade": (
            "受講者ひとりの練習ノートブックを採点します（第6回）",
            "grade one learner's exercise notebooks (lesson 6)",
        ),
        "cli.help.notebooks": ("練習ノートブックのファイル（.ipynb）", "exercise notebook files (.ipynb)"),
        "cli.help.timeout": (
            "ノートブックごとの制限時間、秒（既定 {default}）",
            "seconds per notebook (default {default})",
        ),
        "cli.help.grade_lang": (
            "フィードバックの言語（既定: ノートブックごとに、その版の言語）",
            "language of the feedback (default: each notebook's edition's)",
        ),
        "cli.help.grade_class": (
            "クラスを採点します: SUBMISSIONS/<受講者>/*.ipynb からレポートを作ります",
            "grade a class: SUBMISSIONS/<learner>/*.ipynb into a report",
        ),
        "cli.help.submissions": (
            "受講者ごとのフォルダーが入ったフォルダー（deploy/jupyterhub/collect.sh が作ります）",
            "folder with one folder per learner (deploy/jupyterhub/collect.sh makes it)",
        ),
        "cli.help.out": (
            "レポートのフォルダー: grades.csv、feedback/、index.html",
            "report folder: grades.csv, feedback/, index.html",
        ),
        "cli.help.jobs": (
            "同時に採点するノートブックの数（既定: コアの数）",
            "notebooks graded at once (default: one per core)",
        ),
        "cli.help.class_lang": (
            "ページとターミナルの言語（既定: 提出されたノートブックがすべて同じ版ならその版の言語、そうでなければ日本語）。"
            "受講者ごとのフィードバックは、その受講者のノートブックの版の言語です",
            "language of the page and the terminal (default: the class's edition's when every notebook handed in is of"
            " the same one, else ja); each learner's feedback is in their own notebooks' edition's",
        ),
        "cli.help.unsandboxed": (
            "bubblewrap のサンドボックスなしで採点します。受講者のコードがあなたの権限で動きます（レポートにもそう書きます）",
            "grade without the bubblewrap sandbox: learner code runs with your rights (the report says so)",
        ),
        "cli.help.not_positive": ("正の整数を指定してください: {text}", "must be a positive integer: {text}"),
        "cli.help.empty_prompt": ("空のプロンプトは渡せません", "must not be empty"),
    }
)
