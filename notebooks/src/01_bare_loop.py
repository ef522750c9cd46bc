# %% [markdown]
# # レッスン2: コアループ — 一度の往復から継続的な運転へ
#
# **エージェントハーネスの基礎: ループと制御** · ノートブック 1 / 6
#
# 前: なし（ここから始めます） ｜ 次: [レッスン3: 停止条件](02_stop_conditions.ipynb)
#
# **所要時間の目安:** 約50分（読む 28分・書いて確かめる 16分・実行と予想 7分）。2回に分けるなら「6. ループにする」の前で ｜ **前提:** Python の関数・リスト・辞書・`while` が読めること（API キーは要りません）
#
# エージェントの心臓部は短い while ループです。1回の往復を分解し、結果の返し方を API の 400 で確かめ、自分の手でループを書きます。
# **ここから、自分のハーネスが始まります。**
#
# **このノートブックを終えると、次のことができます:**
#
# - 応答の `content` から text ブロック・tool_use ブロック（`id` / `name` / `input`）を、そして `stop_reason` を読み分ける
# - 履歴に `response.content` をまるごと残す理由を、API の 400 で説明する
# - tool_result ブロックを組み立て、1ターン分の結果を1つの user メッセージで返す
# - `stop_reason == "tool_use"` で回る `run_agent` を書き、末尾の再代入がループを止めることを説明する

# %%
# Colab など、harness_lab が入っていない環境では、最初にインストールします（手元の環境では何もしません）
import importlib.util
if importlib.util.find_spec("harness_lab") is None:
    %pip install -q "harness_lab @ git+https://github.com/harness-lab/harness_lab.git"

# %%
import harness_lab as hl
from harness_lab import lessons

hl.use_language("ja")  # このノートブックの表示は日本語（HARNESS_LAB_LANG の設定にかかわらず）
client = hl.connect("weather")
print(hl.mode_line(client))

# %% [markdown]
# ## ループの全体図を見る
#
# どのノートブックも、この1枚の図にぶら下がっています。今日組み立てるのは背骨 — リクエストを送り、`stop_reason` を見て、
# ツールを実行し、結果を返してもう一度送る — です。下に並ぶ4つの制御弁は、次のノートブックから取り付けます。

# %%
from harness_lab.ui import diagram

diagram(highlight="stop_reason")

# %% [markdown]
# ## まず、走っている姿を見る
#
# 完成したループに、一文だけ渡します: 「README.md の1行目を読んで、それから今何時か教えて」。ツールは `read_file`（一時フォルダーに作った
# デモ用プロジェクトの中だけを読む）と `get_time` の2つです。Stepper はループを**1ターンずつ**進めます。1ターンは、モデルへのリクエスト1回と、
# モデルが頼んだツールの実行です。ここではコードで `s.step()`（1ターン）と `s.run_all()`（最後まで）を呼びますが、
# パネルのボタン「次のターン」「最後まで」で進めてもかまいません。

# %%
import tempfile
from pathlib import Path

from harness_lab.ui import Stepper

demo = Path(tempfile.mkdtemp(prefix="harness_lab_01_"))  # どこから開いても同じ結果になるよう、一時フォルダーに作る
(demo / "README.md").write_text("# エージェントハーネスの基礎\n\nループと制御弁を手で書く教材です。\n", encoding="utf-8")

bare = hl.Run(hl.connect("lesson6"), tools=[hl.make_read_file(root=demo), hl.get_time], valves=[])
s = Stepper(bare, "README.md の1行目を読んで、それから今何時か教えて")
s

# %%
s.step()

# %%
s.run_all()

# %% [markdown]
# どのツールをどの順に呼び、いつ切り上げるかは、ループの中でモデルが決めました。ホスト側のコード（これから書くもの）は、
# リクエストを送り、名指しされたツールを実行し、結果を返しただけです。
#
# ## 1. 一度の往復を手で
#
# ループなしで、リクエストを1回だけ送ります。ツールは記事と同じ天気の2つです。`@hl.tool` を付けると、型ヒントと docstring から
# API に渡すツール定義（`name` / `description` / `input_schema`）が `.definition` にできます。関数はそのまま呼べます。

# %%
MODEL = hl.MODEL


@hl.tool
def get_weather(city: str) -> dict:
    """指定した都市の現在の気象情報を返す（おもちゃの実装）"""
    table = {"大阪": {"temp": 21, "condition": "晴れ", "humidity": 48},
             "東京": {"temp": 17, "condition": "くもり", "humidity": 63}}
    return {"city": city, **table.get(city, {"temp": 19, "condition": "晴れ", "humidity": 55})}


