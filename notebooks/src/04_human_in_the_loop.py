# %% [markdown]
# # レッスン5: 介入と操舵 — 中断、方向転換、ヒューマン・イン・ザ・ループ
#
# **エージェントハーネスの基礎: ループと制御** · ノートブック 4 / 6
#
# 前: [レッスン4: 暴走とフォールバック](03_runaway_fallbacks.ipynb) ｜ 次: [レッスン6: 制御付きエージェントハーネスを手書きする](05_full_harness.ipynb)
#
# **所要時間の目安:** 約45分（読む 32分・書いて確かめる 7分・実行と予想 6分）。2回に分けるなら「3. 承認弁を書く」の前で ｜ **前提:** ノートブック01〜03
#
# 今日は、人が割って入る場所をループに作ります。止める、あとで続ける、向きを変える、そして書き込みや送信のような取り返しのつかない操作の直前で、人のうなずきを待ちます。
#
# **このノートブックを終えると、次のことができます:**
#
# - ターンの合間でループを止め（中断）、同じ履歴のまま再開する。止められるのはループがジェネレーターだからだと説明する
# - `run.steer(text)` で操舵の指示を差し込み、それが tool_result の後ろに入る理由を API の 400 で示す
# - 高インパクトなツールの実行の「前」に尋ねる `run_tool_uses` を書く
# - 「実行してから尋ねる」配線と、「いいえ」を許可と読む承認関数の落とし穴を、実際に起こして示す
# - 拒否を許可に変えた分岐を走らせ、2つの結末を並べて比べる
#
# **今日のコード:** `harness_lab/valves/approval.py`（承認弁）と `harness_lab/tools/uses.py`（承認弁に尋ねるところ）、`harness_lab/loop.py` の `steer()`・`resume()`・`fork()`、`harness_lab/cli.py` の `read_answer`。

# %%
# Colab など、harness_lab が入っていない環境では、最初にインストールします（手元の環境では何もしません）
import importlib.util
if importlib.util.find_spec("harness_lab") is None:
    %pip install -q "harness_lab @ git+https://github.com/harness-lab/harness_lab.git"

# %%
import harness_lab as hl
from harness_lab import lessons

hl.use_language("ja")  # このノートブックの表示は日本語（HARNESS_LAB_LANG の設定にかかわらず）
client = hl.connect("high_impact")
print(hl.mode_line(client))

# %% [markdown]
# ## 今日の場所をループの図で確かめる
#
# 承認弁は `before_each_tool` にいます。モデルがツールを名指しした**後**、そのツールが走る**前**です。
# 中断と操舵は、ターンとターンの合間（履歴に tool_result まで積み終えたところ）で効きます。

# %%
from harness_lab.ui import diagram

diagram(highlight="before_each_tool")

# %% [markdown]
# ## まず、走っている姿を見る
#
# 高インパクトなツール `write_file`・`delete_file`・`http_post` は、一時フォルダーの中の `sandbox/` にしか届かないものを使います
# （`http_post` は何も送らず、送るはずだった中身を記録するだけです）。
# レポートを保存したがるモデル（シナリオ `high_impact`）を承認弁付きで走らせると、`write_file` の直前で止まって答えを待ちます。
# ここではコードで `.deny(...)` を呼びますが、パネルの「許可」「拒否」ボタンでも同じです。

# %%
import tempfile
from pathlib import Path


def new_sandbox():
    """一時フォルダーに sandbox/ を作り、その中にしか届かない高インパクトなツールをそろえて返す"""
    box = Path(tempfile.mkdtemp(prefix="harness_lab_04_")) / "sandbox"
    box.mkdir()
    return box, [hl.make_write_file(sandbox=box), hl.make_delete_file(sandbox=box), hl.make_http_post([])]


def files(box):
    return sorted(p.name for p in box.iterdir())


box, demo_tools = new_sandbox()

# %%
from harness_lab.ui import Stepper

watch = Stepper(hl.Run(hl.connect("high_impact", live=False), tools=demo_tools, valves=[hl.MaxTurns(8), hl.Approval()]),
                "今週の問い合わせをレポートにまとめて保存して")
watch.step()                    # write_file の前で止まり、承認を待つ
watch.deny("まだ保存しないで")  # パネルの「拒否」と同じ
watch.run_all()
print("sandbox/ の中身:", files(box))
watch

