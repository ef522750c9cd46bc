# %% [markdown]
# # レッスン3: 停止条件 — エージェントはいつ手を引くべきか
#
# **エージェントハーネスの基礎: ループと制御** · ノートブック 2 / 6
#
# 前: [レッスン2: コアループ](01_bare_loop.ipynb) ｜ 次: [レッスン4: 暴走とフォールバック](03_runaway_fallbacks.ipynb)
#
# **所要時間の目安:** 約45分（読む 34分・書いて確かめる 5分・実行と予想 7分）。2回に分けるなら「上限をどこで問うか」の前で ｜ **前提:** ノートブック01
#
# `stop_reason` にはほかにも値があり、止め方を誤るよくある書き方が3つあり、モデルが止まらないときの保険もまだありません。この3つを順に片づけます。
#
# **このノートブックを終えると、次のことができます:**
#
# - `stop_reason` の7つの値それぞれで、ループが次に何をするかを決める関数 `next_step` を書く
# - `max_tokens` で切れた tool_use を実行してはいけない理由を、書き込まれてしまった中身で説明する
# - 記事の3つのアンチパターンが、どの台本でどう壊れるかを見せる
# - `MAX_TURNS` のチェックの位置ごとに、リクエストの回数とツール呼び出しのターン数を予想し、数えて確かめる

# %%
# Colab など、harness_lab が入っていない環境では、最初にインストールします（手元の環境では何もしません）
import importlib.util
if importlib.util.find_spec("harness_lab") is None:
    %pip install -q "harness_lab @ git+https://github.com/harness-lab/harness_lab.git"

# %%
import harness_lab as hl
from harness_lab import lessons

hl.use_language("ja")  # このノートブックの表示は日本語（HARNESS_LAB_LANG の設定にかかわらず）
client = hl.connect("lesson6")
print(hl.mode_line(client))

# %% [markdown]
# ## ループの全体図で今日の場所を確かめる
#
# 今日の主役は2か所です。`stop_reason` を見て「回るか、抜けるか」を決める分岐（図の印）と、そのすぐ後、ループ本体の先頭
# （`loop_top`）で「もう一周してよいか」を問う最大ターン数の弁です。

# %%
from harness_lab.ui import Stepper, diagram

diagram(highlight="stop_reason")

# %% [markdown]
# ## まず、止まらないモデルを見る
#
# 台本 `never_ending` のモデルは、メモを1つ読むたびに次のメモを読みにいき、一度も切り上げません。デモ用のプロジェクト
# （一時フォルダー）とツールを用意し、最大ターン数の弁 `hl.MaxTurns(3)` を付けたハーネスで走らせます。
# `write_file` は書き込まずに、書こうとした内容を `written` に記録するだけの「スパイ」です。
# Stepper はループを1ターンずつ進めます。コードで `s.step()` を呼んでいますが、パネルの「次のターン」ボタンでも同じです。

# %%
import tempfile
from pathlib import Path

DEMO = Path(tempfile.mkdtemp(prefix="harness_lab_02_"))  # どこから開いても同じ結果になるよう、一時フォルダーに作る
(DEMO / "README.md").write_text("# エージェントハーネスの基礎\n\nループと制御弁を手で書く教材です。\n", encoding="utf-8")
(DEMO / "notes").mkdir()
for i in range(1, 13):
    (DEMO / "notes" / f"{i:03d}.md").write_text(f"メモ {i}: 今日の作業記録\n", encoding="utf-8")
read_file = hl.make_read_file(root=DEMO)  # DEMO の内側だけを読める

written = []  # write_file が実行されると、書こうとした内容がここに入る


@hl.tool(high_impact=True)
def write_file(path: str, content: str) -> str:
    """ファイルに書き込む（ここでは書かずに、書こうとした内容を記録するだけのスパイ）"""
    written.append(content)
    return "ok"


# pause_turn は、API の側で動くツール（サーバーツール）のループからだけ返ります。ウェブ検索をサーバーツールとして渡します
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search"}
TOOLS = [read_file.definition, hl.get_time.definition, write_file.definition, WEB_SEARCH]
IMPLS = {"read_file": read_file, "get_time": hl.get_time, "write_file": write_file}

# %%
run = hl.Run(hl.connect("never_ending", live=False), tools=[read_file, hl.get_time], valves=[hl.MaxTurns(3)])
s = Stepper(run, "notes/ のメモを順に読んで要約して")
s

