# %% [markdown]
# # レッスン6: 制御付きエージェントハーネスを手書きする
#
# **エージェントハーネスの基礎: ループと制御** · ノートブック 5 / 5（最終回）
#
# 前: [レッスン5: 介入と操舵](04_human_in_the_loop.ipynb) ｜ 次: 演習 [レベル1: ツールごとの段階的な制御弁](../exercises/level1_tiered_policy.ipynb)・[レベル2: このループに欠けているゲート](../exercises/level2_missing_gate.ipynb)
#
# [レッスン2: コアループ](01_bare_loop.ipynb) のループ、[レッスン3: 停止条件](02_stop_conditions.ipynb) の `MAX_TURNS`、[レッスン4: 暴走とフォールバック](03_runaway_fallbacks.ipynb) の `signature_of`、
# レッスン5 の `run_tool_uses`。これまで書いた部品を、今日は1本のハーネスに溶接します。新しく出てくるのは、部品どうしの位置関係だけです。
#
# **このノートブックを終えると、次のことができます:**
#
# - 裸のループに4つの制御弁を付けたジェネレーター `harness` を書き、各弁がループのどのステップにいるかを名指しできる
# - `read_file` をルートに閉じ込め、`startsWith` のチェックがシンボリックリンクにだまされる理由と、パッケージがさらに防いでいるものを説明できる
# - 自分のハーネスを Stepper で1ターンずつ進め、パッケージの `hl.Run` と並べられる
# - 裸のループ・パッケージ・自分のハーネスを暴走シナリオで比べ、どの弁が要るかを釣り合いで決められる

# %%
# Colab など、harness_lab が入っていない環境では、最初にインストールします（手元の環境では何もしません）
import importlib.util
if importlib.util.find_spec("harness_lab") is None:
    %pip install -q "harness_lab @ git+https://github.com/harness-lab/harness_lab.git"

# %%
import harness_lab as hl
from harness_lab import lessons

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
# 一時フォルダに作ったデモ用プロジェクト（`README.md` が1つだけ）の中で走らせます。

# %%
import subprocess
import sys
import tempfile
from pathlib import Path

PROMPT = "README.md の1行目を読んで、それから今何時か教えて"
DEMO = Path(tempfile.mkdtemp(prefix="lesson6_demo_"))  # 実行するたびに新しい一時フォルダ
(DEMO / "README.md").write_text("# エージェントハーネスの基礎\n\nループと4つの制御弁を、自分の手で書いて確かめる教材です。\n",
                                encoding="utf-8")

# harness-lab run "..." と同じ。--live を付けなければ、キーがあってもエミュレーターで走る
done = subprocess.run([sys.executable, "-m", "harness_lab.cli", "run", PROMPT],
                      cwd=DEMO, capture_output=True, text=True, timeout=60)
print(done.stderr + done.stdout)

# %% [markdown]
# ツールを何回、どの順に呼び、いつ切り上げるかは、ループの中でモデルが決めました。ハーネスは名指しされたツールを実行し、結果を返しただけです。
# 経路をコードで固定する **ワークフロー** と、モデルが経路を選ぶ **エージェント** の違いです。`[turn 3]` は3回目のモデルへのリクエストで、ツール呼び出しは2ターンでした。
# 高インパクトなツールを配線すると（`--high-impact`）実行の前に尋ね、答えはレッスン5の `harness_lab.cli.read_answer` が読みます（「いいえ」や全角の「ｎ」は許可になりません）。
#
# ## 部品を集める
#
# 確認を通った関数は `my_harness.py` に入っていて、`lessons.use` がそこから読み込みます（まだなければ参考実装です）。

# %%
from datetime import datetime

MODEL = hl.MODEL
run_tool_uses = lessons.use("run_tool_uses")  # レッスン5: 高インパクトなツールは実行の前に尋ねる
signature_of = lessons.use("signature_of")    # レッスン4: このターンの呼び出しを1本の署名に
MAX_TURNS = 8                                 # 弁1: 最大ターン数（レッスン3）
TOKEN_BUDGET = 40_000                         # 弁2: 累計トークン予算（レッスン4）