# %% [markdown]
# 拒否したので `report.md` はありません。モデルは「拒否された」という `is_error` の tool_result を読み、レポートを回答の中に示す道に
# 切り替えました。拒否は無視とは違い、それ自体がモデルに届ける**結果**です。ここから、人が割って入る3つの形 — 中断と再開、操舵、承認 — を
# 1つずつ見ていきます。
#
# ## 1. ターンの合間で止めて、あとで続ける
#
# 相手は、12章ある資料を1章ずつ読むモデルです。このデモのために書いた台本で、読めた章を数えて次を頼み、
# 最後の user メッセージに「3章まで」という指示があれば切り上げます。資料は一時フォルダーに作ります。
#
# Stepper の「停止」ボタン（コードでは `.stop()`）は、ターンの合間でループを止めます。止まった履歴は tool_result まで積み終えた形なので、
# 席を外しても、あとで「再開」（`.resume()`、パッケージの `run.resume()`）を押せば同じ履歴・同じカウンターのまま続きます。

# %%
from harness_lab.emulator import call, say

book = Path(tempfile.mkdtemp(prefix="harness_lab_04_book_"))
(book / "chapters").mkdir()
for n in range(1, 13):
    (book / "chapters" / f"{n:02d}.md").write_text(f"# 第{n}章\n\n第{n}章の本文です。\n", encoding="utf-8")
read_in_book = hl.make_read_file(root=book)  # book/ の外は読めない read_file


def chapter_reader(request):
    """読めた章（エラーでない tool_result）を数えて次の章を頼む台本。最後の user メッセージに「3章」があれば切り上げる"""
    blocks = [b for m in request["messages"] if isinstance(m["content"], list) for b in m["content"]]
    read = sum(1 for b in blocks if b["type"] == "tool_result" and not b.get("is_error"))
    last = request["messages"][-1]["content"]
    if isinstance(last, list) and any("3章" in b.get("text", "") for b in last):
        return say(f"ご指示どおり、第{read}章までで切り上げて要約します。")
    return call("read_file", path=f"chapters/{read + 1:02d}.md") if read < 12 else say("全12章を確認しました。")

# %%
reader = hl.Run(hl.connect(chapter_reader, live=False), tools=[read_in_book], valves=[hl.MaxTurns(20)])
paused = Stepper(reader, "chapters/ の12章をすべて確認して")
paused.step()
paused.step()
print(paused.stop())  # 「停止」: ターン2と3の合間で止める
print("履歴の最後:", reader.messages[-1]["role"], [b["type"] for b in reader.messages[-1]["content"]])
paused.resume()       # 「再開」: 同じ run の続きから
paused.step()
paused

# %% [markdown]
# ### 合間で止められるのは、ループがジェネレーターだから
#
# `hl.Run` のループは **ジェネレーター** です。`yield` で1ターン分を渡して一時停止し、次の `next()` でその続きから動きます。
# `return` の値は、終わり方として `StopIteration.value` に入ります。小さな例で確かめます。ノートブック05では、自分の `run_agent` をこの形にします。

# %%
def count_turns(limit):
    """1ターン終えるたびに yield で一時停止し、最後に return で終わり方を返す"""
    turns = 0
    while True:
        if turns >= limit:
            return f"上限 {limit} で停止"  # return の値が、終わり方になる
        turns += 1
        yield f"ターン {turns} が終わりました"  # ここで止まり、次の next() で続きから


gen = count_turns(2)
print(next(gen))
print(next(gen))
try:
    next(gen)
except StopIteration as end:
    print("終わり方:", end.value)
print(lessons.drive(count_turns(3)))  # 最後まで回す: (yield された値のリスト, return の値)

# %% [markdown]
# ### ツールの実行中に Ctrl-C が当たったら
#
# Jupyter の ■（カーネルの中断）は、ツールの実行中でも `KeyboardInterrupt` を投げ込みます。下の `read_file` は、3章を読んでいる最中に
# 自分で ■ を押します（`_thread.interrupt_main()` は ■ と同じ割り込み）。`ran` には、ツール関数が実際に走った記録が残ります。

# %%
import _thread
import time

ran = []


