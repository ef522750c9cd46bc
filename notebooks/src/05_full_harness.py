# %% [markdown]
# # レッスン6: 制御付きエージェントハーネスを手書きする
#
# **エージェントハーネスの基礎: ループと制御** · ノートブック 5 / 6
#
# 前: [レッスン5: 介入と操舵](04_human_in_the_loop.ipynb) ｜ 次: 練習 [レベル1: ツールごとの段階的な制御弁](../exercises/level1_tiered_policy.ipynb)・[レベル2: このループに欠けているゲート](../exercises/level2_missing_gate.ipynb)・発展 [レッスン7: 2026 年の API でループを回す](06_api_2026.ipynb)
#
# **所要時間の目安:** 約65分（読む 30分・書いて確かめる 26分・実行と予想 7分）。3回に分けるなら「ハーネスを書く」と「仕上げ」の前で ｜ **前提:** ノートブック01〜04（`my_harness.py` の部品を使います。なければ参考実装で進みます）
#
# [レッスン2](01_bare_loop.ipynb) の `run_agent`、[レッスン3](02_stop_conditions.ipynb) の `next_step`、[レッスン4](03_runaway_fallbacks.ipynb) の `signature_of`、
# レッスン5 の `run_tool_uses`。これまで書いた部品を、今日は1本のハーネスに溶接します。
#
# **このノートブックを終えると、次のことができます:**
#
# - `run_agent` に4つの制御弁を付けてジェネレーターにし、各弁がループのどのステップにいるかを名指しできる
# - `read_file` をルートに閉じ込め、文字列の比較やリンクで外に出られてしまう理由を説明できる
# - 自分のハーネスを Stepper で1ターンずつ進め、パッケージの `hl.Run` と並べられる
# - 自分のツールをポリシー付きで配線し、このノートブックにないシナリオでも正しく動くことを確かめる

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
# ## 4つの弁の居場所を図で確かめる
#
# 今日はじめて、4つの弁が全部そろいます。弁1（最大ターン数）と弁2（トークン予算）は `loop_top`、ループ本体の先頭。
# 弁3（無進捗検知）は `before_tools`、呼び出しが分かってまだ1つも走っていないところ。弁4（承認弁）は `before_each_tool`、1つのツールが走る直前です。

# %%
from harness_lab.ui import Stepper, diagram

diagram()

# %% [markdown]
# ## まず、ターミナルで走らせる
#
# 無害なおもちゃのツールを2つ（`get_time` と `read_file`）配線したエージェントに、一文だけ渡します。ターミナルなら
# `harness-lab run "README.md の1行目を読んで、それから今何時か教えて"` です。ここでは同じコマンドを `subprocess` で、
# 一時フォルダーに作ったデモ用プロジェクト（`README.md` が1つだけ）の中で走らせます。

# %%
import subprocess
import sys
import tempfile
from pathlib import Path

PROMPT = "README.md の1行目を読んで、それから今何時か教えて"
DEMO = Path(tempfile.mkdtemp(prefix="lesson6_demo_"))  # 実行するたびに新しい一時フォルダー
(DEMO / "README.md").write_text("# エージェントハーネスの基礎\n\nループと4つの制御弁を、自分の手で書いて確かめる教材です。\n",
                                encoding="utf-8")

# harness-lab run "..." と同じ。--live を付けなければ、キーがあってもエミュレーターで走る
done = subprocess.run([sys.executable, "-m", "harness_lab.cli", "run", PROMPT],
                      cwd=DEMO, capture_output=True, text=True, timeout=60)
print(done.stderr + done.stdout)

# %% [markdown]
# ツールを何回、どの順に呼び、いつ切り上げるかは、ループの中でモデルが決めました。ハーネスは名指しされたツールを実行し、結果を返しただけです。
# 経路をコードで固定する **ワークフロー** と、モデルが経路を選ぶ **エージェント** の違いです。`[turn 3]` は3回目のモデルへのリクエストで、ツール呼び出しは2ターンでした。
#
# ## 部品を集める
#
# 確認を通った関数は `my_harness.py` に入っていて、`lessons.use` がそこから読み込みます（まだなければ参考実装です）。

# %%
from datetime import datetime

