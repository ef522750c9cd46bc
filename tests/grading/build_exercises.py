"""Write and execute the two lesson-6 exercise notebooks, starter and solution from one source.

    .venv/bin/python tests/grading/build_exercises.py

Each notebook is a list of cells; a TODO cell has a starter and a solved version. Cells carry the
tags the grading command reads (``python -m harness_lab.grading``, see
``harness_lab/grading/notebook.py``): ``setup`` on the cells the answers need, ``answer`` on the TODO
cells, ``grade`` on the grade cell. The notebook's metadata names its exercise.

The solution is executed with nbclient and must pass. The starter is executed too, without its
grade cell (every other cell must run cleanly), and ships with that cell and its try-it cells
(tagged ``try``) empty: a grade cell fails by itself, and what the unedited TODO code prints would
read as the learner's own result. The markdown above it shows what a pass looks
like, built from the graders' own catalog. ``test_notebooks.py`` checks the files match this source.
"""

from __future__ import annotations

import copy
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

import harness_lab.grading  # noqa: F401  # adds the graders' strings to the catalog
from harness_lab.text import CATALOG

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
GRADE_TAG = "grade"
TRY_TAG = "try"  # a cell that runs the learner's code: the starter ships it unrun
# A cell that prints the graders' own text (the choices): unrun too, so a starter stores nothing of
# the grader's that a learner opening the file could take for an answer to them.
OPTIONS_TAG = "options"


def md(text: str) -> tuple:
    return ("markdown", text.strip("\n"), None, ())


def code(text: str, solved: str | None = None, tags: tuple[str, ...] = ()) -> tuple:
    """A code cell; ``solved`` is the solution's version of a TODO cell (tagged ``answer``)."""
    if solved is not None:
        tags = ("answer", *tags)
    return ("code", text.strip("\n"), None if solved is None else solved.strip("\n"), tags)


def _ja(key: str, **values: object) -> str:
    return CATALOG[key][0].format(**values)


def criteria_list(level: str) -> str:
    """The criteria the grade cell checks, as a numbered list (Japanese).

    Not the grade cell's output: a block of passing lines above an unrun grade cell reads as the
    learner's own result (issue 12), so the notebook names what is checked and nothing more.
    """
    return "\n".join(f"{n}. {_ja(f'grade.{level}.c{n}.title')}" for n in (1, 2, 3))


GRADING_HOW = r"""
**採点のしくみ**: 最後の採点セルは、このノートブックのカーネルの中で採点し、基準を1つでも満たさなければセルがエラー
（1行の `GradeFailed`）で止まります。ターミナルからは `python3 dev.py grade` で採点できます（1冊だけなら
`.venv/bin/python -m harness_lab.grading exercises/{name}`）。こちらは、タグ `answer` の付いたセル（`TODO` のセル）と
タグ `setup` の付いた準備のセルだけを新しいプロセスで実行し、パッケージ自身の採点コードを呼びます。
採点セルの中身も、ファイルに保存された出力も見ません。自分で足したセルは実行されないので、定義は `TODO` のセルに書きましょう。
"""