# %%
s.step()  # ターン1: notes/001.md を読む。ゲージは 1/3

# %% [markdown]
# もう一度 `s.step()` を実行すると、モデルはまた次のメモへ進みます。切り上げる理由をモデルが持たないとき、止めるのはハーネスです
# （続きは後半で）。
#
# ## `stop_reason` を読む — ただ1つの構造化された合図
#
# モデルは「まだツールが要るか」を自分で判断し、その結論を `stop_reason` に書き出します。API が保証する値なので、
# 本文の言い回しのようには揺れません。値は7つです。
#
# | `stop_reason` | 意味 | ループが次にすること |
# |---|---|---|
# | `tool_use` | ツールを呼んだ | 全部実行し、結果を1つの user メッセージで返して続ける |
# | `pause_turn` | サーバー側の処理が一時停止した | `content` を**そのまま**履歴に入れて送り返す（「続けて」は足さない） |
# | `end_turn` | モデルが切り上げた | 終わる。text が空のこともある |
# | `stop_sequence` | 指定した停止シーケンスに当たった | 終わる |
# | `max_tokens` | `max_tokens` で打ち切られた | 止める。途中で切れた tool_use は**実行しない** |
# | `refusal` | モデルが辞退した | 止めて報告する |
# | `model_context_window_exceeded` | コンテキストが一杯になった | 止める。応答は途中で切れている |
#
# どの値にもエミュレーターの台本があります。台本ごとに1回リクエストを送り、最初の応答を並べます（`end_turn` は仕事の最後に来るので後で）。

# %%
import json

CASES = {  # 台本の名前 → 頼む一文
    "lesson6": "README.md の1行目を読んで、それから今何時か教えて",
    "empty_end_turn": "今何時？",
    "stop_sequence": "答えだけを書いて",
    "pause_turn": "最新の情報を調べて",
    "max_tokens": "週次レポートをファイルに書いて",
    "refusal": "他人のパスワードを調べて",
    "model_context_window_exceeded": "このリポジトリを全部読んで",
}


def first_response(name):
    scripted = hl.connect(name, live=False)
    return scripted.messages.create(model=hl.MODEL, max_tokens=1024, tools=TOOLS,
                                    messages=[{"role": "user", "content": CASES[name]}])


FIRST = {name: first_response(name) for name in CASES}
for name, r in FIRST.items():
    blocks = [b.text if b.type == "text" else f"{b.name}({json.dumps(b.input, ensure_ascii=False)})" if b.type == "tool_use" else b.type for b in r.content]
    print(name)  # 台本・stop_reason・ブロックを1行ずつ: 狭い画面でも列が崩れない
    print(f"    stop_reason: {r.stop_reason}")
    print(f"    content: {blocks}")

# %% [markdown]
# `max_tokens` の応答にも tool_use ブロックがあります。けれども生成は途中で打ち切られていて、`content` の引数も
# 「問い合わせ件数: 4」で切れています。「tool_use ブロックがあるから実行する」と書いたループは、この切れた引数のまま
# 書き込みを実行します。ノートブック01の `run_tools` で確かめます:

# %%
run_tools = lessons.use("run_tools")  # ノートブック01で書いたもの（my_harness.py になければ参考実装）

run_tools(FIRST["max_tokens"].content, IMPLS)  # × stop_reason を見ずに、ブロックがあるから実行した
print("書き込まれた内容:", written)
written.clear()

# %% [markdown]
# ## `next_step` を書く — 次の一手を4つの言葉で
#
# 表を関数にします。`next_step(response)` は、応答のあとループが次にすることを `"run_tools"`、`"resend"`、`"finish"`、
# `"stop"` のどれかで返します。続ける2つと終わる2つ以外は、知らない値も含めてすべて `"stop"` に倒します。
# いつか API に新しい値が増えても、回り続けない側です。

# %% tags=["todo", "piece:next_step"]
# next_step(response): response.stop_reason を見て、ループが次にすることを返す
#   "run_tools"（tool_use: ツールを実行して続ける） / "resend"（pause_turn: content をそのまま送り返す）
#   "finish"（end_turn と stop_sequence: モデルが切り上げた） / "stop"（それ以外すべて: 止めて報告する）
# 本文（text）の有無では決めません。text のない end_turn もあります
def next_step(response):
    raise NotImplementedError  # ← この行を消して、ここに書く

# %% tags=["check"]
from harness_lab import lessons
next_step = lessons.check("next_step", next_step)

