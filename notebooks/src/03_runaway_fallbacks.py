# %% [markdown]
# # レッスン4: 暴走とフォールバック — デッドループ、空回り、予算バーンアウト
#
# **エージェントハーネスの基礎: ループと制御** · ノートブック 3 / 6
#
# 前: [レッスン3: 停止条件](02_stop_conditions.ipynb) ｜ 次: [レッスン5: 介入と操舵](04_human_in_the_loop.ipynb)
#
# **所要時間の目安:** 約45分（読む 31分・書いて確かめる 6分・実行と予想 8分）。2回に分けるなら「3. 無進捗検知の弁を読む」の前で ｜ **前提:** ノートブック01・02
#
# 止まるべきループが止まらないとき、それはどんな姿をしているのか。同じ一周を繰り返すデッドループ、同じ呼び出しを続ける空回り、
# 育つ履歴が予算を焼く予算バーンアウトを、このノートブックの中で実際に起こして確かめます。
#
# **このノートブックを終えると、次のことができます:**
#
# - 再代入を落としたループが、本物の API では 400 で落ち、検証しないモックでは黙って回り続けることを説明する
# - 1ターンの呼び出しを署名にする `signature_of` を書き、無進捗検知の誤検知と見逃しを示す
# - 空回りで止まった実行を、ツールの結果を直した分岐で最後まで走らせる
# - 入力トークンが線形に、累計が二次関数的に増えることを確かめ、予算の弁を「受け取った後」と「送る前」で比べる
# - 弁が作動したときにユーザーへ返すものと、履歴がそのまま再開できる理由を説明する

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
# 暴走のデモは、API キーがあってもエミュレーターで走らせます（`hl.connect("spinning", live=False)`）。本物のモデルは都合よく暴走してくれませんし、
# 暴走を確かめるために本物のお金を燃やす理由もないからです。
#
# ## 今日の弁の位置を確かめる
#
# 今日の主役は2つの弁です。**無進捗検知**（弁3）は `before_tools` — 応答の呼び出しが分かり、まだ1つも実行していないところ — に、
# **トークン予算**（弁2）は本体の先頭 `loop_top` に、見積もりで確かめる版は送る直前の `before_send` に付きます。

# %%
from harness_lab.ui import diagram

diagram(highlight="before_tools")

# %% [markdown]
# ## まず、空回りを見る
#
# 3つの弁を付けたハーネスを、空回りするモデル（シナリオ `spinning`）にかけます。モデルは存在しない `notes.txt` を読もうとし、
# 失敗しても同じ呼び出しを出してきます。ここではコードで `s.step()` を呼んでいますが、パネルの「次のターン」を押してもかまいません。

# %%
import tempfile
from pathlib import Path

from harness_lab.ui import Stepper

project = Path(tempfile.mkdtemp(prefix="harness_lab_03_"))  # デモ用のプロジェクト。notes.txt はわざと置かない
(project / "README.md").write_text("# 週次レポートの置き場\n\n毎週金曜に更新します。\n", encoding="utf-8")
read_file = hl.make_read_file(root=project)

s = Stepper(hl.Run(hl.connect("spinning", live=False), tools=[read_file],
                   valves=[hl.MaxTurns(8), hl.TokenBudget(20_000), hl.NoProgress()]),
            "notes.txt を読んで要点をまとめて")
s.step()  # ターン1: read_file が失敗し、is_error の結果が返る
s.step()  # 2回目の応答も同じ呼び出し: 無進捗検知が、実行する前に止める
s

# %% [markdown]
# ターンは 1 / 8、トークンも予算のごく一部です。「量」の弁（ターン数、予算）はまだ遠いのに、何も進んでいません。
# この停滞を捕まえたのは、呼び出しの「中身」を比べる弁でした。ここから、3つの暴走を裸のループで1つずつ起こします。
#
# ## 1. デッドループ: 再代入を1行落とす
#
# レッスン2のループは、本体の末尾で `response = client.messages.create(...)` と再代入します。`while` が見ているのは
# `response.stop_reason` なので、これを落とすと条件は永遠に変わりません。ツールの実行には、前のノートブックの `run_tools` を使います。
# 次のセルで落としたループを書き、その次のセルでレッスン6の冒頭と同じ仕事（シナリオ `lesson6`: README.md を読み、時刻を確かめて答える）に
# かけます。その前に予想してください: モデルへのリクエストは、失敗するまでに何回送られるでしょうか（断られた1回も数えます）。