@hl.tool(name="read_file")
def read_chapter(path: str) -> str:
    """資料の章を読みます。

    Args:
        path: chapters/01.md のような相対パス
    """
    ran.append(path)
    if path.endswith("03.md") and ran.count(path) == 1:
        _thread.interrupt_main()  # ■ が押された
        time.sleep(3)             # 読み終える前に届く
    return read_in_book(path=path)


long_run = hl.Run(hl.connect(chapter_reader, live=False), tools=[read_chapter], valves=[hl.MaxTurns(20)])
end = hl.drain(long_run.start("chapters/ の12章をすべて確認して"))
print(end.reason)
print("履歴の最後:", [(b["type"], b["content"]) for b in long_run.messages[-1]["content"]])

# %% [markdown]
# ハーネスは中断を受け止め、ターン3を**丸ごと**履歴に積んでから止まりました。終わった呼び出しには本当の結果、走っていた呼び出しには
# 「中断」の `is_error` の結果です。応答を履歴に積むのは tool_result と一緒のときだけなので、どこで止まっても履歴はそのまま送れます。
#
# ## 2. 操舵: 走っているエージェントに指示を差し込む
#
# 止まっている間に気が変わりました。「3章まででいい」。`run.steer(text)` は指示を預かり、次のターンの tool_result の**後ろ**に、同じ user メッセージで送ります。
# `Stepper(run)` にプロンプトを渡さないと、止まった run を再開します。パネルのターン4に、指示が入っています。

# %%
long_run.steer("やっぱり第3章まででいいので、そこで要約して")
resumed = Stepper(long_run)
resumed.run_all()
resumed

# %% [markdown]
# 再開したハーネスは、中断された呼び出しを自分で実行し直さず、モデルにもう一度尋ねました。3章の読み直しを頼んだのはモデルで、新しい id の新しい呼び出しです。
# tool_use の数と、ツール関数が走った回数を数えます。

# %%
calls = [b for m in long_run.messages if m["role"] == "assistant" for b in m["content"] if b["type"] == "tool_use"]
answers = {b["tool_use_id"]: b for m in long_run.messages if isinstance(m["content"], list)
           for b in m["content"] if b["type"] == "tool_result"}
for c in calls:
    # id は末尾8文字だけ（全体の30文字だと、ファイルブラウザーを開いた狭い画面で1行に収まりません）
    print("…" + c["id"][-8:], c["input"]["path"], "→", "中断（is_error）" if answers[c["id"]].get("is_error") else "読めた")
print(f"tool_use {len(calls)} 個、ツール関数が走ったのは {len(ran)} 回:", ran)

# %% [markdown]
# id ごとに結果は1つ、走ったのも1回ずつです。書き込みや送信のツールなら、この違いが効きます。■ の前に書き終えていたかもしれない呼び出しを
# ハーネスが黙って繰り返せば、二重に書くことになるからです。
#
# 指示が tool_result の後ろなのは、API が tool_use の直後の user メッセージに **tool_result から始まる**ことを求めるからです。並べ替えて送ると:

# %%
import anthropic

i = next(i for i, m in enumerate(long_run.messages)
         if isinstance(m["content"], list) and any(b["type"] == "text" for b in m["content"]) and m["role"] == "user")
blocks = long_run.messages[i]["content"]
print("steer() が作った順:", [b["type"] for b in blocks])
swapped = [b for b in blocks if b["type"] == "text"] + [b for b in blocks if b["type"] != "text"]
try:
    hl.connect(chapter_reader, live=False).messages.create(
        model=hl.MODEL, max_tokens=1024, tools=[read_chapter.definition],
        messages=long_run.messages[:i] + [{"role": "user", "content": swapped}])
except anthropic.BadRequestError as err:
    print("指示を先にすると:", err.status_code, err.body["error"]["message"])

# %% [markdown]
# ## 3. 承認弁を書く — 実行の直前に尋ねる
#
# 承認弁は、モデルがツールを名指しした、でもまだ走っていない瞬間に差し込みます。1ステップ遅ければ、ファイルはもう書かれ、リクエストはもう送られています。
# 高インパクトなアクションに人の承認を求めるのは、OWASP が LLM アプリケーションのリスクに挙げる**過剰なエージェンシー**（LLM06: Excessive Agency）への推奨対策の1つです。
#
# `run_tool_uses(content, impls, approve)` を書きます。レッスン2の `run_tools` と同じ形で、`approve(name, input)` は True（はい）か False（いいえ）を返す関数です。
# 拒否しても tool_result は返します。返さないと tool_use が宙ぶらりんになり、次のリクエストが 400 になります。