# %% [markdown]
# 確認を通った `next_step` でループを回します。`"run_tools"` ならツールの結果を、`"resend"` なら何も足さずに送り返し、
# ほかの2つで抜けます。ノートブック05のハーネスも、この `next_step` で回るかを決めます（レッスン6の本文のループは `tool_use` だけを見るので、
# `pause_turn` の途中の応答で終わってしまいます）。7つの台本を最後まで走らせ、抜けた一手、リクエストの回数、最後の text、スパイの `write_file` が実行された回数を見ます。

# %%
def drive(name):
    """next_step の答えどおりに回すループ。抜けたときの一手、最後の応答、リクエストの回数を返す"""
    scripted = hl.connect(name, live=False)
    messages = [{"role": "user", "content": CASES[name]}]
    for requests in range(1, 21):  # 実験用の上限: ノートブックが必ず終わるように
        response = scripted.messages.create(model=hl.MODEL, max_tokens=1024, tools=TOOLS, messages=messages)
        step = next_step(response)
        if step not in ("run_tools", "resend"):
            break
        messages.append({"role": "assistant", "content": response.content})  # どちらも content はそのまま
        if step == "run_tools":
            messages.append({"role": "user", "content": run_tools(response.content, IMPLS)})
    return step, response, requests


for name in CASES:
    step, last, requests = drive(name)
    print(f"{name} → {step}（リクエスト {requests} 回）")  # 1件を3行に: 狭い画面でも折り返さない
    print(f"    最後の stop_reason: {last.stop_reason}")
    print(f"    text: {hl.text_of(last.content)[:24]!r}")
print("write_file が実行された回数:", len(written))

# %% [markdown]
# `empty_end_turn` の最後の応答は `end_turn` なのに text がありません。`response.content[0].text` と書いていたら `AttributeError` です（ブロックは思考ブロック1つだけです）。
# `hl.text_of(...)` のように `type == "text"` のブロックだけを読めば空の文字列になります。`pause_turn` は送り返したあと
# `end_turn` で終わり、`max_tokens` では何も書き込まれていません。
#
# ## 3つのアンチパターンを壊してみる
#
# 記事は、`stop_reason` 以外の手がかりで止める書き方を3つ挙げています。どれも「たいていは動く」ので見過ごされます。
# 止める判断 `is_done(response, i)` だけを差し替えられるループを用意し、それぞれが壊れる台本にぶつけます。

# %%
def loop_until(is_done, name, prompt):
    """is_done(response, i) が True になったら抜けるループ。どこで抜けたかを報告する"""
    scripted = hl.connect(name, live=False)
    messages = [{"role": "user", "content": prompt}]
    for i in range(20):  # 実験用の上限: ノートブックが必ず終わるように
        response = scripted.messages.create(model=hl.MODEL, max_tokens=1024, tools=TOOLS, messages=messages)
        messages.append({"role": "assistant", "content": response.content})
        if is_done(response, i):
            break
        results = run_tools(response.content, IMPLS)
        if not results:  # 答える呼び出しがない応答: 空の user メッセージを送ると 400 になる
            break
        messages.append({"role": "user", "content": results})
    left = [b.name for b in response.content if b.type == "tool_use"]
    print(f"  リクエスト {i + 1} 回 / ツール呼び出し {i} ターン / 最後の stop_reason={response.stop_reason}"
          f" / 実行されずに残った呼び出し {left}")
    print(f"  返した答え: {hl.text_of(response.content)!r}")


def by_stop_reason(response, i):  # ○ 正しい停止条件
    return response.stop_reason != "tool_use"

# %% [markdown]
# **① 本文の文字列で判定する。** 台本 `thats_all`（「以上です」）のモデルは、「README.md の確認は以上です。」と書きながら、
# 同じ応答でまだ時刻を調べようとしています。言い回しは状況で変わるので、締めの言葉は完了の印になりません。

# %%
def by_words(response, i):  # × 言い回しに賭けている
    text = hl.text_of(response.content)
    return "以上です" in text or "わかりました" in text


print("× 本文の文字列で判定:")
loop_until(by_words, "thats_all", CASES["lesson6"])
print("○ stop_reason で判定:")
loop_until(by_stop_reason, "thats_all", CASES["lesson6"])

# %% [markdown]
# **② カウンターを主な停止条件にする。** 記事の `for i in range(10): ... if i == 9: break` です。台本 `long_task` は
# 12章を1つずつ読む、12ターンかかる仕事です。10回目の応答で、中身に関係なく抜けます。