# ---------------------------------------------------------------------------------------------
LEVEL1 = [
    md(
        r"""
# 練習 レベル1: ツールごとの段階的な制御弁（allow / ask / deny）

レッスン6「制御付きエージェントハーネスを手書きする」の練習です。
前: [`notebooks/05_full_harness.ipynb`](../notebooks/05_full_harness.ipynb) ／ 次: [`level2_missing_gate.ipynb`](level2_missing_gate.ipynb)

**このノートブックを終えると、次のことができます**

- ツール名ごとに allow / ask / deny の3段階を表すポリシーを設計し、表にないツールの落ち先（デフォルトの段階）を決められる
- そのポリシー弁を、ループのどのステップに置くべきかを、実際に動くコードで示せる
- deny に当たった呼び出しにも、ポリシーで禁止されていることがモデルに伝わる `tool_result` を返せる

**進め方**: `TODO` のあるセルを書き換え、上から順に実行します。最後の採点セルが
`◎ 3つの基準をすべて満たしました` を表示すれば合格です（○ は合格、× は不合格、△ は注意の印です）。
API キーは要りません（採点はエミュレーターの上で、決まった応答に対して行います）。
"""
        + GRADING_HOW.format(name="level1_tiered_policy.ipynb")
    ),
    md(r"""
## 課題

いまの承認弁の設定は2つだけです: 高インパクトなら尋ね、それ以外はすべて通す。
プロダクトの同僚が、もっと細かい要求を出しました — **ツール名ごとに3段階で制御したい**:

| 段階 | 意味 | このハーネスでのツール |
|---|---|---|
| `allow` | そのまま通す | `get_time`, `read_file` |
| `ask` | 実行前に人間の確認が必要 | `write_file`, `delete_file`, `http_post` |
| `deny` | つねに拒否し、そもそも呼び出せない | `send_email`（廃止された） |

表にないツールも、いつかモデルの前に現れます（来週だれかが足すかもしれません）。
それがどの段階に落ちるか — **デフォルトの段階** — も決めてください。

書くものは4つです:

1. `POLICY` — 3段階を表すデータ構造。形は次の3つのどれかで: ツール名 → 段階の辞書、段階 → ツール名の集合（リストやタプルでも可）の辞書、
   ツール名を受け取って段階を返す関数
2. `DEFAULT_TIER` — 表にないツールが落ちる段階（`"allow"` / `"ask"` / `"deny"` のどれか）
3. `run_tool_uses(content, tool_impls, approve)` — レッスンの承認弁つきの版を、ポリシー弁つきに書き換えたもの。
   `content` はモデルの応答の `response.content`、`tool_impls` はツール名 → 関数（入力をキーワード引数で受け取る: `tool_impls[block.name](**block.input)`）、
   `approve(name, input)` は人間に尋ねて `True`（許可）か `False`（拒否）を返す関数です。
   返り値は `tool_result` ブロック（辞書）のリストです。
4. `ANSWERS` — ポリシー弁がループのどのステップに属するか、既存の承認弁とどう関係するか、deny に当たったときモデルに何を返すか
   （選択肢から選びます）

### 完了基準（採点セルが1つずつ確かめます）

1. 3段階を表現できるポリシー構造を示し、デフォルトの段階（未記載のツールがどの段階に落ちるか）を述べている。
   段階はポリシーのデータから決まる（採点はあなたの `POLICY` をその場で書き換え — 表のツールの段階を入れ替え、表にないツールを足して —
   振る舞いがそれに従うかを確かめます。`run_tool_uses` は呼ばれるたびに `POLICY` を引きましょう）
2. ポリシー弁を `run_tool_uses` の中、`tool_use` ブロックごとに、ツールを実行する**前に**評価している —
   承認弁と同じ位置であり、`ask` の段階は既存の確認（`approve`）を再利用する。`ANSWERS` の `"step"` と `"approval"` もそれを述べている
3. `deny` に当たったときはツールを実行しないが、それでも `is_error: true` の `tool_result` を返し、
   そのツールがポリシー（規則）で禁止されていることをモデルに伝える（黙って落とさない。「使えません」「拒否しました」だけでは、
   人間が断ったのか失敗したのか区別がつきません）。すべての `tool_use` に、順番どおり、ちょうど1つの、API が受け取れる結果を返す。
   `ANSWERS` の `"deny"` もそれを述べている

採点はあなたのソースコードを読みません。記録係のツール（呼ばれたら記録するだけの偽物）と記録係の `approve` を
渡して `run_tool_uses` を実際に呼び、**何が実行され、だれに何を尋ね、何が返ったか**だけで判定します。
"""),
    md(r"""
## 準備

採点に使うのと同じツール定義（`TOOLS`）と、エミュレーターのクライアントを用意します（表にないツールも入っています。
名前は `[t["name"] for t in TOOLS]` で確かめられます）。準備のセルは何も表示しません。
`ANTHROPIC_API_KEY` があっても、このノートブックはエミュレーターだけを使います。
本物の Claude で試したいときは `client = anthropic.Anthropic()` に差し替えるだけで、ほかは変わりません。
"""),
    code(
        r"""
import json

from harness_lab.emulator import call, emulated_client, reply
from harness_lab.grading import check_level1, level1_options, try_limited
from harness_lab.grading.scenarios import TOOL_DEFS as TOOLS

MODEL = "claude-sonnet-5"
""",
        tags=("setup",),
    ),
    md(r"""
## あなたの番 1: ポリシーとデフォルトの段階

`POLICY` と `DEFAULT_TIER` を書いてください。デフォルトを `"allow"` にすると基準1は満たしますが、
「△ 注意」が付きます（採点は通ります）。新しいツールが確認なしで走ってよいか、考えてから決めましょう。
"""),
    code(
        r"""
# TODO: 3段階（allow / ask / deny）を表すポリシーを書く（上の表のとおり）
POLICY = {}

# TODO: 表にないツールが落ちる段階を "allow" / "ask" / "deny" から選ぶ
DEFAULT_TIER = None
""",
        r"""
# ツール名 → 段階。表にないツールは DEFAULT_TIER に落ちる
POLICY = {
    "get_time": "allow",
    "read_file": "allow",
    "write_file": "ask",
    "delete_file": "ask",
    "http_post": "ask",
    "send_email": "deny",  # 廃止済み: つねに拒否
}

# 知らないツールは、人間に尋ねてから（安全側に倒す）
DEFAULT_TIER = "ask"
""",
    ),
    md(r"""
## あなたの番 2: `run_tool_uses` にポリシー弁を取り付ける

下はレッスンの承認弁つき `runToolUses` を Python にしたものです。いまは `HIGH_IMPACT` の集合で
「尋ねる / 通す」の2つに分けています。これを `POLICY` の3段階で分岐するように書き換えてください。

- ポリシーを評価する場所は、承認弁と同じ — `tool_use` ブロック1つずつ、`tool_impls[...]` を呼ぶ手前です
- 段階は、呼ばれるたびに `POLICY` から引きます（ツール名をコードに直書きしない）
- `ask` では、新しい確認の仕組みを作らず、渡された `approve` をそのまま使います
- `deny` では何も実行しませんが、結果は返します。モデルが「ポリシーで禁止されている」と読めば、別の道を探せます
"""),
    code(
        r"""
HIGH_IMPACT = {"write_file", "http_post", "delete_file"}


def run_tool_uses(content, tool_impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue

        # TODO: HIGH_IMPACT の代わりに、POLICY の段階（allow / ask / deny）で分岐する
        # 承認弁: 高インパクトなアクションは実行前に確認を取る
        if block.name in HIGH_IMPACT:
            if not approve(block.name, block.input):
                results.append({
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": "ユーザーがこの高インパクトなアクションを拒否したため、実行していません。",
                    "is_error": True,
                })
                continue  # 実行はスキップするが、tool_result は返す — 呼び出しを宙ぶらりんにしない

        try:
            output = tool_impls[block.name](**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
        except Exception as err:
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": f"ツールの実行に失敗しました: {err}",
                "is_error": True,
            })
    return results
""",
        r"""
def tier_of(name):
    # 呼ばれるたびに POLICY を引く。表にないツールは DEFAULT_TIER に落ちる
    return POLICY.get(name, DEFAULT_TIER)


def run_tool_uses(content, tool_impls, approve):
    results = []
    for block in content:
        if block.type != "tool_use":
            continue

        # ポリシー弁: 承認弁と同じ場所 — tool_use ごとに、impl を実行する手前で段階を決める
        tier = tier_of(block.name)
        if tier == "deny":
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": f"ツール {block.name} はポリシーで禁止されているため、実行していません。",
                "is_error": True,
            })
            continue  # 実行しないが、結果は返す
        if tier == "ask" and not approve(block.name, block.input):
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": "ユーザーがこの高インパクトなアクションを拒否したため、実行していません。",
                "is_error": True,
            })
            continue

        try:
            output = tool_impls[block.name](**block.input)
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": str(output)})
        except Exception as err:
            results.append({
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": f"ツールの実行に失敗しました: {err}",
                "is_error": True,
            })
    return results
""",
    ),
    md(r"""
## 試してみる

モデルが1つの応答で `get_time`、`write_file`、`send_email` を同時に頼んできた場面です。
人間役の `say_no` はいつも「いいえ」と答えます。どのツールが実際に走り（`[実行]` の行）、
モデルに何が返るかを見てください。

あなたの `run_tool_uses` は `try_limited` で呼びます。採点と同じく別プロセスで、制限時間付きで走るので、
無限ループになってもこのセルは5秒で戻り、次のセルへ進めます。
"""),
    code(
        r"""
client = emulated_client([
    reply(
        "時刻を確かめて、メモに書き、チームに知らせます。",
        call("get_time"),
        call("write_file", path="notes.txt", content="10:42 に確認"),
        call("send_email", to="team@example.com", body="確認しました"),
    )
])
response = client.messages.create(
    model=MODEL, max_tokens=1024, tools=TOOLS,
    messages=[{"role": "user", "content": "いまの時刻をメモに書いて、チームにも知らせて"}],
)


def toy(name, output):
    def impl(**tool_input):
        print(f"[実行] {name}({json.dumps(tool_input, ensure_ascii=False)})")
        return output
    return impl


tool_impls = {
    "get_time": toy("get_time", "2026-08-26T10:42:07+08:00"),
    "write_file": toy("write_file", "書き込みました"),
    "send_email": toy("send_email", "送信しました"),
}


def say_no(name, tool_input):
    print(f"[approve] {name} を実行しようとしています → n（拒否）")
    return False


def try_it():
    for result in run_tool_uses(response.content, tool_impls, say_no):
        print(json.dumps(result, ensure_ascii=False))


try_limited(try_it)
""",
        tags=(TRY_TAG,),
    ),
    md(r"""
## あなたの番 3: ポリシー弁の置き場所を言葉にする

課題は、コードだけでなく言葉でも答えることを求めています: ポリシー弁はループのどのステップに属するか、
既存の承認弁とどう関係するか、deny に当たったときにモデルへ何を返すか。次のセルを実行すると選択肢が表示されます。
"""),
    code(
        r"""
level1_options()
""",
        tags=(OPTIONS_TAG,),
    ),
    code(
        r"""
# TODO: それぞれの問いに、上の一覧からキーを1つずつ選ぶ
ANSWERS = {
    "step": None,      # ポリシー弁が属するループのステップ
    "approval": None,  # 既存の承認弁との関係
    "deny": None,      # deny に当たったとき、モデルに返すもの
}
""",
        r"""
ANSWERS = {
    "step": "before_tool",     # tool_use ごと、ツールを実行する直前（承認弁と同じ場所）
    "approval": "ask_reuses",  # ask の段階が承認弁そのもの: approve に判断を任せる
    "deny": "error_result",    # 実行せず、is_error: true で「ポリシーで禁止」と伝える
}
""",
    ),
    md(
        r"""
## 採点

このセルを実行すると、基準ごとに「○ 合格」か「× 不合格」が1行ずつ出ます。「× 不合格」にはヒントが付き、
セルは1行のエラー（`GradeFailed`）で止まります。あなたのコードが例外を投げても、無限ループになっても、
ここで固まることはありません（採点は別プロセスで、制限時間とメモリの上限付きで走ります）。
3つとも合格なら、最後の行に「◎ 3つの基準をすべて満たしました」と出ます。このセルの下に何も出ていなければ、まだ採点していません。
採点する基準:

"""
        + criteria_list("l1")
    ),
    code(
        r"""
check_level1(POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS)
""",
        tags=(GRADE_TAG,),
    ),
    md(r"""
## 振り返り

<details><summary>ポリシー弁はループのどのステップに属しますか？ 承認弁との関係は？</summary>

ツールの実行の直前、`tool_use` ブロックごとです。承認弁と同じ場所で、承認弁はポリシー弁の `ask` の段階そのもの
— 「尋ねる」の中身は既存の `approve` に任せ、ポリシー弁はその手前で「尋ねるのか、通すのか、拒むのか」だけを決めます。
1ステップ遅ければ、`deny` のメールはもう送られています。
</details>

<details><summary>deny のとき、なぜ黙って落とさずに tool_result を返すのですか？</summary>

仕様がすべての `tool_use` に対応する `tool_result` を求めているので、落とせば次のリクエストが 400 になります。
それに、拒否それ自体がモデルに知らせるべき結果です。「ポリシーで禁止されている」と読めたモデルは、別の道を探せます。
</details>

<details><summary>なぜ段階を、呼ばれるたびに POLICY から引くのですか？</summary>

ポリシーはデータなので、ツールが増えても、方針が変わっても、コードを書き換えずに表だけを直せます。
ツール名をコードに直書きすると、表を直しても振る舞いが変わらず、表とコードが黙って食い違います。
</details>

<details><summary>デフォルトの段階を allow にすると、何が起きますか？</summary>

来週だれかが `drop_database` を足したとき、それはポリシーに載っていないので、確認なしで走ります。
許可の一覧（allowlist）で考え、知らないものは `ask` か `deny` に倒すのが、過剰なエージェンシー（OWASP LLM06）への備えです。
</details>
"""),
]