@hl.tool
def get_forecast(city: str, days: int) -> list:
    """指定した都市の、これから days 日の予報を返す（おもちゃの実装）"""
    kinds = ["晴れ", "くもり", "雨", "晴れのちくもり", "くもり時々晴れ"]
    return [{"day": i + 1, "condition": kinds[i % 5], "high": 15 + i, "low": 8 + i} for i in range(days)]


tools = [get_weather.definition, get_forecast.definition]
impls = {"get_weather": get_weather, "get_forecast": get_forecast}
get_weather.definition

# %%
messages = [{"role": "user", "content": "大阪の今の気温を教えて"}]
response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

print("stop_reason:", response.stop_reason)
for i, block in enumerate(response.content):
    print(f"content[{i}]: {type(block).__name__}")
    if block.type == "thinking":
        print("    thinking :", repr(block.thinking), "/ signature:", block.signature[:12] + "…")
    elif block.type == "text":
        print("    text :", block.text)
    elif block.type == "tool_use":
        print("    id   :", block.id)
        print("    name :", block.name)
        print("    input:", block.input)

# %% [markdown]
# ツールを使う場面では、`content` は**ブロックのリスト**です。先頭は思考ブロック（`thinking`）: 既定のモデル `claude-sonnet-5` は
# 答える前に考え、その記録を返します。本文は空で、改ざんを見分ける `signature` が付いています。続いて「調べます」という text ブロック、そして tool_use ブロックです:
#
# | フィールド | 中身 |
# |---|---|
# | `id` | この呼び出しの名札。結果を返すとき、どの呼び出しへの答えかをこの id で名乗ります |
# | `name` | 呼んでほしいツールの名前 |
# | `input` | モデルが決めた引数（辞書） |
#
# `stop_reason` は `"tool_use"`: 「ツールの結果を待っています」という、API が保証する合図です。
# ツールを動かすのは私たちのコードです。名指しされたツールを、名指しされた引数で呼びます。出力は JSON の文字列にして返します。
# `ensure_ascii=False` を付けないと、日本語が `\uXXXX` の列になります:

# %%
import json

tool_block = next(b for b in response.content if b.type == "tool_use")
output = impls[tool_block.name](**tool_block.input)
print(json.dumps(output))
print(json.dumps(output, ensure_ascii=False))

# %% [markdown]
# ## 2. 履歴には `response.content` をまるごと残す
#
# 結果を返す前に、モデルの応答を履歴に入れます。ありがちな間違いは、text だけを残すことです。本物の API と同じ検査をする
# エミュレーターに送り、断られるかを表示する `try_send` を用意して、間違いと正解を試します。

# %%
import anthropic


def try_send(history, with_tools=True):
    """history を送り、通れば stop_reason を、断られれば API のエラーメッセージを表示する"""
    extra = {"tools": tools} if with_tools else {}
    try:
        r = client.messages.create(model=MODEL, max_tokens=1024, messages=history, **extra)
        print("200 OK  stop_reason =", r.stop_reason)
        return r
    except anthropic.BadRequestError as e:
        print(e.status_code, e.body["error"]["message"])


result_block = {"type": "tool_result", "tool_use_id": tool_block.id, "content": json.dumps(output, ensure_ascii=False)}
text_only = {"role": "assistant", "content": hl.text_of(response.content)}  # × text だけ。tool_use が消える
try_send(messages + [text_only, {"role": "user", "content": [result_block]}])
filtered = {"role": "assistant", "content": [b for b in response.content if b.type in ("text", "tool_use")]}  # × 思考ブロックを落とす
try_send(messages + [filtered, {"role": "user", "content": [result_block]}])

messages = messages[:1]  # 最初の質問だけに戻してから足す。このセルを2回実行しても、応答は1つだけ
messages.append({"role": "assistant", "content": response.content})  # ○ 全ブロックを残す
print([b.type for b in messages[-1]["content"]])