# %%
def by_counter(response, i):  # × 回数が主な停止条件になっている
    return i == 9


print("× カウンターで判定:")
loop_until(by_counter, "long_task", "chapters/ の各章を順に読んで確かめて")
print("○ stop_reason で判定:")
loop_until(by_stop_reason, "long_task", "chapters/ の各章を順に読んで確かめて")

# %% [markdown]
# **③ text ブロックの有無で判定する。** モデルはツールを呼ぶ応答にも「調べてみます」のような説明文を添えます
# （台本 `text_and_tool`）。text と tool_use が1つの応答に並ぶので、text があっても終わりとは限りません。

# %%
def by_text_block(response, i):  # × 説明文でも止まる
    return any(b.type == "text" for b in response.content)


print("× text ブロックの有無で判定:")
loop_until(by_text_block, "text_and_tool", CASES["lesson6"])
print("○ stop_reason で判定:")
loop_until(by_stop_reason, "text_and_tool", CASES["lesson6"])

# %% [markdown]
# 3つとも、早すぎる停止か途中でのぶつ切りです。`stop_reason` で判定したループは、同じ台本を最後まで片づけました。
#
# ## 上限をどこで問うか
#
# では回数の上限は要らないのでしょうか。`stop_reason` に任せたループは、モデルが `"tool_use"` を返し続けるかぎり回ります
# （冒頭の `never_ending`）。そこで `MAX_TURNS` を**保険として**添えます。主な停止条件は `stop_reason` のまま、
# モデルが止まらないときだけハーネスが手を引きます。問題は、そのチェックをどこに置くかです。候補は4つあります:
#
# 1. ループ本体の**先頭**、`turns += 1` の手前（レッスン6の位置）
# 2. `turns += 1` の**直後**
# 3. **ツールの後**: 結果を履歴に積んだあと、次のリクエストの手前
# 4. 記事が「上限は保険として添える」と書いた **`for _ in range(MAX_TURNS)`** のループ
#
# 止まらないモデルを相手に、リクエストの回数（エミュレーターが受け取った数 `len(emulator.requests)`）と、
# ツール呼び出しのターン数（数えるためのツールが呼ばれたターンの数）を数える関数を1つ書き、4つに使い回します。
# 4つの候補の違いは、`if turns >= MAX_TURNS` の行の位置だけです。

# %%
from harness_lab.emulator import Emulator

TASK = "notes/ のメモを順に読んで要約して"


def send(client, messages):
    return client.messages.create(model=hl.MODEL, max_tokens=1024, tools=TOOLS, messages=messages)


def count(loop, max_turns=3):
    """止まらないモデル（never_ending）を相手に loop を回し、リクエストとツール呼び出しのターンを数える"""
    emulator = Emulator("never_ending")
    turns_seen = set()  # ツールが呼ばれたときの、リクエストの番号

    def counting_read_file(path):
        turns_seen.add(len(emulator.requests))
        return f"{path} のメモ"

    loop(hl.connect(emulator, live=False), {"read_file": counting_read_file}, max_turns)
    return {"モデルへのリクエスト": len(emulator.requests), "ツール呼び出しのターン": len(turns_seen)}

# %%
def check_at_top(client, impls, MAX_TURNS):  # 1. 先頭（レッスン6）
    messages = [{"role": "user", "content": TASK}]
    response = send(client, messages)
    turns = 0
    while response.stop_reason == "tool_use":
        if turns >= MAX_TURNS:  # ← この一周に入る前に、もう一周してよいかを問う
            return "上限で停止"
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        response = send(client, messages)
    return hl.text_of(response.content)

def check_after_increment(client, impls, MAX_TURNS):  # 2. turns += 1 の直後
    messages = [{"role": "user", "content": TASK}]
    response = send(client, messages)
    turns = 0
    while response.stop_reason == "tool_use":
        turns += 1
        if turns >= MAX_TURNS:  # ← 1行下にずらしただけ
            return "上限で停止"
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        response = send(client, messages)
    return hl.text_of(response.content)

# %%
def check_after_tools(client, impls, MAX_TURNS):  # 3. ツールの後
    messages = [{"role": "user", "content": TASK}]
    response = send(client, messages)
    turns = 0
    while response.stop_reason == "tool_use":
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        if turns >= MAX_TURNS:  # ← 結果を積んだあと、送る手前
            return "上限で停止"
        response = send(client, messages)
    return hl.text_of(response.content)