# %%
from harness_lab.emulator import emulator_of

run_tools = lessons.use("run_tools")

LAPS = 6  # デモを終わらせるためだけの打ち切り（ハーネスの弁ではありません）


def run_agent_dead(client, user_input, tools, impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=hl.MODEL, max_tokens=1024, tools=tools, messages=messages)
    lap = 0
    while response.stop_reason == "tool_use":
        lap += 1
        if lap > LAPS:
            print(f"…{LAPS} 回まわっても while の条件が変わらないので、ここで打ち切ります")
            break
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": run_tools(response.content, impls)})
        latest = client.messages.create(model=hl.MODEL, max_tokens=1024, tools=tools, messages=messages)
        # × 本来は response = client.messages.create(...) と再代入する
        print(f"{lap} 回目: while が見る stop_reason = {response.stop_reason}、最新の応答は {latest.stop_reason}")
    return messages

# %%
import anthropic

TOOLS = [read_file.definition, hl.get_time.definition]
IMPLS = {"read_file": read_file, "get_time": hl.get_time}
MY_GUESS = {"モデルへのリクエスト（断られた回も数える）": None}  # ← 予想を書く

dead = hl.connect("lesson6", live=False)
try:
    run_agent_dead(dead, "README.md の1行目を読んで、それから今何時か教えて", TOOLS, IMPLS)
except anthropic.BadRequestError as err:
    print(f"API が断りました: {err.status_code} {err.body['error']['message']}")
sent = emulator_of(dead).requests  # エミュレーターが受け取ったリクエスト
lessons.compare(MY_GUESS, {"モデルへのリクエスト（断られた回も数える）": len(sent)})
print("断られたリクエストの履歴:", [message["role"] for message in sent[-1]["messages"]])

# %% [markdown]
# ループの1回目は通り、モデルはもう次の手（`get_time`）を返しています。けれどもループの2回目は、古い応答をもう一度履歴に積むので、
# 同じ `tool_use` の id が2回現れます。API はこの履歴を ``messages.3.content.1: `tool_use` ids must be unique`` の 400 で断ります
# （`messages.3` は4番目のメッセージ、積み直した古い応答です）。このエラーを見たら、まず末尾の再代入を疑います。
#
# では、履歴を確かめない相手ならどうなるでしょう。台本の応答を順に返すだけの、手製のモックで同じループを回します。

# %%
from types import SimpleNamespace as Fake


class SilentMock:
    """履歴を確かめない手製のモック: 送られた履歴は見ずに、台本の応答を順に返す（尽きたら最後の応答）"""

    def __init__(self, *replies):
        self.replies, self.sent, self.messages = replies, 0, self  # client.messages.create(...) の形に合わせる

    def create(self, **request):
        self.sent += 1
        return self.replies[min(self.sent, len(self.replies)) - 1]


read_call = Fake(type="tool_use", id="toolu_mock_1", name="read_file", input={"path": "README.md"})
mock = SilentMock(Fake(stop_reason="tool_use", content=[read_call]),
                  Fake(stop_reason="end_turn", content=[Fake(type="text", text="1行目は見出しです。")]))
history = run_agent_dead(mock, "README.md の1行目を読んで", TOOLS, IMPLS)
print(f"モックへのリクエスト {mock.sent} 回、履歴に積まれた同じ応答 {sum(m['role'] == 'assistant' for m in history)} 個")

# %% [markdown]
# モックは何も言いません。モデル役は2回目でもう `end_turn` を返しているのに、ループは打ち切りまで同じ `read_file` を実行し続けます。
# 打ち切りがなければ永遠に続きます。本物の API ならループの2回目で見えるバグが、検証しないモックの上では見えない暴走になる —
# エミュレーターが本物と同じ 400 を返すのはこのためです。直すのは1行、保険は最大ターン数（レッスン3）です。
#
# ## 2. 空回り: 同じツールを、同じ引数で
#
# 再代入が正しくても、モデルのほうが足踏みすることがあります。シナリオ `spinning_reordered` は同じ検索を繰り返しますが、
# 引数のキーの順番を毎ターン入れ替えます。2ターン分の tool_use を並べてみます。