# %% [markdown]
# 「この `tool_use_id` に対応する tool_use が、直前の assistant メッセージにない」と断られました。呼び出しの記録を消したので、
# 結果が誰への答えか分からないのです。2つ目は text と tool_use だけに絞ったものです。今度は「ツールの結果が答える assistant は
# 思考ブロックで始まること」と断られました。思考ブロックは受け取ったまま（`signature` も本文も）返す決まりで、知っている型だけを拾っても、
# `signature` や本文を落として作り直しても 400 です。`response.content` はリストのまま、手を加えずに履歴に入れます。
#
# ## 3. tool_result ブロックを組み立てる
#
# 結果は、**user** メッセージの中の tool_result ブロック（上の `result_block`）で返します:
#
# | フィールド | 役割 |
# |---|---|
# | `tool_use_id` | どの呼び出しへの答えか。tool_use の `id` と一致させます |
# | `content` | ツールの出力。文字列で渡します（辞書は JSON に） |
# | `is_error` | 失敗したときに `True`。モデルはエラー文を読み、引数を変えて再試行したり、別の道を選んだりできます |
#
# 置き場所は、tool_use を含む assistant メッセージの**直後の** user メッセージの**先頭**で、1ターン分を**すべて**並べます。
# 結果を返さなかった場合と、説明文を結果より前に置いた場合を送ってみます:

# %%
try_send(messages + [{"role": "user", "content": "結果はあとで送ります"}])  # × tool_result がない
try_send(messages + [{"role": "user", "content": [{"type": "text", "text": "結果です"}, result_block]}])  # × text が先

# %% [markdown]
# どちらも同じ 400 です。text を添えたいときは、tool_result をすべて並べた**あと**に置きます。1ターンに2つの呼び出しがあって結果が1つ欠けても、
# 欠けた id を挙げた同じ 400 になります。
#
# ## 4. 続きのリクエストにも `tools` を渡す
#
# モデルはもうツールを呼ばないかもしれません。それでも続きのリクエストに `tools` は要るでしょうか。省いたものと、付けたものを送ります:

# %%
messages = messages[:2]  # 質問と応答の2つに戻してから足す。2回実行しても、tool_result は1つだけ
messages.append({"role": "user", "content": [result_block]})
try_send(messages, with_tools=False)  # × tools を渡さない
final = try_send(messages)  # ○ tools を付ける
print(hl.text_of(final.content))

# %% [markdown]
# 履歴に tool_use / tool_result があるリクエストには、ツール定義が要ります。履歴の中の tool_use をモデルが解釈するためです。
# 最終回答は `hl.text_of(content)`（`type == "text"` のブロックだけをつなぐ）で読みます。先頭が text とは限らないからです。
#
# ## 5. `run_tools` を書く
#
# ここからは自分で書きます。1ターン分の tool_use をすべて実行し、tool_result のリストにする関数です。
# ツールが例外を投げても、ループごと落とさずに `is_error` の結果で伝えるのがポイントです。
# 書いたら次の確認セルを実行します。点ごとに ○ か、× とヒントが出ます。全部 ○ になると `my_harness.py` に保存されます。
# これが**自分のハーネス**の最初の部品です。

# %% tags=["todo", "piece:run_tools"]
# TODO: content（応答の内容ブロックのリスト）の tool_use ブロックを1つずつ、impls[block.name](**block.input) で実行します。
# それぞれの結果を {"type": "tool_result", "tool_use_id": block.id, "content": 文字列} にして、呼び出しの順にリストで返します。
# 辞書やリストの出力は json.dumps(..., ensure_ascii=False) で文字列に。tool_use 以外のブロック（text や思考）は飛ばします。
# impls[block.name] の引き当ても含めて try に入れ、ツールが例外を投げたら（impls にない名前の KeyError も）、例外のメッセージを content に入れ、"is_error": True を付けた結果にします。
def run_tools(content, impls):
    raise NotImplementedError  # ← この行を消して、ここに書く


# %% tags=["check"]
from harness_lab import lessons
run_tools = lessons.check("run_tools", run_tools)

# %%
run_tools(response.content, impls)  # 確認を通った run_tools（まだなら参考実装）を、1つ目の応答に使う

# %% [markdown]
# ## 6. ループにする — `run_agent` を書く
#
# 部品はそろいました。最初にリクエストを1回送り、`stop_reason` が `"tool_use"` であるかぎり次の4つを繰り返し、最後の text を返します:
#
# 1. `response.content` をまるごと assistant として履歴に追加する
# 2. `run_tools` でこのターンの tool_use をすべて実行する
# 3. 1ターン分の結果を、1つの user メッセージにまとめて追加する
# 4. 長くなった履歴を携えて、`tools` も付けてもう一度送り、**`response` に再代入する**