def article_for_range(client, impls, MAX_TURNS):  # 4. 記事の「上限は保険として添える」
    messages = [{"role": "user", "content": TASK}]
    for _ in range(MAX_TURNS):
        response = send(client, messages)
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return hl.text_of(response.content)
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
    return "上限で停止"

# %%
CONTENDERS = {"1. 先頭": check_at_top, "2. turns += 1 の直後": check_after_increment,
              "3. ツールの後": check_after_tools, "4. 記事の for range": article_for_range}

# MAX_TURNS = 3 で、モデルは決して止まりません。それぞれリクエストは何回、ツール呼び出しは何ターンになるでしょうか。
# 数字を書いてから、次のセルを実行します
MY_GUESS = {
    "1. 先頭": {"モデルへのリクエスト": None, "ツール呼び出しのターン": None},  # ← 予想を書く
    "2. turns += 1 の直後": {"モデルへのリクエスト": None, "ツール呼び出しのターン": None},
    "3. ツールの後": {"モデルへのリクエスト": None, "ツール呼び出しのターン": None},
    "4. 記事の for range": {"モデルへのリクエスト": None, "ツール呼び出しのターン": None},
}

# %%
for label, loop in CONTENDERS.items():
    print(f"--- {label}")
    lessons.compare(MY_GUESS, count(loop), row=label)

# %% [markdown]
# `MAX_TURNS = N` で一般に言うと:
#
# | チェックの位置 | リクエスト | ツール呼び出しのターン | 最後のターンの結果 |
# |---|---|---|---|
# | 1. 先頭（レッスン6） | N + 1 | N | モデルが読む |
# | 2. `turns += 1` の直後 | N | N − 1 | モデルが読む（1ターン早い） |
# | 3. ツールの後 | N | N | 誰も読まない |
# | 4. 記事の `for range` | N | N | 誰も読まない |
#
# **記事の4は3と同じ振る舞いです。** `for` の見出しが問うのは「もう1回リクエストしてよいか」で、リクエストは本体の先頭にあります。
# N 回目の応答のツールを実行して結果を積んだところで `range` が尽き、その結果を読ませるリクエストは送られません。
# 書き込みのようなツールなら、効果だけが残ります。
#
# **レッスン6が先頭で問う理由。** レッスン6は最初のリクエストを `while` の外に、次のリクエストを本体の末尾に置きます。
# だから先頭の「もう一周してよいか」は「ツールを実行し、その結果を読ませるリクエストまで送ってよいか」という問いになり、
# 実行した結果は必ずモデルに届きます。練習のレベル2も、この位置を確かめます。
#
# ## パッケージの `MaxTurns` を読む
#
# パッケージでは、この保険が弁 `hl.MaxTurns` です。その `check` と、`hl.Run.loop` の中でそれが問われる4行を見ます。

# %%
import inspect

print(inspect.getsource(hl.MaxTurns.check))
loop_lines = inspect.getsource(hl.Run.loop).splitlines()
at = next(i for i, line in enumerate(loop_lines) if "wants_tools" in line)
print("\n".join(loop_lines[at:at + 4]))  # Run.loop から: stop_reason の分岐と、loop_top

# %% [markdown]
# | 行 | 意味 |
# |---|---|
# | `if state.turns >= self.limit:` | 終わったターンの数が上限に届いたら止める（`turns` が増えるのは、ここを通ったあと） |
# | `return t("stop.max_turns", ...)` | 停止メッセージを返せば止まり、`None` なら続ける |
# | `if not self.wants_tools(response):` | 続ける2つでなければ抜ける（`next_step` の `"finish"` と `"stop"`） |
# | `if stop := self.check("loop_top"):` | `loop_top` の弁に問う。`:=` は「代入して、その値で判定する」書き方 |
#
# 冒頭の Stepper を最後まで進めます（パネルの「最後まで」ボタンと同じです）。3ターンのあと、4回目の応答が求めた
# `notes/004.md` を読む前に止まります。止まったときの履歴は tool_result の user メッセージで終わっていて、そのまま API に送れます。
# 4回目の応答は `run.state.pending` に保留されます。弁の上限を上げて再開すると（パネルの「再開」。コードでは `s.resume(limit=5)` で、中では `run.resume()` を呼びます）、同じ履歴のまま続きます。

# %%
s.run_all()
s

