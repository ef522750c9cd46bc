"""What the lessons' scripted worlds say, ja and en: the user's requests, the models' words, the tools'
outputs. A hint may quote any of them, so an English kernel's probes speak English throughout."""

from __future__ import annotations

from ..text import add

add(
    {
        # scenes.py: what the thinking block says (a signature that keeps it shows it in a hint)
        "lesson.said.any.thought": (
            "まず必要なことを順に確かめる。",
            "First, work out what is needed and check it step by step.",
        ),
        # scenes.py: the descriptions of the probes' tools, as many tokens in both (the JSON of each definition)
        "lesson.said.tools.get_weather": (
            "指定した都市の現在の気象情報を返す",
            "Returns the current weather conditions in the given city, right now",
        ),
        "lesson.said.tools.get_time": (
            "現在時刻を ISO 8601 の文字列で返す",
            "Returns the current time as a string in the ISO 8601 format",
        ),
        "lesson.said.tools.read_file": (
            "プロジェクト内のテキストファイルを読む",
            "Reads a text file in the project folder and returns its whole contents as text",
        ),
        "lesson.said.tools.search": ("資料を検索する", "Searches the reference notes"),
        "lesson.said.tools.write_file": ("ファイルに書き込む", "Writes the given text into the file"),
        "lesson.said.tools.http_post": ("URL に POST リクエストを送る", "Sends a POST request with a body to the URL"),
        "lesson.said.tools.delete_file": ("ファイルを削除する", "Deletes the file at the given path"),
        # lesson2.py and lesson2_world.py: what the user asks, what the model says and what the tool returns (WEATHER aside)
        "lesson.said.l2.osaka": ("大阪", "Osaka"),
        "lesson.said.l2.tokyo": ("東京", "Tokyo"),
        "lesson.said.l2.no_city": ("都市が見つかりません", "City not found"),
        "lesson.said.l2.ask": ("大阪と東京の気温を比べて", "Compare the temperatures in Osaka and Tokyo"),
        "lesson.said.l2.again": ("もう一度", "Once more"),
        "lesson.said.l2.two_cities": ("2つの都市を調べます。", "I'll look up the two cities."),
        "lesson.said.l2.tokyo_only": ("次は東京だけ。", "Now Tokyo only."),
        "lesson.said.l2.osaka_first": ("わかりました。まず大阪です。", "Got it. Osaka first."),
        "lesson.said.l2.tokyo_next": ("次は東京です。", "Now Tokyo."),
        "lesson.said.l2.both": ("2つ調べます。", "I'll check the two of them."),
        "lesson.said.l2.answer": (
            "大阪は21°Cで晴れ、東京は17°Cでくもりです。",
            "Osaka is 21°C and sunny, Tokyo is 17°C and cloudy.",
        ),
        "lesson.said.l2.four": ("東京と大阪を、2回ずつ調べます。", "I'll look up Tokyo and Osaka twice each."),
        "lesson.said.l2.four_again": ("もう一度、2回ずつ", "Once more, twice each"),
        # lesson3.py: What the scripted responses say, in the kernel's language: a next_step that returns the text shows it.
        "lesson.said.l3.looking": ("調べます。", "Let me look."),
        "lesson.said.l3.searching": ("検索の途中です。", "Still searching."),
        "lesson.said.l3.answer": ("答えです。", "Here is the answer."),
        "lesson.said.l3.42": ("答えは 42 です。", "The answer is 42."),
        # lesson4.py: What the scripted turns say and think, in the kernel's language: a signature that reads them shows them.
        "lesson.said.l4.looking": ("調べます。", "Let me look."),
        "lesson.said.l4.once_more": ("もう一度だけ見ます。", "One more look, just once."),
        # ja: the next turn's thinking, worded otherwise
        "lesson.said.l4.rethought": ("さっきと同じものをもう一度確かめる。", "Check the same thing again, as before."),
        "lesson.said.l4.turn": ("ターン {turn}", "Turn {turn}"),
        # lesson5.py: What the tools return, the model says and the user asks, in the kernel's language: a hint may quote it.
        "lesson.said.l5.read_file": ("# 今週の問い合わせ", "# This week's inquiries"),
        "lesson.said.l5.write_file": ("書き込みました", "written"),
        "lesson.said.l5.http_post": ("送信しました", "sent"),
        "lesson.said.l5.delete_file": ("削除しました", "deleted"),
        "lesson.said.l5.missing": ("{path} はありません", "{path} does not exist"),
        "lesson.said.l5.summary": ("今週のまとめ", "This week's summary"),
        "lesson.said.l5.overwrite": ("上書き", "overwritten"),
        "lesson.said.l5.weekly": ("週報", "weekly report"),
        "lesson.said.l5.saving": ("保存します。", "I'll save it."),
        "lesson.said.l5.post_and_delete": ("送って、消します。", "I'll send it, then delete the old one."),
        "lesson.said.l5.time_and_three": ("時刻を見て、3つ書きます。", "I'll check the time and write three files."),
        "lesson.said.l5.in_order": ("順に片付けます。", "I'll take these in order."),
        "lesson.said.l5.save_it_all": ("まとめて保存して", "Save it all"),
        "lesson.said.l5.searching": ("探します。", "I'll look for it."),
        "lesson.said.l5.next": ("次", "Next"),
        "lesson.said.l5.no_screen": ("承認の画面を開けませんでした", "Could not open the approval screen"),
        # lesson6.py: What the models say and call, in the kernel's language: a hint may quote it. Where a probe counts
        # tokens (the model that never ends, the one that burns its budget), the English costs what the
        # Japanese does (harness_lab.emulator.tokens: as text, as a tool input, and inside the thinking
        # summary that names the call), so a budget stops the loop where it did before.
        "lesson.said.l6.answer": (
            "README.md の1行目は「# エージェントハーネスの基礎」で、いまは 10:42 です。",
            'The first line of README.md is "# Agent harness basics", and it is 10:42 now.',
        ),
        # en: 7 tokens, as the Japanese
        "lesson.said.l6.more": ("まだ調べます。", "I'll keep looking into it."),
        # en: as a search input, 9 tokens, as the Japanese
        "lesson.said.l6.clue": ("手がかり {n}", "clue to follow up {n}"),
        # en: 40 of them: 640 tokens
        "lesson.said.l6.burn": (
            "念のため、もっと詳しく調べます。",
            "To be on the safe side, I will look into it in more detail now. ",
        ),
        # en: as a search input, 7 tokens
        "lesson.said.l6.detail": ("詳細 {n}", "in detail {n}"),
        "lesson.said.l6.not_found": ("見つかりませんでした。", "I couldn't find it."),
        "lesson.said.l6.paused": ("資料の調査を進めています。", "I'm working through the documents."),
        "lesson.said.l6.resumed": (
            "調査が終わりました。要点は3つです。",
            "The research is done. There are 3 key points.",
        ),
        "lesson.said.l6.report": ("# 週次レポート\n- 問い合わせ件数: 4", "# Weekly report\n- Inquiries: 4"),
        "lesson.said.l6.writing": ("書き出します。", "I'll write it out."),
        # lesson6's probes (diagnosis.py): the user's request and what each tool returns, as many tokens in both
        "lesson.said.l6.ask": ("やって", "Do the task."),
        "lesson.said.l6_outputs.read_file": (
            "# エージェントハーネスの基礎",
            "# Agent harness basics: the loop, its valves, approval",
        ),
        "lesson.said.l6_outputs.search": ("手がかりが1件", "One clue found in the notes"),
        "lesson.said.l6_outputs.write_file": ("書き込みました", "Written to the file as asked"),
        "lesson.said.l6_outputs.http_post": ("送信しました", "Sent the POST request"),
        "lesson.said.l6_outputs.delete_file": ("削除しました", "The file is now deleted"),
        # lesson6_approval.py: What the model says and calls, in the kernel's language: a hint may quote it.
        "lesson.said.l6_approval.memo": ("メモ", "a note"),
        "lesson.said.l6_approval.finished": ("終わりました", "all done"),
        "lesson.said.l6_approval.acting": (
            "時刻を見て、保存し、知らせて、片づけます。",
            "I'll check the time, then save, notify and tidy up.",
        ),
        "lesson.said.l6_approval.done": ("終わりました。", "All done."),
        "lesson.said.l6_approval.ask": ("やって", "Go ahead"),
        # capstone.py: the words of the request and of the scripted models, in the kernel's language
        "lesson.said.capstone.ask": ("日報を送って", "Send the daily report"),
        "lesson.said.capstone.daily": (
            "日報: 問い合わせ 42 件、未解決 3 件",
            "Daily report: 42 inquiries, 3 still open",
        ),
        "lesson.said.capstone.sending": ("日報を送ります。", "I'll send the daily report."),
        "lesson.said.capstone.sent": ("送りました。", "Sent."),
        "lesson.said.capstone.secret": ("社外秘の集計", "Internal figures, not for outside eyes"),
        "lesson.said.capstone.none_sent": (
            "どの宛先にも送れませんでした。",
            "I couldn't send it to any of those addresses.",
        ),
        "lesson.said.capstone.offline": ("ネットワークに接続できません", "The network is unreachable"),
        "lesson.said.capstone.give_up": ("あきらめます。", "I'll give up."),
        # lesson7.py: What the scripted responses say, in the kernel's language: a stop message that keeps it shows it.
        "lesson.said.l7.declined": ("この依頼にはお応えできません。", "I can't help with this request."),
        "lesson.said.l7.looking": ("調べます。", "Let me look."),
        "lesson.said.l7.searching": ("検索の途中です。", "Still searching."),
        "lesson.said.l7.answer": ("答えです。", "Here is the answer."),
    }
)