# ---------------------------------------------------------------------------------------------
LEVEL2 = [
    md(
        r"""
# 練習 レベル2: このループに欠けているゲートと、どう暴走するか

レッスン6「制御付きエージェントハーネスを手書きする」の練習です。
前: [`level1_tiered_policy.ipynb`](level1_tiered_policy.ipynb)

**このノートブックを終えると、次のことができます**

- 裸のループに欠けている制御と、その欠落がそれぞれ生む暴走を、対にして言葉にできる
- `MAX_TURNS` のチェックをループ本体の先頭、カウンターを進める手前に置き、その位置が正しいことを数で確かめられる

**進め方**: `TODO` のあるセルを書き換え、上から順に実行します。最後の採点セルが
`◎ 3つの基準をすべて満たしました` を表示すれば合格です（○ は合格、× は不合格、△ は注意の印です）。
"""
        + GRADING_HOW.format(name="level2_missing_gate.ipynb")
    ),
    md(r"""
## 課題

同僚は下のハーネスのループを「動く」と言います。けれども、モデルが自分から `end_turn` を返さなくなった瞬間、
あるいは足踏みに陥った瞬間に壊れます。

1. どの制御が欠けていて、その欠落が**それぞれ**どんな暴走の振る舞いを生むかを、対にして指摘してください（選択肢から選びます）
2. 最小限の修正として、ループが必ず止まることを保証するハードな境界 `MAX_TURNS` を足してください。
   チェックはループ本体の先頭、カウンターを進める手前に置きます

### 完了基準（採点セルが1つずつ確かめます）

1. 止まるか続けるかの判断をまるごとモデルの `stop_reason` に委ねていて、明示的な停止条件がないことを指摘している
2. 欠けている制御それぞれに、それが生む暴走を正しく対応づけ、少なくとも2種類の暴走を挙げている:
   ターン/予算の暴走と、同じツールを同じ引数で繰り返す無進捗
3. `MAX_TURNS = N` のとき、決して止まらないモデルに対してツール呼び出しがちょうど N ターン、モデルへのリクエストが N + 1 回で止まり、
   上限に達して停止したことを伝える文を返す（数字だけではなく）。1つの応答で2〜3個のツールを呼ぶモデルでも、数えるのはターン。
   普通のタスク（モデルが自分で切り上げる）では、モデルの答えを返す

採点はあなたのソースコードを読みません。エミュレーターがモデルへのリクエストを数え、記録係のツールが実行を数えます。
"""),
    md(r"""
## 準備
"""),
    code(
        r"""
import json

from harness_lab.emulator import call, emulated_client, reply, say
from harness_lab.grading import check_level2, level2_options, run_limited, try_limited

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
""",
        tags=("setup",),
    ),
    md(r"""
## 同僚のループ

レッスン6の最初に書いた、制御弁のない `runAgent` を Python にしたものです。
"""),
    code(
        r"""
def colleague_run_agent(client, user_input, tools, tool_impls):
    messages = [{"role": "user", "content": user_input}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    while response.stop_reason == "tool_use":
        messages.append({"role": "assistant", "content": response.content})
        tool_results = run_tool_uses(response.content, tool_impls)
        messages.append({"role": "user", "content": tool_results})
        response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)

    return next((b.text for b in response.content if b.type == "text"), "")
""",
        tags=("setup",),
    ),
    md(r"""
### 壊れる姿を見る 1: 切り上げないモデル

どんなリクエストにも「もう少し調べます」と新しい検索を頼み続けるモデルです。
ふつうに呼べばカーネルが止まらなくなるので、`run_limited`（採点と同じ、制限時間付きの別プロセス実行）で2秒だけ走らせます。
"""),
    code(r"""
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
"""),
    md(r"""
### 壊れる姿を見る 2: 足踏みするモデル

同じツールを同じ引数で呼び続けるモデルです（このモデルは6回目で諦めてくれますが、本物がそうとは限りません）。
ループはそれに気づきません。
"""),
    code(r"""
stuck = [call("search", query="東京 天気")] * 6 + [say("天気は分かりませんでした。")]
stuck_impls = {"search": toy("search", "該当なし", show=True)}
print(colleague_run_agent(emulated_client(stuck), "東京の天気は？", TOOLS, stuck_impls))
"""),
    md(r"""
## あなたの番 1: 何が欠けていて、それぞれどう暴走するか

次のセルを実行すると選択肢が表示されます。`MISSING` を「このループに欠けている制御のキー → その欠落が生む暴走のキー」の辞書で書いてください
（暴走が2つ以上あるなら、値は集合でも構いません）。このループが実はちゃんとやっていることや、このループでは起きない暴走を選ぶと、
減点ではなく「× 不合格」になります。
"""),
    code(
        r"""
level2_options()
""",
        tags=(OPTIONS_TAG,),
    ),
    code(
        r"""
# TODO: 欠けている制御のキー → その欠落が生む暴走のキー（少なくとも2種類の暴走）
MISSING = {}
""",
        r"""
MISSING = {
    "stop_condition": "endless_turns",  # 止まるかどうかをモデルにまるごと任せている → ターンの暴走
    "token_budget": "budget_burn",      # 予算の上限がない → 費用が燃え尽きるまで止まらない
    "no_progress": "spinning",          # 無進捗検知がない → 足踏みに誰も気づかない
}
""",
    ),
    md(r"""
## あなたの番 2: `MAX_TURNS` で必ず止まるようにする

`run_agent` は、いまは同僚のループと同じです。`MAX_TURNS` のカウンターとチェックを足してください。
チェックは本体の**先頭**、カウンターを進める**手前**に置き、「この一周に入る前に、もう一周が許されているか」を問います。
数えるのはターン（ループの一周）で、`tool_use` ブロックの数ではありません。
上限で止まるときは、上限に達して止まったことが分かる文を返します（モデルの途中の文や、数字だけではなく）。
"""),
    code(
        r"""
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
""",
        r"""
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
""",
    ),
    md(r"""
## 試してみる

普通のタスク（ツール呼び出し2ターンで答える）と、切り上げないモデルの両方に、あなたの `run_agent` を当てます。
どちらも `try_limited`（`run_limited` と同じ別プロセス実行で、出力と返り値をこのセルに表示する）で呼ぶので、
上限がまだなくても、このセルは数秒で戻ります。
"""),
    code(
        r"""
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
""",
        tags=(TRY_TAG,),
    ),
    md(
        r"""
## 採点

このセルを実行すると、基準ごとに「○ 合格」か「× 不合格」が1行ずつ出ます。「× 不合格」にはヒントが付き、
セルは1行のエラー（`GradeFailed`）で止まります。3つとも合格なら、最後の行に「◎ 3つの基準をすべて満たしました」と出ます。
このセルの下に何も出ていなければ、まだ採点していません。採点する基準:

"""
        + criteria_list("l2")
    ),
    code(
        r"""
check_level2(MISSING, run_agent, MAX_TURNS)
""",
        tags=(GRADE_TAG,),
    ),
    md(r"""
## 振り返り

<details><summary>なぜチェックはカウンターを進める「手前」なのですか？</summary>

`turns` は「終わったターンの数」です。先頭で `turns >= MAX_TURNS` を問えば、ちょうど `MAX_TURNS` ターンのツール呼び出しが許され、
最後の結果もモデルに返ってから止まります。`turns += 1` の後に問うと1ターン早く止まり、ツールの実行の後に問うと、
最後の結果をモデルに返さないまま止まります。採点が「ツール呼び出し N ターン、リクエスト N + 1 回」を数えていたのはそのためです。
</details>

<details><summary>なぜ tool_use ブロックではなくターンを数えるのですか？</summary>

1つの応答で、モデルは複数のツールを同時に呼べます。ブロックを数えると、並列に呼ぶモデルほど早く止まり、
上限の意味（モデルへのリクエストは N + 1 回まで）が、モデルの呼び方しだいで変わってしまいます。
</details>

<details><summary>MAX_TURNS だけでは足りないのは、どんなときですか？</summary>

1ターンあたりのコンテキストが巨大なら、ターン数が少なくても予算は燃えます（予算上限が要る）。
同じ呼び出しを繰り返す足踏みは、上限に届くまで気づかれません（無進捗検知が要る）。
逆に、統制された環境で3〜5ターン走る小さなツールなら、`MAX_TURNS` だけで十分なこともあります。
</details>

<details><summary>上限はループを止める「主役」ですか？</summary>

いいえ。主役はいまも `stop_reason` です。上限は、モデルが切り上げなかったときのための保険です。
だから普通のタスクでは、上限に触れずにモデルの答えが返ります。
</details>
"""),
]