# %% tags=["todo", "piece:run_agent"]
# TODO: messages = [{"role": "user", "content": user_input}] から始めて、client.messages.create(model=MODEL, max_tokens=1024,
# tools=tools, messages=messages) を1回送ります。while response.stop_reason == "tool_use": の中で上の1〜4を行い、
# ループを抜けたら最後の応答の text（hl.text_of(response.content)）を返します。
def run_agent(client, user_input, tools, impls):
    raise NotImplementedError  # ← この行を消して、ここに書く


# %% tags=["check"]
from harness_lab import lessons
run_agent = lessons.check("run_agent", run_agent)

# %% [markdown]
# ## 7. 数えて確かめる
#
# 記事の2つ目の質問「今週の東京の天気概況を教えて」を `run_agent` で走らせます。モデルは現在の天気を調べてから、予報を調べます。
# 走らせる前に、モデルへのリクエストが何回、ツール呼び出しが何ターンになるかを予想して書いてください。

# %%
MY_GUESS = {"モデルへのリクエスト": None, "ツール呼び出しのターン": None}  # ← 予想を書く


# %%
class Counted:
    """client の messages.create をそのまま呼び、回数と最後に送った履歴だけを覚えておく"""

    def __init__(self, client):
        self.client, self.messages, self.requests, self.last = client, self, 0, []

    def create(self, **request):
        self.requests += 1
        self.last = request["messages"]
        return self.client.messages.create(**request)


counted = Counted(hl.connect("weather"))
print(run_agent(counted, "今週の東京の天気概況を教えて", tools, impls))
turns = sum(1 for m in counted.last if m["role"] == "assistant")  # 最後の履歴にある assistant = 終わったターン
guessed = lessons.compare(MY_GUESS, {"モデルへのリクエスト": counted.requests, "ツール呼び出しのターン": turns})

# %% [markdown]
# 最初の1回のあと、ツールを実行したターンごとに1回ずつ送るので、リクエストはいつもターンより1回多くなります。
#
# ### 止めているのは、末尾の再代入
#
# `while` の条件が偽になりうるのは、本体の中で `response` が新しい応答に置き換わるときだけ — 末尾の `response = client.messages.create(...)` です。
# `response = ` を落とすと、`stop_reason` はずっと最初の `"tool_use"` のまま、ループは同じ応答を履歴に積み直します。
# 本物の API は同じ `tool_use` の id が2回現れる履歴を受け付けません:

# %%
def run_agent_dead(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)  # × response = がない
    return hl.text_of(response.content)


dead = Counted(hl.connect("weather"))
try:
    run_agent_dead(dead, "今週の東京の天気概況を教えて", tools, impls)
except anthropic.BadRequestError as e:
    print(f"リクエスト {dead.requests} 回目:", e.status_code, e.body["error"]["message"])

# %% [markdown]
# 3回目のリクエストが断られました。履歴を確かめない相手なら、同じ呼び出しを永遠に繰り返します。これがレッスン4の**デッドループ**です
# （ノートブック03で詳しく見ます）。正しい `run_agent` にも、**モデル以外の止め手はありません**。その手当てが次のノートブックからの話題です。
#
# 確認を通った `run_tools` と `run_agent` は、作業フォルダー（ふつうはノートブックの隣）の `my_harness.py` に入っています。読んで、書き換えてもかまいません。
# 次のノートブックは `lessons.use(...)` でそこから読み込み、ノートブック05では自分のループを Stepper で1ターンずつ進めます。
# 参考実装は `lessons.show("run_agent")` で読めます（自分で書いてから見比べてください）。
#
# ## 8. パッケージ版を読む
#
# `harness_lab` のループ `hl.Run.loop`（20行ほど）は、`run_agent` と同じ仕事を、`yield` のたびに1ターン分を渡して一時停止する
# **ジェネレーター**として書いたものです。

# %%
import inspect

print(inspect.getsource(hl.Run.loop))