# %% tags=["todo", "piece:run_tool_uses"]
# TODO: tool_use 1つにつき tool_result を1つ、呼び出しの順に返します。名前が HIGH_IMPACT にあるツールは、
# 実行する「前」に approve に尋ね、「いいえ」なら実行せずに is_error の結果にします。手順は lessons.hint("run_tool_uses")
HIGH_IMPACT = {"write_file", "http_post", "delete_file"}


def run_tool_uses(content, impls, approve):
    raise NotImplementedError  # ← この行を消して、ここに書く


# %% tags=["check"]
from harness_lab import lessons
run_tool_uses = lessons.check("run_tool_uses", run_tool_uses)

# %% [markdown]
# 確認を通ったもの（まだなら参考実装）を、レッスン3の形のループに組み込みます。ツールを走らせるのは `runner` だけです。
# 承認関数 `no_thanks` はいつも「いいえ」と答え、尋ねられた**その時点**の `sandbox/` の中身も見せます。

# %%
def agent(client, user_input, tools, approve, runner, max_turns=8):
    """レッスン3の形のループ。ツールを走らせるのは runner だけ。(履歴, 最終回答) を返す"""
    definitions, impls = [one.definition for one in tools], {one.name: one for one in tools}
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=hl.MODEL, max_tokens=1024, tools=definitions, messages=messages)
    turns = 0
    while response.stop_reason == "tool_use":
        if turns >= max_turns:
            return messages, f"最大ターン数 {max_turns} に達したので停止しました"
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": runner(response.content, impls, approve)})
        response = client.messages.create(model=hl.MODEL, max_tokens=1024, tools=definitions, messages=messages)
    return messages, hl.text_of(response.content)

# %%
def no_thanks(box, show=True):
    def approve(name, tool_input):
        seen = f"（この時点の sandbox/: {files(box)}）" if show else ""  # show=False: 予想の答えを伏せる
        print(f"[approve] {name} を実行しますか？ → いいえ{seen}")
        return False
    return approve


box1, tools1 = new_sandbox()
messages, answer = agent(hl.connect("high_impact", live=False), "今週の問い合わせをレポートにまとめて保存して",
                         tools1, no_thanks(box1), runner=run_tool_uses)
print("モデルに届いた結果:", messages[2]["content"][0]["content"])
print("最終回答:", answer.splitlines()[0], "／ sandbox/ の中身:", files(box1))

# %% [markdown]
# ## 4. 同僚の配線を試す: 実行してから尋ねる
#
# レッスン6の同僚は、まずどのツールも実行し、結果を返す直前に高インパクトなものについて尋ね、「いいえ」なら結果に `is_error` を付けて捨てました。
# 「どうせ捨てるのだから同じこと」と言います。同じ「いいえ」を、この配線で答えます。走らせる前に予想してください。

# %%
MY_GUESS = {"「いいえ」のあと sandbox/ にあるファイルの数": None}  # ← 予想を書く

# %%
def run_tool_uses_after(content, impls, approve):
    """× 同僚の配線: 先に実行し、結果を返す直前に尋ねる"""
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        output = impls[block.name](**block.input)  # ここでもう実行している
        if block.name in HIGH_IMPACT and not approve(block.name, block.input):  # …それから尋ねる
            results.append({"type": "tool_result", "tool_use_id": block.id, "is_error": True,
                            "content": "ユーザーがこの高インパクトなアクションを拒否したため、実行していません。"})
        else:
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
    return results


box2, tools2 = new_sandbox()
messages, answer = agent(hl.connect("high_impact", live=False), "今週の問い合わせをレポートにまとめて保存して",
                         tools2, no_thanks(box2, show=lessons.guessed(MY_GUESS)), runner=run_tool_uses_after)
print("最終回答:", answer.splitlines()[0])
lessons.compare(MY_GUESS, {"「いいえ」のあと sandbox/ にあるファイルの数": len(files(box2))})
if lessons.guessed(MY_GUESS):
    print("sandbox/ の中身:", files(box2))