# %%
@hl.tool
def search(query: str, limit: int) -> str:
    """資料を検索する（デモ用: いつも見つからない）"""
    return f"「{query}」を含む資料は見つかりませんでした（上限 {limit} 件）"


reordered = hl.Run(hl.connect("spinning_reordered", live=False), tools=[search], valves=[hl.MaxTurns(2)])
turns = [event for event in reordered.start("締め切りについての資料を探して") if isinstance(event, hl.Turn)]
contents = [turn.response.content for turn in turns]  # 各ターンの応答の content
for k, content in enumerate(contents, start=1):
    for block in (b for b in content if b.type == "tool_use"):
        print(f"ターン {k}: id={block.id}  name={block.name}  input={block.input}")

# %% [markdown]
# 同じ呼び出しなのに、id は毎ターン新しく、`input` のキーの順番も違います。そこで1ターン分の呼び出しを**署名**（名前と引数だけを
# 決まった形で並べた1本の文字列）にして比べます。署名が前のターンと同じなら空回りです。次のセルに `signature_of` を書いてください。
# 同じ呼び出しは、キーの順番や id が違っても、1ターンに並ぶ順番が違っても同じ署名に。違う引数や違うツールなら違う署名にします。

# %% tags=["todo", "piece:signature_of"]
# 書くもの: このターンの tool_use をそれぞれ「名前(引数の JSON)」にして、1本の文字列にまとめる
# 手順が知りたくなったら、別のセルで lessons.hint("signature_of") を実行します
import json


def signature_of(content):
    raise NotImplementedError  # ← この行を消して、ここに書く

# %% tags=["check"]
from harness_lab import lessons
signature_of = lessons.check("signature_of", signature_of)

# %%
# 確認を通った signature_of（まだなら参考実装）で、さきほどの2ターンの署名を比べる
for k, content in enumerate(contents, start=1):
    print(f"ターン {k} の署名: {signature_of(content)}")
print("前のターンと同じ署名 → 空回り:", signature_of(contents[0]) == signature_of(contents[1]))

# %% [markdown]
# ## 3. 無進捗検知の弁を読む
#
# パッケージの `NoProgress` は、同じ考えの署名（`hl.signature_of`）を `before_tools` で比べます。`check` はこれだけです:
#
# | 行 | 意味 |
# |---|---|
# | `state.pending_message` | 受け取ったが、まだ履歴に積んでいない応答（なければ比べるものがない） |
# | `state.signatures[-(self.window - 1):]` | 終わったターンの署名のうち、直近 `window - 1` 個 |
# | `return t("stop.no_progress", ...)` | 止める理由（停止メッセージ）。`None` なら先へ進む |

# %%
import inspect

print(inspect.getsource(hl.NoProgress.check))

# %% [markdown]
# 「直前と同じなら止める」には弱点が2つあります。**誤検知**: 正当なポーリング（`check_status(job_id="job-42")` を数回）は、
# 呼び出しが同じでも結果は進んでいます。署名は呼び出ししか見ません。**見逃し**: `get_time` と `read_file` を交互に呼ぶ A-B-A-B は、
# 直前とは毎回違います。`NoProgress(window=n)` は直近 `n - 1` ターンのどれかと同じなら止めます。窓の幅を 2・3・4 で比べます。

# %%
def check_status_tool():
    """呼ぶたびに進むジョブ: 30%、70%、完了"""
    answers = iter(["実行中（30%）", "実行中（70%）", "完了（done）"])

    @hl.tool
    def check_status(job_id: str) -> str:
        """ジョブの状態を返す"""
        return next(answers, "完了（done）")

    return check_status