# %% [markdown]
# | 流れ | 自分の `run_agent` | `Run.loop` |
# |---|---|---|
# | リクエスト | `response = client.messages.create(...)` | `s.receive(self.query())`（`query()` は履歴全体と `tools` を毎回送ります） |
# | `stop_reason` | `while response.stop_reason == "tool_use":` | `if not self.wants_tools(response): return self.finish(response)` |
# | ツール | `run_tools(response.content, impls)` | `results = yield from self.run_tool_uses(response)` |
# | 履歴 | assistant と結果を `messages` に追加 | `s.commit(results)`（2つを一緒に書くので、途中で止まっても履歴が壊れません） |
# | 次へ | 末尾の再代入から `while` の判定へ | `yield s.turn(...)` で一時停止し、先頭の `s.receive(...)` が応答を置き換える（再代入にあたる） |
#
# `self.check(...)` の3行（`before_send` / `loop_top` / `before_tools`）と、`run_tool_uses` の中の `before_each_tool`（弁4）は、次のノートブックから取り付ける**制御弁**の差し込み口です。
# 今日は `valves=[]` なので素通りします。同じ天気のタスクを、パッケージ版で1ターンずつ進めます:

# %%
w = Stepper(hl.Run(hl.connect("weather"), tools=[get_weather, get_forecast], valves=[]), "今週の東京の天気概況を教えて")
w.step()
w

# %%
w.run_all()

# %% [markdown]
# ## ライブの Claude に切り替える
#
# Jupyter を起動する**前に**、ターミナルで API キーを環境変数に入れます（ノートブックに書くと、保存したファイルに残ります）:
#
# ```bash
# export ANTHROPIC_API_KEY=...   # 自分のキー
# jupyter lab
# ```
#
# キーがあれば `hl.connect(...)` は本物のクライアントを返し、ほかのコードはそのまま動きます（シナリオ名は無視されます）。
# キーがあってもオフラインで試すときは `live=False` を付けます。ライブの出力は、保存された出力と一致しません。

# %%
print(hl.mode_line(hl.connect("weather")))
print(hl.mode_line(hl.connect("weather", live=False)))

# %% [markdown]
# ## やってみよう
#
# 1. `get_weather` の `table` に札幌（`"札幌": {"temp": 3, "condition": "雪", "humidity": 80}`）を足してセルを実行し直し、
#    `run_agent(client, "札幌の今の気温を教えて", tools, impls)` を走らせます。ツールの返り値が最終回答にどう入るかを見てください。
# 2. `del impls["get_forecast"]` のあとで `run_agent(client, "今週の東京の天気概況を教えて", tools, impls)` を走らせます。
#    `run_tools` は落ちずに `is_error` の結果を返し、モデルはそれを読んで「予報は取得できませんでした」と答えます。
#
# ## まとめ
#
# - 応答の `content` は思考・text・tool_use（`id` / `name` / `input`）が混ざったブロックのリスト
# - 履歴には `response.content` をまるごと残す。text だけにしても、思考ブロックを落としても 400
# - tool_result は `tool_use_id` / `content`（文字列。JSON は `ensure_ascii=False`）/ 失敗時の `is_error`。1ターン分を、直後の1つの user メッセージの先頭にすべて並べる
# - 続きのリクエストにも `tools` を渡す。省くと 400
# - ループは `while response.stop_reason == "tool_use"`。末尾の再代入だけがループを止められる。止めるか続けるかは、まだモデル任せ
#
# ## 確認問題
#
# **問1.** `messages.append({"role": "assistant", "content": hl.text_of(response.content)})` と書くと、何が起きますか。
#
# <details><summary>答え</summary>
#
# tool_use ブロックが消え、次のリクエストが 400（``unexpected `tool_use_id` found in `tool_result` blocks``）で断られます。
# </details>
#
# **問2.** モデルが1つの応答で `get_weather` を2回呼びました。結果はどう返しますか。
#
# <details><summary>答え</summary>
#
# 2つの tool_result を、それぞれの `tool_use_id` を付けて呼び出しの順に、**1つの** user メッセージの先頭に並べます。欠けると 400 です。
# </details>
#
# **問3.** ツール呼び出しが3ターンかかるタスクでは、モデルへのリクエストは何回ですか。
#
# <details><summary>答え</summary>
#
# 4回です。最初の1回と、ツールを実行したターンごとの1回です。
# </details>
#
# **問4.** ループ本体の最後の行から `response = ` を消すと、どうなりますか。
#
# <details><summary>答え</summary>
#
# `stop_reason` が `"tool_use"` のまま、同じ応答を積み直します。本物の API なら id の重複で 400（`` `tool_use` ids must be unique ``）、
# 履歴を確かめない相手なら永遠に回るデッドループです。
# </details>
#
# 次は [レッスン3: 停止条件](02_stop_conditions.ipynb) へ。`stop_reason` のすべての値と、ループを止める判断の誤りを見ていきます。