def get_time():
    return datetime.now().astimezone().isoformat(timespec="seconds")


TOOLS = [
    {"name": "get_time", "description": "現在時刻を ISO 8601 の文字列で返す",
     "input_schema": {"type": "object", "properties": {}}},
    {"name": "read_file", "description": "プロジェクトディレクトリ内のテキストファイルの先頭 2000 文字を読む",
     "input_schema": {"type": "object", "required": ["path"],
                      "properties": {"path": {"type": "string", "description": "プロジェクトルートからの相対パス"}}}},
]
print(get_time())

# %% [markdown]
# ## `read_file` をルートに閉じ込める
#
# レッスン本文の境界チェックは、パスをルートと連結して正規化し、その **文字列** が「ルート + 区切り文字」で始まるかを見ます（`abs.startsWith(ROOT + sep)`）。
# Python に移して、一時フォルダで試します。`project/` の外に `secret.txt` を置き、`project/link.txt` をそこへのシンボリックリンクにします。

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
    print("この環境ではシンボリックリンクを作れませんでした:", err.strerror)


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
# ルート自身もリンクかもしれないので（macOS の `/tmp` がそうです）、両方を求めてから比べます。

# %% tags=["todo", "piece:read_file"]
def read_file(path, root="."):
    # root の内側にあるファイルの先頭 2000 文字を返し、外に出るパスは PermissionError で拒否します
    #   1. ルートと行き先の両方を Path(...).resolve() で、リンクを最後までたどった本当の場所にする
    #   2. 行き先がルートの内側かを、文字列ではなくパスの部品で比べる（target.is_relative_to(base)）
    #   3. 内側なら開いて、先頭 2000 文字を返す
    raise NotImplementedError  # ← この行を消して、ここに書く


# %% tags=["check"]
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
        raise OSError(f"{path} を読めません: {err.strerror or err}") from None


impls = {"get_time": get_time, "read_file": read_in_demo}

# %% [markdown]
# ### パッケージはもう一歩先まで閉じる
#
# resolve してから比べる版にも、まだ隙間があります。確かめてから `open()` するまでの間に、途中のディレクトリをリンクに差し替えられると、
# `open()` は名前をもう一度たどって外に出ます（TOCTOU: 確かめた時と使う時のずれ）。
# パッケージの `read_file`（`harness_lab/tools/confine.py` の `Place.find`）は、ルートのディレクトリを一度開き、そこからパスを **1部品ずつ**、
# 直前に開いたディレクトリの中で、リンクをたどらずに開いていきます。確かめたものがそのまま開くものなので、差し替えてもたどるリンクがありません。
# Linux の `openat2(RESOLVE_BENEATH)` が OS の中でしていることを、手で書いたものです。要所の行を抜き出します。

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
    print(f"{next(line for line in source if needle in line)[8:]:<56} # {note}")
print(run_tool(hl.make_read_file(LAB / "project"), {"path": "link.txt"}))

# %% [markdown]
# ## ハーネスを書く: 4つの弁を付けたジェネレーター
#
# レッスン本文の `runAgent` に、2つだけ変更を加えます。1ターン終えるたびに `yield lessons.turn(turns, response, results)` して一時停止し、
# 最後は文字列ではなく、終わり方の **値** を `return` します。こうしておくと、Stepper があなたのループを1ターンずつ進められます。
#
# - 弁1・弁2: `while` 本体の先頭、`turns += 1` の手前。「この一周に入ってよいか」を問う（上限 N なら、ツール N ターン・リクエスト N + 1 回）
# - 弁3: このターンの署名を、前のターンの署名と比べる
# - 弁4: `run_tool_uses` の中、ツールを実行する直前（レッスン5で書いたもの）。`approve` がなければ断る側に倒します
#
# 確認のセルは、同じ台本のモデルでパッケージの `Run` と並べて走らせ、止まり方とリクエスト・ターンの数が一致するかを見ます。