def _cells(spec: list[tuple], solved: bool, prefix: str) -> list:
    cells = []
    for i, (kind, text, solution, tags) in enumerate(spec):
        source = solution if solved and solution is not None else text
        cell = nbformat.v4.new_markdown_cell(source) if kind == "markdown" else nbformat.v4.new_code_cell(source)
        cell["id"] = f"{prefix}-{i:02d}"
        if tags:
            cell.metadata["tags"] = list(tags)
        cells.append(cell)
    return cells


def notebook(spec: list[tuple], solved: bool, prefix: str, exercise: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = _cells(spec, solved, prefix)
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
        "harness_lab": {"exercise": exercise},
    }
    return nb


def execute(nb: nbformat.NotebookNode, cwd: Path) -> nbformat.NotebookNode:
    client = NotebookClient(
        nb,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(cwd)}},
        store_widget_state=False,
        coalesce_streams=True,
    )
    client.execute()
    nb.metadata.pop("widgets", None)
    nb.metadata["language_info"] = {"name": "python"}
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    return nb


def grade_cell(nb: nbformat.NotebookNode):
    return next(c for c in nb.cells if GRADE_TAG in c.metadata.get("tags", []))


def build(name: str, spec: list[tuple], prefix: str, exercise: str) -> None:
    solution = execute(notebook(spec, True, prefix, exercise), EXERCISES / "solutions")
    text = "".join(o.get("text", "") for o in grade_cell(solution).outputs)
    if _ja("grade.all_passed", total=3) not in text:
        sys.exit(f"{name}: the solution does not pass:\n{text}")
    starter = notebook(spec, False, prefix, exercise)
    graded = grade_cell(starter)
    without_grade = copy.deepcopy(starter)
    without_grade.cells = [c for c in without_grade.cells if c.id != graded.id]
    ran = execute(without_grade, EXERCISES)  # every cell but the grade cell runs cleanly
    errors = [c.id for c in ran.cells for o in c.get("outputs", []) if o.output_type == "error"]
    if errors:
        sys.exit(f"{name}: starter cells raised: {errors}")
    # The grade cell, the try-it cells and the choices stay unrun and empty: what the unedited TODO
    # code or the grader prints would read, to a learner opening the file, as an answer to them.
    unrun = {c.id for c in starter.cells if {GRADE_TAG, TRY_TAG, OPTIONS_TAG} & set(c.metadata.get("tags", []))}
    by_id = {c.id: c for c in ran.cells if c.id not in unrun}
    starter.cells = [by_id.get(c.id, c) for c in starter.cells]
    nbformat.write(solution, EXERCISES / "solutions" / name)
    nbformat.write(starter, EXERCISES / name)
    print(f"wrote exercises/{name} and exercises/solutions/{name}")


NOTEBOOKS = {
    "level1_tiered_policy.ipynb": (LEVEL1, "l1", "level1"),
    "level2_missing_gate.ipynb": (LEVEL2, "l2", "level2"),
}

if __name__ == "__main__":
    # The stored outputs are the Japanese default; the kernels inherit this environment.
    os.environ.pop("HARNESS_LAB_LANG", None)
    (EXERCISES / "solutions").mkdir(parents=True, exist_ok=True)
    for name, (spec, prefix, exercise) in NOTEBOOKS.items():
        build(name, spec, prefix, exercise)