# %% [markdown]
# 尋ねられた時点で `report.md` はもうありました。「いいえ」と答え、モデルも「書き込みは行わず」と言っているのに、ファイルは残っています。
# しかもモデルに届いた結果は「実行していません」— ハーネスがモデルに事実と違うことを伝えています。承認弁が守るのは結果ではなく**行為**です。
#
# ## 5. 「いいえ」が許可になる承認関数を直す
#
# レッスン6のターミナル用の承認関数は、`return answer.trim().toLowerCase() !== "n";` で判定します。拒否になるのは `n` だけです。
# 日本語入力をオンのまま `n` を打つと全角の「ｎ」になり、「いいえ」も `n` ではありません。
# ハーネスの `harness_lab.cli.read_answer` は「Enter で許可」を残したまま、半角・全角・日本語・英語の、はっきり「いいえ」と読める答えをすべて拒否にし、
# 読めない答えには `None`（もう一度尋ねる）を返します。同じ答えを、レッスン6の判定と並べて試します。

# %%
from harness_lab.cli import read_answer


def seed_approve(answer):
    """レッスン6の approveInTerminal の判定を Python で: n 以外はすべて許可"""
    return answer.strip().lower() != "n"


WORD = {True: "許可", False: "拒否", None: "聞き直す"}
for answer in ["", "y", "はい", "n", "ｎ", "いいえ", "ＮＯ", "の", "だめ", "キャンセル", "いいです", "はい？"]:
    print(f"{answer!r:>8} → レッスン6の判定: {WORD[seed_approve(answer)]} ／ read_answer: {WORD[read_answer(answer)]}")

# %% [markdown]
# レッスン6の判定では、「いいえ」「ｎ」「ＮＯ」で書き込みが走ります。迷ったときに許可へ倒れる（フェイルオープン）承認関数です。
# `read_answer` では、はいでもいいえでもない答えが許可になることはありません。「いいです」は「はい」にも「結構です」にも読めるので、聞き直します。ターミナルのデモ（`harness-lab run`）は、3回尋ねても読めなければ拒否します。
#
# ## 6. パッケージ版: 呼び出しごとに、実行の前に決める
#
# パッケージの `Run` は、1つの tool_use ごとに、走らせる前に `decide` で決めます（`harness_lab/valves/approval.py`、承認弁のすぐ隣）。
#
# | 行 | 意味 |
# |---|---|
# | `gate.tier(...)` | 段階を決める: `allow` / `ask` / `deny`。弁が複数あれば、いちばん厳しい段階が勝つ。`Approval()` は高インパクトなら `ask`、それ以外は `allow` |
# | `tier == "deny"` | 関数に入らず、禁止を伝える `is_error` の結果 |
# | `record.decided.get(...)` | `ask` のとき、分岐（後の節）で前に出た答えがあれば、それを使う |
# | `yield request` | 答えがなければ `ApprovalRequest` を渡して答えを待つ。素の `next()` は拒否（迷ったら止める側） |
# | 最後の `return` | 拒否も、理由を添えた `is_error` の tool_result になる |

# %%
import inspect
from harness_lab.valves import approval

print(inspect.getsource(approval.decide))

# %% [markdown]
# ## 7. 拒否を許可に変えて、もう一方の結末を見る
#
# 最初のパネル `watch` の「タイムライン」タブでは、過去のターンを選んで、そこから**分岐**できます。`flip=True` は、そのターンの承認の答えを
# 反対にします（コードなら `run.fork(at=1, decisions={tool_use_id: True})`）。分岐では、拒否された `write_file` が実際に走ります。
# 元の実行はそのままです。`compare()` で2つの結末を並べます。

# %%
allowed = watch.fork(at=1, flip=True)  # ターン1の「拒否」を「許可」に変えた分岐
allowed.run_all()
print("sandbox/ の中身:", files(box))
watch.compare()

# %% [markdown]
# ## 本物の Claude で試す
#
# Jupyter を起動する前に環境変数 `ANTHROPIC_API_KEY` を設定しておくと、セットアップのセルの `hl.connect(...)` が本物の Claude につながります
# （出力は、ここに保存されているオフラインの結果とは変わります）。下のセルは承認弁付きで、高インパクトなアクションをすべて拒否して走らせます。
# 本物のモデルでも、書き込みは `sandbox/` の外に届かず、しかも拒否されるので、何も壊れません。