# %% tags=["todo", "piece:harness"]
def harness(client, user_input, tools, tool_impls, approve=None):
    # レッスン2のループに4つの弁を付け、1ターン終えるたびに yield lessons.turn(turns, response, results) します
    #   弁1 turns >= MAX_TURNS・弁2 tokens_used >= TOKEN_BUDGET（応答ごとに input_tokens + output_tokens を足す）は turns += 1 の手前
    #   弁3 signature_of(response.content) が前のターンと同じなら止める。弁4 run_tool_uses(..., approve or 断る関数)
    #   弁が止めたら return lessons.stopped("max_turns" | "token_budget" | "no_progress", 停止メッセージ, turns, tokens_used)
    #   モデルが切り上げたら return lessons.finished(response, turns, tokens_used)
    raise NotImplementedError  # ← この行を消して、ここに書く


# %% tags=["check"]
harness = lessons.check("harness", harness)

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


mine = Stepper(lessons.HandWritten(harness, client, TOOLS, impls, approve), PROMPT)
mine

# %%
mine.step()  # 1ターン目: read_file

# %%
mine.run_all()  # 最後まで（get_time のターンは、パネルの会話に積まれます）

# %% [markdown]
# ## パッケージの `hl.Run` で同じ仕事をする
#
# 同じ2つのツールを `hl.tool` で包み、4つの弁を付けた `hl.Run` を走らせます。ゲージには、ターン数 / 上限、トークン / 予算、直前の署名が出ます。

# %%
toy_tools = [hl.tool(impls[d["name"]], **d) for d in TOOLS]  # 定義も中身も、あなたの2つのツールと同じ
valves = [hl.MaxTurns(MAX_TURNS), hl.TokenBudget(TOKEN_BUDGET), hl.NoProgress(), hl.Approval()]
packaged = Stepper(hl.Run(client, toy_tools, valves), PROMPT)
packaged.run_all()
packaged

# %% [markdown]
# `hl.Run.loop` の本体と、あなたの `harness` の対応です。
#
# | `Run.loop` の行 | あなたの `harness` では |
# |---|---|
# | `s.receive(self.query())` | `client.messages.create(...)` と `tokens_used += ...` |
# | `if not self.wants_tools(response)` | `while response.stop_reason == "tool_use"` の判定 |
# | `self.check("loop_top")` | 弁1・弁2 の `if`（`turns += 1` の手前） |
# | `self.check("before_tools")` | 弁3 の署名の比較 |
# | `yield from self.run_tool_uses(response)` | `run_tool_uses(...)`（弁4。承認待ちで止まれるよう `yield from`） |
# | `s.commit(results)` | 2つの `messages.append` と `turns += 1` |
# | `yield s.turn(...)` | `yield lessons.turn(...)` |
#
# `check("before_send")` は、送る前にプロンプトの大きさを見積もる弁2の置き方です（`TokenBudget(preflight=True)`、レッスン4）。

# %%
print(inspect.getsource(hl.Run.loop))

# %% [markdown]
# ## 裸のループ・パッケージ・自分のハーネスを並べる
#
# 同じツールで、行儀の悪いモデル（エミュレーターのシナリオ）を3つのループに渡します。裸のループは、弁を1つも付けない `hl.Run` です。
# 自分では止まらないので、表を作る側が30ターンで次を引くのをやめます（ジェネレーターは、引かれなければ進みません）。
# 弁2が見えるように、表では予算の天井を 20,000 に下げます。`harness` は `MAX_TURNS` と `TOKEN_BUDGET` を、自分が定義されたモジュールの変数から読みます
# （確認のセルも、こうして上限を変えて試しています）。
#
# **まず予想します。** 呼び出しを A-B-A-B と交互に繰り返すモデル（`abab`）を、あなたの `harness` はどの弁で、何回目のリクエストで止めるでしょうか。

# %%
MY_GUESS = {"止めた弁": None, "モデルへのリクエスト": None, "ツール呼び出しのターン": None}  # ← 予想を書く（弁は "max_turns" などの名前で）

# %%
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