CASES = {  # シナリオ: (頼むこと, ツールを作る関数)
    "spinning": ("notes.txt を読んで", lambda: [read_file]),
    "polling": ("job-42 が終わるまで見守って", lambda: [check_status_tool()]),
    "abab": ("時刻と README.md を確かめて", lambda: [hl.get_time, read_file]),
}
for name, (prompt, make_tools) in CASES.items():
    row = []
    for window in (2, 3, 4):
        end = hl.run(hl.connect(name, live=False), prompt, tools=make_tools(),
                     valves=[hl.MaxTurns(8), hl.NoProgress(window=window)]).stop
        row.append(f"window={window}: {end.cause if isinstance(end, hl.Stopped) else '完了'}（{end.turns} ターン）")
    print(f"{name:<9}", " ｜ ".join(row))

# %% [markdown]
# `spinning` はどの窓でも1ターンで止まります。これが本来の獲物です。`polling` は3回目の確認で完了するはずなのに、どの窓でも止められました（誤検知）。
# `abab` は `window=2` では最大ターン数まで見逃され、`window=3` 以上で捕まります。窓を広げると見逃しは減りますが、間をあけた正当な繰り返しも捕まります。
# だから無進捗検知は、必ず効く境界（ターン数、予算）と組にして使います。
#
# ## 4. 空回りした実行を、分岐して直す
#
# 空回りの原因が1つのツール結果なら、そこを直して「もしも」を試せます。ファイルが読めるまで同じ呼び出しを繰り返す小さなモデルを台本に書き、
# 無進捗検知で止めてから、ターン1の履歴を `select(1)` で見ます（`spinning` は結果を読まないので、ここでは自前の台本を使います）。

# %%
from harness_lab.emulator import call, last_results, say


def stuck_on_notes(request):  # 読めるまで、同じ呼び出しを繰り返すモデル
    results = last_results(request)
    if results and not results[-1].is_error:
        return say("要点: " + results[-1].text)
    return call("read_file", path="notes.txt")


stuck = Stepper(hl.Run(hl.connect(stuck_on_notes, live=False), tools=[read_file],
                       valves=[hl.MaxTurns(8), hl.NoProgress()]), "notes.txt を読んで要点をまとめて")
stuck.run_all()
print(stuck.outcome.reason)
stuck.select(1)

# %% [markdown]
# ターン1の結果は「ファイルが見つかりません」でした。`stuck.fork(1, result=...)` は、この結果を書き換えた分岐を同じ台本で走らせます
# （ターン1の `read_file` は実行し直さず、記録と書き換えた結果で答えます）。`compare()` が元の実行と分岐を並べます。
# その次のセルで `stuck` のパネルを表示します。「タイムライン」タブではターン1が選ばれていて（`select(1)` で選びました）、同じ分岐を分岐フォームから作れます。
# ウィジェットなしでも、`run.fork(at=1, results={tool_use の id: 新しい結果})` が分岐した `Run` を返し、`resume()` で続きを走らせます（パネルの次のセル）。

# %%
NOTES = "金曜 10 時に予算の見直しを話し合う。資料は共有フォルダーにある。"
fixed = stuck.fork(1, result=NOTES)
fixed.run_all()
stuck.compare()

# %%
stuck  # 「タイムライン」タブ: ターン1の分岐フォームと、上の分岐との比較

# %%
original = stuck.run
first_call = next(b["id"] for b in original.messages[1]["content"] if b["type"] == "tool_use")  # ターン1の tool_use の id
branch = original.fork(at=1, results={first_call: NOTES})
end = hl.drain(branch.resume())
print(type(end).__name__, "—", end.text)

# %% [markdown]
# ## 5. 予算バーンアウト: 履歴が育つと、支出は加速する
#
# ループはリクエストのたびに**履歴の全体**を送り直します。1ターンで d トークン増えるなら、k 回目の入力はおよそ p₀ + (k−1)·d（線形）、
# n 回までの累計はおよそ n·p₀ + d·n(n−1)/2（二次関数）です。シナリオ `budget_burning` は、毎ターン長い分析文を書いて
# 次のログを読むモデルです。最大ターン数 8 だけを付けて走らせ、リクエストごとの入力と累計を見ます。
# グラフの次のセルは、Stepper の「コンテキスト」タブ（`burn.context()`）です。リクエストごとに、何が入力を埋めているかを分けて見せます。

# %%
from harness_lab.ui import plots

(project / "logs").mkdir(exist_ok=True)
for part in range(1, 13):
    (project / "logs" / f"part{part:02d}.log").write_text("2026-08-26 10:00:00 GET /api/items 200 12ms\n" * 40,
                                                          encoding="utf-8")

