# ---
# jupyter:
#   harness_lab:
#     exercise: level2
# ---

# %% [markdown]
# # 練習 レベル2: このループに欠けているゲートと、どう暴走するか
#
# レッスン6「制御付きエージェントハーネスを手書きする」の練習です。
# 前: [`level1_tiered_policy.ipynb`](level1_tiered_policy.ipynb)
#
# **このノートブックを終えると、次のことができます**
#
# - 裸のループに欠けている制御と、その欠落がそれぞれ生む暴走を、対にして言葉にできる
# - `MAX_TURNS` のチェックをループ本体の先頭、カウンターを進める手前に置き、その位置が正しいことを数で確かめられる
#
# **進め方**: `TODO` のあるセルを書き換え、上から順に実行します。最後の採点セルが
# `◎ 3つの基準をすべて満たしました` を表示すれば合格です（○ は合格、× は不合格、△ は注意の印です）。
#
# **採点のしくみ**: 最後の採点セルは、このノートブックのカーネルの中で採点し、基準を1つでも満たさなければセルがエラー
# （1行の `GradeFailed`）で止まります。ターミナルからは `harness-lab grade exercises/level2_missing_gate.ipynb` で採点できます
# （講座の Python のコマンドで、クラスのハブのターミナルならそのまま動きます。リポジトリーの中なら `python3 dev.py grade` で2冊とも）。
# どこで動かしていても、ノートブックを保存してから新しいセルで `import sys` と
# `!"{sys.executable}" -P -m harness_lab.grading level2_missing_gate.ipynb` の2行を実行すれば、このカーネルの Python で同じ採点をします。
# どちらも、タグ `answer` の付いたセル（`TODO` のセル）と
# タグ `setup` の付いた準備のセルだけを新しいプロセスで実行し、パッケージ自身の採点コードを呼びます。
# 採点セルの中身も、ファイルに保存された出力も見ません。自分で足したセルは実行されないので、定義は `TODO` のセルに書きましょう。

# %% [markdown]
# ## 課題
#
# 同僚は下のハーネスのループを「動く」と言います。けれども、モデルが自分から `end_turn` を返さなくなった瞬間、
# あるいは足踏みに陥った瞬間に壊れます。
#
# 1. どの制御が欠けていて、その欠落が**それぞれ**どんな暴走の振る舞いを生むかを、対にして指摘してください（選択肢から選びます）
# 2. 最小限の修正として、ループが必ず止まることを保証するハードな境界 `MAX_TURNS` を足してください。
#    チェックはループ本体の先頭、カウンターを進める手前に置きます
#
# ### 完了基準（採点セルが1つずつ確かめます）
#
# 1. 止まるか続けるかの判断をまるごとモデルの `stop_reason` に委ねていて、明示的な停止条件がないことを指摘している
# 2. 欠けている制御それぞれに、それが生む暴走を正しく対応づけ、少なくとも2種類の暴走を挙げている:
#    ターン/予算の暴走と、同じツールを同じ引数で繰り返す無進捗
# 3. `MAX_TURNS = N` のとき、決して止まらないモデルに対してツール呼び出しがちょうど N ターン、モデルへのリクエストが N + 1 回で止まり、
#    上限に達して停止したことを伝える文を返す（数字だけではなく）。1つの応答で2〜3個のツールを呼ぶモデルでも、数えるのはターン。
#    普通のタスク（モデルが自分で切り上げる）では、モデルの答えを返す
#
# 採点はあなたのソースコードを読みません。エミュレーターがモデルへのリクエストを数え、記録係のツールが実行を数えます。

# %% [markdown]
# ## 準備
#
# 同僚のハーネスが使うツール定義と、ツールを実行する `run_tool_uses` を用意します。準備のセルは何も表示しません。
# レッスン本文は TypeScript なので、関数の名前は `runToolUses`、`runAgent` です。Python のコードでは、同じ関数を
# `run_tool_uses`、`run_agent` と書きます（同僚の版の `runAgent` は `colleague_run_agent`）。
# `hl.use_language("ja")` は、このカーネルの表示（選択肢、採点の結果とヒント）を日本語にします（英語版のノートブックでは `"en"`）。

# %% tags=["setup"]
import json

import harness_lab as hl
from harness_lab.emulator import call, emulated_client, reply, say
from harness_lab.grading import check_level2, level2_options, run_limited, try_limited

hl.use_language("ja")  # このノートブックの表示は日本語（HARNESS_LAB_LANG の設定にかかわらず）
MODEL = "claude-sonnet-5"
TOOLS = [
    {"name": "search", "description": "資料を検索する",
     "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}}},
    {"name": "get_time", "description": "現在時刻を ISO 8601 の文字列で返す",
     "input_schema": {"type": "object", "properties": {}}},
    {"name": "read_file", "description": "プロジェクト内のテキストファイルを読む",
     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}},
]