MODEL = hl.MODEL
next_step = lessons.use("next_step")          # レッスン3: 応答のあと、ループが次にすること
signature_of = lessons.use("signature_of")    # レッスン4: このターンの呼び出しを1本の署名に
run_tool_uses = lessons.use("run_tool_uses")  # レッスン5: 高インパクトなツールは実行の前に尋ねる
MAX_TURNS = 8                                 # 弁1: 最大ターン数（レッスン3）
TOKEN_BUDGET = 40_000                         # 弁2: 累計トークン予算（レッスン4）


def get_time():
    return datetime.now().astimezone().isoformat(timespec="seconds")


GET_TIME = {"name": "get_time", "description": "現在時刻を ISO 8601 の文字列で返す",
            "input_schema": {"type": "object", "properties": {}}}
TOOLS = [GET_TIME,
         {"name": "read_file", "description": "プロジェクトディレクトリ内のテキストファイルの先頭 2000 文字を読む",
          "input_schema": {"type": "object", "required": ["path"],
                           "properties": {"path": {"type": "string", "description": "プロジェクトルートからの相対パス"}}}}]
print(get_time())

# %% [markdown]
# ## `read_file` をルートに閉じ込める
#
# レッスン本文の境界チェックは、パスをルートと連結して正規化し、その **文字列** が「ルート + 区切り文字」で始まるかを見ます（`abs.startsWith(ROOT + sep)`）。
# Python に移して、一時フォルダーで試します。`project/` の外に `secret.txt` を置き、`project/link.txt` をそこへのシンボリックリンクにします。

# %%
import os


def read_file_startswith(path, root="."):
    # レッスン本文のチェック: 正規化した文字列が「ルート + 区切り文字」で始まるか
    base = os.path.abspath(root)
    target = os.path.normpath(os.path.join(base, path))  # 文字列の上で .. を畳むだけ。リンクの先は見ない
    if not target.startswith(base + os.sep):
        raise PermissionError(f"プロジェクトディレクトリ外のパスの読み取りを拒否しました: {path}")
    with open(target, encoding="utf-8") as f:
        return f.read(2000)

# %%
LAB = Path(tempfile.mkdtemp(prefix="lesson6_link_"))
(LAB / "project").mkdir()
(LAB / "project" / "README.md").write_text("# 小さなプロジェクト\n", encoding="utf-8")
(LAB / "secret.txt").write_text("プロジェクトの外の秘密: token=dummy-0000\n", encoding="utf-8")
try:
    (LAB / "project" / "link.txt").symlink_to(LAB / "secret.txt")  # 中にあるふりをした、外へのリンク
except OSError as err:  # Windows では、権限がないとリンクを作れません
    print("この環境ではシンボリックリンクを作れませんでした:", type(err).__name__)


def try_read(read):
    for path in ["README.md", "../secret.txt", "link.txt"]:
        try:
            print(f"{path:14} → 読めた: {read(path, root=LAB / 'project').strip()}")
        except OSError as err:
            print(f"{path:14} → 拒否: {err}")


try_read(read_file_startswith)

# %% [markdown]
# `../secret.txt` は拒否したのに、`link.txt` からは秘密がそのまま読めました。`.../project/link.txt` という文字列は確かにルートで始まり、
# `open()` がリンクをたどって外を読むからです。リンクを置いたのがツール出力に誘導されたモデルでも、うっかりした人でも同じです。
#
# **自分で書く**: 順番を逆にします。先にリンクを最後までたどって本当の行き先を求め、それからルートの内側かを比べます。
# ルート自身もリンクかもしれません（macOS の `/tmp` がそうです）。比べるのは文字列ではなくパスの部品です。
# 文字列の前方一致では、隣の `project-secrets/` も `project` で始まります。

# %% tags=["todo", "piece:read_file"]
def read_file(path, root="."):
    # root の内側にあるファイルの先頭 2000 文字を返し、外に出るパスは PermissionError で拒否します
    # 手順が知りたくなったら、別のセルで lessons.hint("read_file") を実行します
    raise NotImplementedError  # ← この行を消して、ここに書く


# %% tags=["check"]
from harness_lab import lessons
read_file = lessons.check("read_file", read_file)

# %% [markdown]
# 同じ3つのパスで試し、モデルが呼ぶ `read_file` をデモ用プロジェクトに閉じ込めます。OS のエラー文には絶対パスが入るので、
# モデルには渡されたパスと理由だけを返します（マシンの配置をモデルに見せません）。

# %%
try_read(read_file)


def read_in_demo(path):
    try:
        return read_file(path, root=DEMO)
    except OSError as err:
        raise OSError(f"{path} を読めません（{type(err).__name__}）") from None  # OS の文言は英語なので、例外の名前で