burn = Stepper(hl.Run(hl.connect("budget_burning", live=False), tools=[read_file], valves=[hl.MaxTurns(8)]),
               "アクセスログを全部分析して")
burn.run_all()
running = 0
for n, usage in enumerate(burn.run.state.turn_usage, start=1):
    running += usage.total
    print(f"リクエスト {n}: 入力 {usage.input_tokens:>5} ／ 累計 {running:>6} トークン")
plots.plot_token_burn(burn)

# %%
burn.context()  # 増えていくのは、モデルのテキスト、思考ブロック、tool_use、tool_result

# %% [markdown]
# 入力は毎回同じ幅で増え（グラフの左）、累計は曲線を描きます（右。緑の一点鎖線は費用の見積もり）。
#
# ### 予算の弁: 受け取った後に数えるか、送る前に見積もるか
#
# `hl.TokenBudget(20_000)` は `loop_top` で、使ったトークン（入力・出力・キャッシュ）の合計を天井と比べます。
# `preflight=True` を付けると `before_send` に移ります。次のリクエストのプロンプトを `count_tokens` で見積もり、返事の上限（`max_tokens`）を足して、天井を越えるなら送りません。
# 上の累計の表を見て、まず `loop_top` 版がどこで止まるかを予想してください。

# %%
MY_GUESS = {"モデルへのリクエスト": None, "ツール呼び出しのターン": None}  # ← 予想を書く

budget = hl.TokenBudget(20_000)
after = hl.Run(hl.connect("budget_burning", live=False), tools=[read_file], valves=[hl.MaxTurns(20), budget])
stop = hl.drain(after.start("アクセスログを全部分析して"))
lessons.compare(MY_GUESS, {"モデルへのリクエスト": after.state.model_calls, "ツール呼び出しのターン": stop.turns})
print(stop.reason)

# %% [markdown]
# 止まりましたが、天井をまたいだリクエストの分はもう払い終わっています（受け取った後に数えるから）。送る前に見積もる版と並べます。
# 下に出す `TokenBudget.check` の最初の `if` が `preflight` の分岐です: `state.next_prompt` は、ループが `before_send` で求めた次のプロンプトの見積もり、`state.next_reply` はそのリクエストの `max_tokens` です。

# %%
print(inspect.getsource(hl.TokenBudget.check))
before = hl.Run(hl.connect("budget_burning", live=False), tools=[read_file],
                valves=[hl.MaxTurns(20), hl.TokenBudget(20_000, preflight=True)])
print(hl.drain(before.start("アクセスログを全部分析して")).reason)
plots.compare_runs({"受け取った後に数える (loop_top)": after, "送る前に見積もる (before_send)": before}, budget=20_000)

# %% [markdown]
# 送る前に見積もる版は、予算の内側で止まりました。返事の分も上限まで数えるので、どんな予算でも内側に収まります。代わりに見積もりの往復（`count_tokens`）が毎回1つ増え、天井の手前に使い残しが出ます。
# 1回のリクエストが大きくなりうるほど、送る前の確認が効きます。
#
# ## 6. フォールバック: 弁が作動したら、何を返すか
#
# 弁が作動すると、`Run` は最後のイベントとして `Stopped` を返します。`cause` はどの弁か、`reason` は停止メッセージです。
# ユーザーに返すのは、黙って落ちることでも途中のごみでもなく、止まった理由と使った量です。そして履歴は、そのまま再開できる形で残ります。

# %%
def reply_to_user(end):
    """ユーザーへの返事: 完了ならモデルの答え、止まったなら理由と、そこまでに使った量"""
    if isinstance(end, hl.Finished):
        return end.text
    return (f"作業を途中で止めました。{end.reason}\n"
            f"（終わったターン {end.turns}、使ったトークン {end.usage.total}。上限を見直せば、続きから再開できます）")


print(reply_to_user(stop))
print("cause:", stop.cause)
last = after.messages[-1]
print("履歴の最後のメッセージ:", last["role"], [block["type"] for block in last["content"]])