harness.__globals__.update(MAX_TURNS=8, TOKEN_BUDGET=20_000)  # 表の間だけ、予算の天井を下げる
LOOPS = {
    "裸のループ（弁なし）": lambda c, p: hl.Run(c, toy_tools, valves=[]).start(p),
    "harness_lab の Run": lambda c, p: hl.Run(c, toy_tools, [hl.MaxTurns(8), hl.TokenBudget(20_000), hl.NoProgress(), hl.Approval()]).start(p),
    "あなたの harness": lambda c, p: harness(c, p, TOOLS, impls, approve),
}
rows, ends = ["| シナリオ | " + " | ".join(LOOPS) + " |", "|---" * (len(LOOPS) + 1) + "|"], {}
for scenario in ["lesson6", "never_ending", "spinning", "abab", "budget_burning", "long_task"]:
    ends[scenario] = [outcome(loop, scenario) for loop in LOOPS.values()]
    rows.append(f"| `{scenario}` | " + " | ".join(f"{h}・{r}回・{n}ターン・{k:,}" for h, r, n, k in ends[scenario]) + " |")
harness.__globals__.update(MAX_TURNS=8, TOKEN_BUDGET=40_000)  # レッスンの値に戻す
display({"text/markdown": "\n".join(rows), "text/plain": "\n".join(rows)}, raw=True)
how, requests, turns, _ = ends["abab"][-1]
guessed = lessons.compare(MY_GUESS, {"止めた弁": how, "モデルへのリクエスト": requests, "ツール呼び出しのターン": turns})

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
# | 書き込み・削除・送信に手が届く | ＋ 弁4（承認。ツールごとの段階は演習レベル1で） |
#
# 上限の値も仕事の大きさに合わせます。`long_task` に `MAX_TURNS = 8` は小さすぎます。

# %% [markdown]
# ## 本物の Claude に切り替える
#
# ターミナルで `export ANTHROPIC_API_KEY=...` としてから Jupyter を起動し直すと、`hl.connect("lesson6")` は本物の Claude を返し、
# あなたのハーネスの Stepper と `hl.Run` は本物のモデルで走ります（出力は保存されたものと違います）。ターミナルでは `harness-lab run --live "..."` です。
# 暴走シナリオは本物のモデルにわざとやらせられないので、表はいつも `live=False` のエミュレーターです。

# %%
print(hl.mode_line(hl.connect("lesson6")))

# %% [markdown]
# ## やってみよう
#
# 採点はありません。変えて、走らせて、結果を見てください。
#
# 1. あなたの `harness` で、弁1のチェックを `turns += 1` の **後ろ** に移し、確認のセルを実行し直します。ヒントはどんな数を示しますか。
# 2. 表のセルの 20,000 を2か所とも 40,000 に戻して作り直します。`budget_burning` を止める弁はどれに変わりますか。
# 3. `Stepper(lessons.HandWritten(harness, hl.connect("spinning", live=False), TOOLS, impls, approve), "notes.txt を確かめて")` を `run_all()` し、停止メッセージを見ます。
#
# ## まとめ
#
# - ハーネスの中核は、いまもレッスン2のループです。4つの弁はそれぞれ1か所を守ります: 弁1・弁2は本体の先頭（`loop_top`）、弁3はツールの前（`before_tools`）、弁4は各ツールの直前（`before_each_tool`）。
# - ループをジェネレーターにすると、1ターンごとに止めて見られ、止まり方を値で返せます。Stepper はそれを進めているだけです。
# - ファイルの境界は、リンクをたどった本当の行き先で判定します。確かめた時と開く時のずれまで閉じるには、1部品ずつリンクをたどらずに開きます。
# - 弁のための弁は積みません。仕事の大きさとリスクに釣り合った分だけ付けます。
#
# ### このコースで手元に残るもの
#
# 確認を通った関数（`run_tools` から `harness` まで）は、`my_harness.py` に入っています。実際に走って、編集できて、これからも制御を足していける、
# あなたのハーネスです。自分のツールに配線して、働かせてみてください。

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
# 先頭（`turns += 1` の手前）なら N ターン・リクエスト N + 1 回です。`turns += 1` の後ろに置くと、N ターン目に入ったところで止まり、N − 1 ターン・リクエスト N 回になります。
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