impls = {"get_time": get_time, "read_file": read_in_demo}

# %% [markdown]
# ### パッケージはもう一歩先まで閉じる
#
# resolve してから比べる版にも隙間があります。確かめてから `open()` するまでに途中のディレクトリをリンクに差し替えられると、
# `open()` は外に出ます（TOCTOU: 確かめた時と使う時のずれ）。パッケージの `read_file`（`harness_lab/tools/confine.py` の `Place.find`）は、
# ルートを一度開き、パスを **1部品ずつ**、直前に開いたディレクトリの中でリンクをたどらずに開きます。要所の行を抜き出します。

# %%
import inspect

from harness_lab.tools import run_tool
from harness_lab.tools.confine import Place

WALK = {  # Place.find の行（抜粋）: その行がしていること
    "base = os.open(self.base": "ルートを一度だけ開き、記述子（番号）で持つ",
    "while todo:": "パスの部品が残っている間",
    "name = todo.pop()": "部品を1つ取り出す",
    "here = held[-1] if held else base": "いま居るディレクトリ（記述子）",
    "fd = self._enter(": "その中の部品を O_NOFOLLOW で開く。リンクなら開かない",
    "held.append(fd)": "開けたディレクトリが、次の「いま居る所」",
    "st = _lstat(name, here)": "最後の部品は、リンクをたどらずに種類を見る",
    "yield Found(here, name, st)": "普通のファイル: 確かめたディレクトリの中のこの名前を開く",
    "target = os.readlink(name, dir_fd=here)": "リンク: 行き先の文字列を読むだけ",
    "todo.extend(reversed(_components(target)))": "行き先も同じ歩き方で。ルートより上には出られない",
}
source = inspect.getsource(Place.find).splitlines()
for needle, note in WALK.items():
    print(f"# {note}\n{next(line for line in source if needle in line)[8:]}")  # 説明はコードの行の上に1行で: 狭い画面でも右端に取り残されない
print(run_tool(hl.make_read_file(LAB / "project"), {"path": "link.txt"}))

# %% [markdown]
# ## ハーネスを書く: 4つの弁を付けた `run_agent`
#
# レッスン2の `run_agent` を書き直します。レッスン本文の `runAgent` から変えるのは4つです。
#
# - 回るかどうかは `next_step(response)` で決めます。本文のループは `tool_use` だけを見るので、`pause_turn` の途中の応答で終わってしまいます
# - 1ターン終えるたびに `yield lessons.turn(turns, response, results)` で一時停止します（ノートブック04のジェネレーター）
# - 最後は文字列ではなく、終わり方の **値**（`lessons.finished(...)` か `lessons.stopped(...)`）を `return` します
# - 弁2の `tokens_used` には、本文の `input_tokens + output_tokens` に、プロンプトキャッシュのキャッシュ書き込み（`cache_creation_input_tokens`）と
#   キャッシュ読み込み（`cache_read_input_tokens`）も足します。ノートブック03の `hl.TokenBudget` と同じく、API が数えたトークンはすべて数えます（`None` は 0 として）
#
# 確認のセルは、同じ台本のモデルでパッケージの `Run` と並べ、止まり方と、リクエストの回数・ツール呼び出しのターン数を比べます。
# 上限は `MAX_TURNS = 3`・`TOKEN_BUDGET = 3_000` に書き換えて試します（引数 `max_turns`・`token_budget` で受け取るなら、そこにも渡します）。
# 弁2の数え方は、プロンプトキャッシュが効いているモデルでも確かめます。
# 弁4は、承認がないときと「いいえ」のときに、高インパクトなツールが走らないかを見ます。

# %% tags=["todo", "piece:run_agent"]
def run_agent(client, user_input, tools, tool_impls, approve=None):
    # レッスン2のループに4つの弁を付け、1ターンごとに yield するジェネレーター。手順は lessons.hint("run_agent", lesson=6)
    #   弁1 MAX_TURNS・弁2 TOKEN_BUDGET は本体の先頭 ／ 弁3 signature_of ／ 弁4 run_tool_uses（approve がなければ断る）
    #   弁が止めたら return lessons.stopped("max_turns" | "token_budget" | "no_progress", 停止メッセージ, turns, tokens_used)
    raise NotImplementedError  # ← この行を消して、ここに書く


# %% tags=["check"]
from harness_lab import lessons
run_agent = lessons.check("run_agent", run_agent, lesson=6)