budget.limit = 40_000  # 天井を上げて、同じ履歴・同じカウンターのまま続ける
again = hl.drain(after.resume())
print("再開後:", again.cause, "／ 終わったターン", again.turns, f"／ リクエスト {after.state.model_calls} 回")

# %% [markdown]
# 履歴は tool_result の user メッセージで終わっていて、答えのない tool_use がありません。止めた応答は履歴に積まずに手元に取ってあり、
# `resume()` がそのツールを実行して続けます。Stepper の「再開」ボタン（止めた弁の上限を書き換えられます）も、中身は同じ `resume()` です。
#
# ## 本物の Claude で試す
#
# `ANTHROPIC_API_KEY` を設定してから Jupyter を起動し、上から実行し直すと、セットアップの `hl.connect("lesson6")` は本物の Claude につながります。
# 下のセルは3つの弁を付けたハーネスでレッスン6の仕事を走らせます（保存されている出力はオフラインのものです。本物では答えも使用量も変わります）。

# %%
print(hl.mode_line(client))
outcome = hl.run(client, "README.md の1行目を読んで、それから今何時か教えて", tools=[read_file, hl.get_time],
                 valves=[hl.MaxTurns(8), hl.TokenBudget(40_000), hl.NoProgress()])
print(reply_to_user(outcome.stop))

# %% [markdown]
# ## やってみよう
#
# 1. 3節の表に `window=5` を足し、`abab` と `polling` の結果が変わるか見てください。`polling` を救うには、窓ではなく何を変えればよいでしょうか
#    （ヒント: 前のターンの結果も署名に混ぜる）。
# 2. 5節の `hl.TokenBudget(20_000)` を `10_000` や `40_000` に変えて、予想してから走らせ、リクエストの回数と止まり方を比べてください。
#
# ## まとめ
#
# - **デッドループ**: 再代入を落とすと `while` は古い `stop_reason` を見続けます。本物の API ではループの2回目のリクエストが 400（`tool_use` ids must be unique）で断られ、検証しないモックでは黙って回り続けます。
# - **空回り**: 1ターンの呼び出しを署名（名前と、キーをそろえた JSON を並べ替えたもの）にして前のターンと比べます。無進捗検知には誤検知（ポーリング）と見逃し（A-B-A-B）があり、窓の幅はその取引です。
# - 空回りの原因になった結果を直した**分岐**（`fork`）で、「もしも」を同じ台本の上で確かめられます。
# - **予算バーンアウト**: 入力は線形に、累計は二次関数的に増えます。受け取った後に数える予算ははみ出し、送る前にプロンプトと返事の上限（`max_tokens`）を見積もれば内側で止まります。
# - **フォールバック**: 弁が作動したら `Stopped`（`cause`、`reason`、使った量）を返し、履歴はそのまま `resume()` できます。

# %% [markdown]
# ## 確認問題
#
# **問1.** 再代入を落としたループを本物の API に向けると、何回目のリクエストで何が起きますか。
#
# <details><summary>答え</summary>
#
# 3回目のリクエスト（ループの2回目）が、同じ tool_use を積み直した履歴になり、`tool_use` ids must be unique の 400 で断られます。
# </details>
#
# **問2.** `{"limit": 5, "query": "締め切り"}` と `{"query": "締め切り", "limit": 5}` の2つの呼び出しを同じ署名にするには、何が要りますか。
#
# <details><summary>答え</summary>
#
# キーを並べ替えた JSON（`json.dumps(..., sort_keys=True)`）にすることです。キーの順番のまま文字列にすると、空回りを見逃します。
# </details>
#
# **問3.** 入力が毎回 1,000 トークンずつ増えるとき、10回目までの入力の累計は、最初の入力の10倍よりいくら多いですか。
#
# <details><summary>答え</summary>
#
# 1,000 × (0 + 1 + … + 9) = 45,000 トークンです。回数を2倍にすると、この部分はおよそ4倍になります（二次関数的）。
# </details>
#
# **問4.** 空回りを見つけたハーネスが、その応答を履歴に積んでから止まると、何が困りますか。
#
# <details><summary>答え</summary>
#
# 結果のない tool_use が残り、次に送ると 400（`tool_use` ids were found without `tool_result` blocks immediately after）で断られるので、再開できません。
# </details>