# %%
print(hl.mode_line(client))
box3, tools3 = new_sandbox()
outcome = hl.run(client, "今週の問い合わせ（42件、未解決3件）をレポートにして sandbox/report.md に保存して",
                 tools=tools3, valves=[hl.MaxTurns(8), hl.Approval()], approve=lambda request: False)
print(type(outcome.stop).__name__, "／ 終わったターン", outcome.turns, "／ sandbox/ の中身:", files(box3))

# %% [markdown]
# ## やってみよう
#
# 1. **拒否の理由をモデルに渡す**: `run_tool_uses` を変え、`approve` が `(False, "まだ保存しないで")` を返したら理由を tool_result に入れてみましょう。
#    パッケージ版では、`watch.deny("まだ保存しないで")` の理由がそのまま入っていました（最初のパネル）。
# 2. **自分の聞き直し**: `read_answer` を使い、`None` なら最大3回聞き直し、それでも読めなければ拒否する承認関数を書いて、上の表の答えで試しましょう。

# %% [markdown]
# ## まとめ
#
# - 人が割って入る安全な場所は、tool_result まで積み終えたターンの合間です。「停止」と「再開」（`run.resume()`）は同じ履歴・同じカウンターで続きます。
# - ツールの実行中の Ctrl-C でも、ハーネスはそのターンを丸ごと積んでから止まり、再開しても同じ呼び出しを繰り返しません。
# - 操舵の指示（`run.steer`）は tool_result の**後ろ**に入ります。前に置くと API が 400 で断ります。
# - 承認弁は高インパクトなツールの**実行の前**に置きます（OWASP LLM06）。拒否も `is_error` の tool_result で返し、モデルは別の道を取れます。
# - 「実行してから尋ねる」と、「いいえ」の時点でファイルはもうあります。`n` だけを拒否と読む承認関数は、「いいえ」や「ｎ」で許可になります。
# - 分岐（`fork`）で答えを変えると、同じ台本のもう一方の結末を、元の実行を壊さずに確かめられます。

# %% [markdown]
# ## 確認問題
#
# **問1.** 操舵の指示を `[{"type": "text", "text": "3章まででいい"}] + tool_results` の順で user メッセージにして送ると、どうなりますか。
#
# <details><summary>答え</summary>
#
# API が 400 で断ります（`tool_use` の直後の user メッセージは tool_result から始まる必要があります）。指示は tool_result の後ろに置きます。
# </details>
#
# **問2.** 承認を拒否した呼び出しに、何も返さずに次のリクエストを送るとどうなりますか。何を返すべきですか。
#
# <details><summary>答え</summary>
#
# tool_result のない tool_use が残るので 400 になります。実行しなかったことを伝える `is_error: true` の tool_result を返します。モデルはそれを読んで別の道を取れます。
# </details>
#
# **問3.** 「実行してから尋ね、いいえなら結果を捨てる」配線が「同じこと」ではない理由を2つ挙げてください。
#
# <details><summary>答え</summary>
#
# 1つ目: 尋ねた時点で書き込み（削除、送信）はもう起きていて、結果を捨てても取り消せません。2つ目: モデルには「実行していません」と届くので、
# ハーネスがモデルに事実と違うことを伝え、その後の判断もずれます。
# </details>
#
# **問4.** `write_file` の実行中に Ctrl-C で止め、`resume()` しました。ハーネスはその `write_file` をもう一度実行しますか。
#
# <details><summary>答え</summary>
#
# しません。その呼び出しには「中断」の `is_error` の結果が付いて、ターンごと履歴に積まれています。`resume()` はモデルにもう一度尋ねるだけで、
# もう一度書くかどうかはモデル（と承認弁）が決めます。書き終えていたかもしれない呼び出しを黙って繰り返すと、二重に書くおそれがあるからです。
# </details>
#
# **問5.** 承認関数 `answer.strip().lower() != "n"` に「いいえ」と答えると、どうなりますか。どう直しますか。
#
# <details><summary>答え</summary>
#
# 許可になり、ツールが走ります。はっきり読める「はい」「いいえ」（全角・日本語を含む）だけで決め、読めない答えは聞き直し、最後は拒否に倒します（`read_answer`）。
# </details>