# %% [markdown]
# ## 自分のハーネスを Stepper で進める
#
# `lessons.HandWritten` で包むと、Stepper があなたのジェネレーターを1ターンずつ進めます。下のセルの `step()` の代わりに、パネルの
# 「次のターン」「最後まで」を押しても同じです（手書きのループには `RunState` がないので、パネルは会話のタブだけです）。
# 承認関数は、ノートブックでは人に尋ねる代わりにいつも断るものにしておきます。

# %%
def approve(name, tool_input):
    print(f"[承認] {name} は高インパクトなアクションなので、実行せずに断ります")
    return False


mine = Stepper(lessons.HandWritten(run_agent, client, TOOLS, impls, approve), PROMPT)
mine

# %%
mine.step()     # 1ターン目: read_file
mine.run_all()  # 最後まで（get_time のターンは、パネルの会話に積まれます）

# %% [markdown]
# ## パッケージの `hl.Run` で同じ仕事をする
#
# 同じ2つのツールを `hl.tool` で包み、4つの弁を付けた `hl.Run` を走らせます。ゲージには、ターン数 / 上限、トークン / 予算、直前の署名が出ます。
#
# `hl.Run.loop`（ノートブック01で読みました）の本体と、あなたの `run_agent` の対応です。
#
# | `Run.loop` の行 | あなたの `run_agent` では |
# |---|---|
# | `s.receive(self.query())` | `client.messages.create(...)` と `tokens_used += ...` |
# | `if not self.wants_tools(response)` | `while step in ("run_tools", "resend")`（`next_step`） |
# | `self.check("loop_top")` | 弁1・弁2 の `if`（`turns += 1` の手前） |
# | `self.check("before_tools")` | 弁3 の署名の比較 |
# | `yield from self.run_tool_uses(response)` | `run_tool_uses(...)`（弁4。承認待ちで止まれるよう `yield from`） |
# | `s.commit(results)` | 2つの `messages.append` と `turns += 1` |
# | `yield s.turn(...)` | `yield lessons.turn(...)` |

# %%
toy_tools = [hl.tool(impls[d["name"]], **d) for d in TOOLS]  # 定義も中身も、あなたの2つのツールと同じ
valves = [hl.MaxTurns(MAX_TURNS), hl.TokenBudget(TOKEN_BUDGET), hl.NoProgress(), hl.Approval()]
packaged = Stepper(hl.Run(client, toy_tools, valves), PROMPT)
packaged.run_all()
packaged

# %% [markdown]
# ## 裸のループ・パッケージ・自分のハーネスを並べる
#
# 同じツールで、行儀の悪いモデル（エミュレーターのシナリオ）を3つのループに渡します。裸のループは、弁を1つも付けない `hl.Run` です。
# 自分では止まらないので、表を作る側が30ターンで次を引くのをやめます（ジェネレーターは、引かれなければ進みません）。
# 弁2が見えるように、表では予算の天井を 20,000 に下げます（`run_agent` が読むモジュールの変数を、表の間だけ書き換えます）。
#
# **まず予想します。** 呼び出しを A-B-A-B と交互に繰り返すモデル（`abab`）を、あなたの `run_agent` はどの弁で、何回目のリクエストで止めるでしょうか。

# %%
MY_GUESS = {"止めた弁": None, "モデルへのリクエスト": None, "ツール呼び出しのターン": None}  # ← 予想を書く（弁は "max_turns" などの名前で）

from harness_lab.emulator import emulator_of


def outcome(loop, scenario, cap=30):
    """loop(client, prompt) が返すジェネレーターを scenario のモデルで回し、(止まり方, リクエスト, ターン, トークン) を返す"""
    model = hl.connect(scenario, live=False)
    gen, turns, tokens, end = loop(model, PROMPT), 0, 0, None
    while end is None and turns < cap:
        try:
            event = next(gen)
        except StopIteration as stop:
            end = stop.value
        else:
            if isinstance(event, hl.Turn):
                turns, tokens = turns + 1, tokens + event.usage.total
    how = f"{cap}ターンで打ち切り" if end is None else getattr(end, "cause", None) or end.stop_reason
    return how, len(emulator_of(model).requests), turns, end.usage.total if end else tokens

# %%
from IPython.display import display