# %%
last = run.messages[-1]
print("履歴の最後:", last["role"], [b["type"] for b in last["content"]])
print("保留中の応答が求めている呼び出し:", [c["input"] for c in hl.tool_calls(run.state.pending.content)])
again = hl.connect("never_ending", live=False).messages.create(**run.request())  # run.request(): run が次に送るリクエスト（同じ tools）
print("この履歴をそのまま送ると:", again.stop_reason)

s.resume(limit=5)  # 止めた弁の上限を 5 に上げて、同じ run を続ける（パネルも同じ run を映したまま）
end = s.run_all()
print(f"{type(end).__name__} ({end.cause}) / 終わったターン {end.turns} / リクエスト {run.state.model_calls} 回")

# %% [markdown]
# ## ライブの Claude に切り替える
#
# Jupyter を起動する**前に**、ターミナルで API キーを環境変数に入れておきます（ノートブックにキーを書くと、保存したファイルに残ります）:
#
# ```bash
# export ANTHROPIC_API_KEY=...   # 自分のキー
# jupyter lab
# ```
#
# すると準備のセルの `hl.connect("lesson6")` が本物の Claude のクライアントを返します。台本どおりの振る舞いは本物にはやらせられないので、
# デモのセルは `live=False` のままです。下のセルは保険の `MaxTurns(8)` を付けてレッスン6の一文を頼みます。切り上げるのは
# モデル自身の `end_turn` のはずです。保存されている出力はオフラインのもので、ライブの結果は毎回少し違います。

# %%
print(hl.mode_line(client))
outcome = hl.run(client, CASES["lesson6"], tools=[read_file, hl.get_time], valves=[hl.MaxTurns(8)])
print(outcome.stop)

# %% [markdown]
# ## やってみよう
#
# 1. `count(loop, max_turns=1)` や `max_turns=0` で4つの候補を数え直してみましょう。いつも「ツール N ターン、リクエスト N + 1 回」になるのは1だけです。
# 2. 自分の台本で③を壊してみましょう。`loop_until` には台本の名前の代わりに、返事のリストも渡せます:
#    `from harness_lab.emulator import call, reply, say` のうえで
#    `loop_until(by_text_block, [reply("わかりました、調べます。", call("get_time")), say("10時42分です。")], "今何時？")`。
#    同じ台本で `by_words` はどう壊れるでしょうか。
#
# ## まとめ
#
# - 止めるか続けるかの合図は `stop_reason` だけです。続けるのは `tool_use` と `pause_turn` の2つで、知らない値も止める側に倒します
# - `end_turn` でも text が空のことがあります。`type == "text"` のブロックだけを読みます
# - `max_tokens` で切れた tool_use は実行しません。引数が途中で切れています
# - 本文の文字列、主役のカウンター、text ブロックの有無は、どれも停止条件になりません
# - `MAX_TURNS` は保険です。ループ本体の先頭、`turns += 1` の手前で問えば、止まらないモデルにも「ツール呼び出し N ターン、
#   リクエスト N + 1 回」で止まり、実行した結果はすべてモデルに届きます
#
# ## 確認問題
#
# **問1.** `stop_reason` が `"max_tokens"` の応答の最後に tool_use ブロックがあります。実行してよいですか。
#
# <details><summary>答え</summary>
#
# いいえ。生成が途中で打ち切られ、引数が最後まで書かれている保証がありません。止めて報告します。
# </details>
#
# **問2.** 「text ブロックがあれば終わり」という判定は、どんな応答で間違えますか。
#
# <details><summary>答え</summary>
#
# 説明文と tool_use が1つの応答に並ぶとき（`stop_reason` は `"tool_use"`）です。ツールを待っているのに止まります。
# </details>
#
# **問3.** 記事の `for _ in range(MAX_TURNS)` は `stop_reason` で抜けるのに、なぜレッスン6の位置と数が違うのですか。
#
# <details><summary>答え</summary>
#
# リクエストが本体の先頭にあり、`range` が問うのは「もう1回リクエストしてよいか」だからです。N 回目の応答のツールを実行したところで
# 回数が尽き、その結果は送られません（リクエスト N 回、ツール N ターン）。レッスン6は本体の先頭で「ツールを実行し、結果を読ませる
# 一周」を問うので、リクエスト N + 1 回、ツール N ターンで、結果はすべて読まれます。
# </details>
#
# 次は [レッスン4: 暴走とフォールバック](03_runaway_fallbacks.ipynb) へ。デッドループ、空回り、予算バーンアウトを実際に起こします。