def run_tool_uses(content, tool_impls):
    # レッスンの runToolUses（承認弁なし）。すべての tool_use に tool_result を1つずつ返す
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        try:
            output = tool_impls[block.name](**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
        except Exception as err:
            results.append({"type": "tool_result", "tool_use_id": block.id,
                            "content": f"ツールの実行に失敗しました: {err}", "is_error": True})
    return results


def toy(name, output, show=False):
    def impl(**tool_input):
        if show:
            print(f"[実行] {name}({json.dumps(tool_input, ensure_ascii=False)})")
        return output
    return impl


# %% [markdown]
# ## 同僚のループ
#
# レッスン6の最初に書いた、制御弁のない `runAgent` を Python にしたものです。

# %% tags=["setup"]
def colleague_run_agent(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        tool_results = run_tool_uses(response.content, tool_impls)
        messages.append({"role": "user", "content": tool_results})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    return next((b.text for b in response.content if b.type == "text"), "")


# %% [markdown]
# ### 壊れる姿を見る 1: 切り上げないモデル
#
# どんなリクエストにも「もう少し調べます」と新しい検索を頼み続けるモデルです。
# ふつうに呼べばカーネルが止まらなくなるので、`run_limited`（採点と同じ、制限時間付きの別プロセス実行）で2秒だけ走らせます。

# %%
def never_done(request):
    # これまでの assistant の数から、次の検索語を作る（毎回ちがう引数: 足踏みではない）
    done = sum(1 for m in request["messages"] if m["role"] == "assistant")
    return reply("もう少し調べます。", call("search", query=f"手がかり {done + 1}"))


search_impls = {"search": toy("search", "手がかりが1件見つかりました")}
outcome = run_limited(
    lambda: colleague_run_agent(emulated_client(never_done), "原因を調べて", TOOLS, search_impls),
    timeout=2,
)
print(outcome.status)  # 'timeout' — 2秒たっても終わらなかった

# %% [markdown]
# ### 壊れる姿を見る 2: 足踏みするモデル
#
# 同じツールを同じ引数で呼び続けるモデルです（このモデルは6回呼んだあとで諦めてくれますが、本物がそうとは限りません）。
# ループはそれに気づきません。

# %%
stuck = [call("search", query="東京 天気")] * 6 + [say("天気は分かりませんでした。")]
stuck_impls = {"search": toy("search", "該当なし", show=True)}
print(colleague_run_agent(emulated_client(stuck), "東京の天気は？", TOOLS, stuck_impls))

# %% [markdown]
# ## あなたの番 1: 何が欠けていて、それぞれどう暴走するか
#
# 次のセルを実行すると選択肢が表示されます。`MISSING` を「このループに欠けている制御のキー → その欠落が生む暴走のキー」の辞書で書いてください
# （暴走が2つ以上あるなら、値は集合でも構いません）。このループが実はちゃんとやっていることや、このループでは起きない暴走を選ぶと、
# 減点ではなく「× 不合格」になります。

# %% tags=["options"]
level2_options()

# %% tags=["answer", "starter"]
# TODO: 欠けている制御のキー → その欠落が生む暴走のキー（少なくとも2種類の暴走）
MISSING = {}

# %% tags=["answer", "solution"]
MISSING = {
    "stop_condition": "endless_turns",  # 止まるかどうかをモデルにまるごと任せている → ターンの暴走
    "token_budget": "budget_burn",      # 予算の上限がない → 費用が燃え尽きるまで止まらない
    "no_progress": "spinning",          # 無進捗検知がない → 足踏みに誰も気づかない
}

# %% [markdown]
# ## あなたの番 2: `MAX_TURNS` で必ず止まるようにする
#
# `run_agent` は、いまは同僚のループと同じです。`MAX_TURNS` のカウンターとチェックを足してください。
# チェックは本体の**先頭**、カウンターを進める**手前**に置き、「この一周に入る前に、もう一周が許されているか」を問います。
# 数えるのはターン（ループの一周）で、`tool_use` ブロックの数ではありません。
# 上限で止まるときは、上限に達して止まったことが分かる文を返します（モデルの途中の文や、数字だけではなく）。

# %% tags=["answer", "starter"]
MAX_TURNS = 8


def run_agent(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    # TODO: ターン数のカウンターを用意する
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    while response.stop_reason == "tool_use":
        # TODO: ここで MAX_TURNS のチェックをし、その後でカウンターを進める
        messages.append({"role": "assistant", "content": response.content})
        tool_results = run_tool_uses(response.content, tool_impls)
        messages.append({"role": "user", "content": tool_results})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    return next((b.text for b in response.content if b.type == "text"), "")


# %% tags=["answer", "solution"]
MAX_TURNS = 8


def run_agent(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    turns = 0
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    while response.stop_reason == "tool_use":
        # 弁1: 最大ターン数。本体の先頭、turns += 1 の手前で「まだ回ってよいか」を問う
        if turns >= MAX_TURNS:
            return (f"最大ターン数 {MAX_TURNS} に達したので、自分から停止します"
                    "（タスクが難しすぎるか、モデルが行き詰まっている可能性があります）")
        turns += 1

        messages.append({"role": "assistant", "content": response.content})
        tool_results = run_tool_uses(response.content, tool_impls)
        messages.append({"role": "user", "content": tool_results})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    return next((b.text for b in response.content if b.type == "text"), "")


# %% [markdown]
# ## 試してみる
#
# 普通のタスク（ツール呼び出し2ターンで答える）と、切り上げないモデルの両方に、あなたの `run_agent` を当てます。
# どちらも `try_limited`（`run_limited` と同じ別プロセス実行で、出力と返り値をこのセルに表示する）で呼ぶので、
# 上限がまだなくても、このセルは数秒で戻ります。

# %% tags=["try"]
normal = [
    call("read_file", path="README.md"),
    call("get_time"),
    say("README.md の1行目は「# エージェントハーネスの基礎」で、いまは 10:42 です。"),
]
normal_impls = {
    "read_file": toy("read_file", "# エージェントハーネスの基礎", show=True),
    "get_time": toy("get_time", "2026-08-26T10:42:07+08:00", show=True),
}
try_limited(lambda: run_agent(emulated_client(normal), "README.md の1行目を読んで、それから今何時か教えて",
                              TOOLS, normal_impls))

try_limited(lambda: run_agent(emulated_client(never_done), "原因を調べて", TOOLS, search_impls), timeout=2)

# %% [markdown]
# ## 採点
#
# このセルを実行すると、基準ごとに「○ 合格」か「× 不合格」が1行ずつ出ます。「× 不合格」にはヒントが付き、
# セルは1行のエラー（`GradeFailed`）で止まります。3つとも合格なら、最後の行に「◎ 3つの基準をすべて満たしました」と出ます。
# このセルの下に何も出ていなければ、まだ採点していません。採点する基準:
#
# 1. 明示的な停止条件がない（止まるか続けるかがモデル任せ）ことを挙げ、このループにすでにあるもの（末尾の再代入など）は挙げていない
# 2. 欠けている制御それぞれに、それが生む暴走を対応づけ、少なくとも2種類（ターン/予算の暴走と、無進捗の足踏み）を挙げている
# 3. MAX_TURNS のチェックで、止まらないモデルでもツール呼び出しちょうど N ターンで止まって停止メッセージを返し、普通のタスクはモデルの答えで終わる

# %% tags=["grade"]
from harness_lab.grading import check_level2
check_level2(MISSING, run_agent, MAX_TURNS)

# %% [markdown]
# ## 振り返り
#
# <details><summary>なぜチェックはカウンターを進める「手前」なのですか？</summary>
#
# `turns` は「終わったターンの数」です。先頭で `turns >= MAX_TURNS` を問えば、ちょうど `MAX_TURNS` ターンのツール呼び出しが許され、
# 最後の結果もモデルに返ってから止まります。`turns += 1` の後に問うと1ターン早く止まり、ツールの実行の後に問うと、
# 最後の結果をモデルに返さないまま止まります。採点が「ツール呼び出し N ターン、リクエスト N + 1 回」を数えていたのはそのためです。
# </details>
#
# <details><summary>なぜ tool_use ブロックではなくターンを数えるのですか？</summary>
#
# 1つの応答で、モデルは複数のツールを同時に呼べます。ブロックを数えると、並列に呼ぶモデルほど早く止まり、
# 上限の意味（モデルへのリクエストは N + 1 回まで）が、モデルの呼び方しだいで変わってしまいます。
# </details>
#
# <details><summary>MAX_TURNS だけでは足りないのは、どんなときですか？</summary>
#
# 1ターンあたりのコンテキストが巨大なら、ターン数が少なくても予算は燃えます（予算上限が要る）。
# 同じ呼び出しを繰り返す足踏みは、上限に届くまで気づかれません（無進捗検知が要る）。
# 逆に、統制された環境で3〜5ターン走る小さなツールなら、`MAX_TURNS` だけで十分なこともあります。
# </details>
#
# <details><summary>上限はループを止める「主役」ですか？</summary>
#
# いいえ。主役はいまも `stop_reason` です。上限は、モデルが切り上げなかったときのための保険です。
# だから普通のタスクでは、上限に触れずにモデルの答えが返ります。
# </details>