run_agent.__globals__.update(MAX_TURNS=8, TOKEN_BUDGET=20_000)  # 表の間だけ、予算の天井を下げる
LOOPS = {
    "裸のループ（弁なし）": lambda c, p: hl.Run(c, toy_tools, valves=[]).start(p),
    "harness_lab の Run": lambda c, p: hl.Run(c, toy_tools, [hl.MaxTurns(8), hl.TokenBudget(20_000), hl.NoProgress(), hl.Approval()]).start(p),
    "あなたの run_agent": lambda c, p: run_agent(c, p, TOOLS, impls, approve),
}
rows, ends = ["| シナリオ | " + " | ".join(LOOPS) + " |", "|---" * (len(LOOPS) + 1) + "|"], {}
for scenario in ["lesson6", "never_ending", "spinning", "abab", "budget_burning", "long_task"]:
    ends[scenario] = [outcome(loop, scenario) for loop in LOOPS.values()]
    rows.append(f"| `{scenario}` | " + " | ".join(f"{h}・{r}回・{n}ターン・{k:,}" for h, r, n, k in ends[scenario]) + " |")
run_agent.__globals__.update(MAX_TURNS=8, TOKEN_BUDGET=40_000)  # レッスンの値に戻す
how, requests, turns, _ = ends["abab"][-1]
guessed = lessons.compare(MY_GUESS, {"止めた弁": how, "モデルへのリクエスト": requests, "ツール呼び出しのターン": turns})
if lessons.guessed(MY_GUESS):  # 表に答えがあるので、予想を書くまで見せない
    display({"text/markdown": "\n".join(rows), "text/plain": "\n".join(rows)}, raw=True)

# %% [markdown]
# 各マスは「止まり方・モデルへのリクエストの回数・ツール呼び出しのターン数・トークン」です。
#
# - **裸のループ** は、モデルが切り上げない限り止まりません。`budget_burning` は30ターンで30万トークンを超えました。
# - **ハーネス** では、どの暴走もそれぞれの弁が受け止めます。`abab` は署名が毎ターン変わって弁3をすり抜けますが、弁1が拾います。
# - パッケージとあなたの列は、同じ弁が同じ回数で止めています（トークンの小さな差は、ツールのエラー文の違いです）。
# - `long_task` は **正当に** 12ターンかかる仕事なのに、弁1で打ち切られました。
#
# ## 釣り合いを取る: すべてのエージェントに4つの弁が要るわけではない
#
# 複雑さを足すのは、結果がはっきり良くなるときだけです。統制された環境で3〜5ターン回る小さなツールなら、弁1だけで十分なこともあります。
#
# | こんなエージェントなら | 付けたい弁 |
# |---|---|
# | 数ターンで終わる、無害なツールだけ | 弁1（最大ターン数）を保険として |
# | 1ターンの文脈が大きい・長く走る | ＋ 弁2（トークン予算） |
# | 同じ呼び出しを繰り返しがち | ＋ 弁3（無進捗検知。正当なポーリングがあるなら調整する） |
# | 書き込み・削除・送信に手が届く | ＋ 弁4（承認。ツールごとの段階は練習レベル1で） |
#
# 上限の値も仕事の大きさに合わせます。`long_task` に `MAX_TURNS = 8` は小さすぎます。

# %% [markdown]
# ## 仕上げ: 自分のツールを、ポリシー付きで配線する
#
# 最後に、自分のツールを1つハーネスに配線します。チャットの Webhook に本文を送る `http_post(url, body)` です。
# 送ってよい宛先は `ALLOWED_HOSTS` のホストだけ（これがポリシー）。送信は取り消せないので、実行の前に人に尋ねます（弁4）。
# `http_post` は `HIGH_IMPACT` にある名前なので、あなたの `run_agent` の弁4がそのまま効きます。
#
# `my_agent(client, user_input, send, approve=None)` を書きます。`get_time` と自分の `http_post` を配線した `run_agent` のジェネレーターを返す関数です。
# `send(url, body)` はネットワークの代わりで、送った内容を記録するだけです。確認のセルは、このノートブックに出てこないモデルでも試します。
# どこが足りないかは、○ / × の行が教えてくれます。手順は `lessons.hint("my_agent")` で開けます。

# %% tags=["todo", "piece:my_agent"]
ALLOWED_HOSTS = {"hooks.example.com"}  # ポリシー: 送ってよい宛先
HTTP_POST = {"name": "http_post", "description": "許可された宛先の URL に、本文を POST する",
             "input_schema": {"type": "object", "required": ["url", "body"],
                              "properties": {"url": {"type": "string"}, "body": {"type": "string"}}}}


def my_agent(client, user_input, send, approve=None):
    # http_post(url, body) をこの中に書き、宛先が ALLOWED_HOSTS にあるときだけ send(url, body) して "送信しました" を返す
    # get_time と http_post を配線した run_agent(...) のジェネレーターを返す
    raise NotImplementedError  # ← この行を消して、ここに書く


# %% tags=["check"]
from harness_lab import lessons
my_agent = lessons.check("my_agent", my_agent)

# %%
from harness_lab.emulator import call, say

OUTBOX = []  # send が送ったもの（本当には送りません）


def yes(name, tool_input):
    print(f"[承認] {name}（{tool_input['url']}）→ はい")
    return True


poster = hl.connect([call("get_time"), call("http_post", url="https://hooks.example.com/daily", body="日報: 問い合わせ 42 件"),
                     say("日報を送りました。")], live=False)
events, end = lessons.drive(my_agent(poster, "日報を送って", lambda url, body: OUTBOX.append(url), yes))
print(end.text, "／ 送ったもの:", OUTBOX)

# %% [markdown]
# ## 本物の Claude に切り替える
#
# ターミナルで `export ANTHROPIC_API_KEY=...` としてから Jupyter を起動し直すと、`hl.connect("lesson6")` は本物の Claude を返し、
# Stepper と `hl.Run` は本物のモデルで走ります（出力は保存されたものと違います）。ターミナルでは `harness-lab run --live "..."` です。
# 暴走シナリオは本物のモデルにわざとやらせられないので、表はいつもエミュレーターです。

# %%
print(hl.mode_line(hl.connect("lesson6")))

# %% [markdown]
# ## やってみよう
#
# 1. あなたの `run_agent` で、弁1のチェックを `turns += 1` の **後ろ** に移し、確認のセルを実行し直します。ヒントはどんな数を示しますか。
# 2. 表のセルの 20,000 を2か所とも 40,000 に戻して作り直します。`budget_burning` を止める弁はどれに変わりますか。
#
# ## まとめ
#
# - ハーネスの中核は、いまもレッスン2のループです。弁1・弁2は本体の先頭（`loop_top`）、弁3はツールの前（`before_tools`）、弁4は各ツールの直前（`before_each_tool`）。
# - ループをジェネレーターにすると、1ターンごとに止めて見られ、止まり方を値で返せます。Stepper はそれを進めているだけです。
# - ファイルの境界は、リンクをたどった本当の行き先を、パスの部品で比べて判定します。宛先の URL も、部品に分けてホスト名で比べます。
# - 弁のための弁は積みません。仕事の大きさとリスクに釣り合った分だけ付けます。
#
# 確認を通った関数（`run_tools` から `my_agent` まで）は `my_harness.py` に入っています。新しいターミナルで `import my_harness` すれば、ノートブックなしでも走ります。

# %%
book = lessons.workbook()
print(book.path.name, "に入っている関数:", ", ".join(book.pieces()) or "（まだありません。確認のセルを通ると書き足されます）")

# %% [markdown]
# ## 確認問題
#
# **問1.** 上限 N の弁1を `turns += 1` の後ろに置くと、ツール呼び出しのターンとリクエストの回数はどうずれますか。
#
# <details><summary>答え</summary>
#
# 先頭（`turns += 1` の手前）ならツール N ターン・リクエスト N + 1 回です。`turns += 1` の後ろに置くと、N ターン目に入ったところで止まり、ツール N − 1 ターン・リクエスト N 回になります。
# </details>
#
# **問2.** ターン数の上限があるのに、なぜトークン予算が別に要るのですか。
#
# <details><summary>答え</summary>
#
# ターン数は支出を押さえないからです。履歴は毎回丸ごと送り直されるので累計は2乗で増え、1ターンの文脈が大きければ少ないターン数でも予算は燃えます。表の `budget_burning` は、8ターンに届く前に予算で止まりました。
# </details>
#
# **問3.** resolve してから比べる `read_file` に、まだ残っている隙間は何ですか。パッケージはどう閉じていますか。
#
# <details><summary>答え</summary>
#
# 確かめてから名前で開き直すまでの間に、途中のディレクトリをリンクに差し替えられると、`open()` がそれをたどります（TOCTOU）。パッケージはルートの記述子から1部品ずつ、リンクをたどらずに開くので、確かめたものがそのまま開くものになります。
# </details>
