# ---
# jupyter:
#   harness_lab:
#     exercise: level1
# ---

# %% [markdown]
# # 練習 レベル1: ツールごとの段階的な制御弁（allow / ask / deny）
#
# レッスン6「制御付きエージェントハーネスを手書きする」の練習です。
# 前: [`notebooks/05_full_harness.ipynb`](../notebooks/05_full_harness.ipynb) ／ 次: [`level2_missing_gate.ipynb`](level2_missing_gate.ipynb)
#
# **このノートブックを終えると、次のことができます**
#
# - ツール名ごとに allow / ask / deny の3段階を表すポリシーを設計し、表にないツールの落ち先（デフォルトの段階）を決められる
# - そのポリシー弁を、ループのどのステップに置くべきかを、実際に動くコードで示せる
# - deny に当たった呼び出しにも、ポリシーで禁止されていることがモデルに伝わる `tool_result` を返せる
#
# **進め方**: `TODO` のあるセルを書き換え、上から順に実行します。最後の採点セルが
# `◎ 3つの基準をすべて満たしました` を表示すれば合格です（○ は合格、× は不合格、△ は注意の印です）。
# API キーは要りません（採点はエミュレーターの上で、決まった応答に対して行います）。
#
# **採点のしくみ**: 最後の採点セルは、このノートブックのカーネルの中で採点し、基準を1つでも満たさなければセルがエラー
# （1行の `GradeFailed`）で止まります。ターミナルからは `harness-lab grade exercises/level1_tiered_policy.ipynb` で採点できます
# （講座の Python のコマンドで、クラスのハブのターミナルならそのまま動きます。リポジトリーの中なら `python3 dev.py grade` で2冊とも）。
# どこで動かしていても、ノートブックを保存してから新しいセルで `import sys` と
# `!"{sys.executable}" -P -m harness_lab.grading level1_tiered_policy.ipynb` の2行を実行すれば、このカーネルの Python で同じ採点をします。
# どちらも、タグ `answer` の付いたセル（`TODO` のセル）と
# タグ `setup` の付いた準備のセルだけを新しいプロセスで実行し、パッケージ自身の採点コードを呼びます。
# 採点セルの中身も、ファイルに保存された出力も見ません。自分で足したセルは実行されないので、定義は `TODO` のセルに書きましょう。

# %% [markdown]
# ## 課題
#
# いまの承認弁の設定は2つだけです: 高インパクトなら尋ね、それ以外はすべて通す。
# プロダクトの同僚が、もっと細かい要求を出しました — **ツール名ごとに3段階で制御したい**:
#
# | 段階 | 意味 | このハーネスでのツール |
# |---|---|---|
# | `allow` | そのまま通す | `get_time`, `read_file` |
# | `ask` | 実行前に人間の確認が必要 | `write_file`, `delete_file`, `http_post` |
# | `deny` | つねに拒否し、そもそも呼び出せない | `send_email`（廃止された） |
#
# 表にないツールも、いつかモデルの前に現れます（来週だれかが足すかもしれません）。
# それがどの段階に落ちるか — **デフォルトの段階** — も決めてください。
#
# 書くものは4つです:
#
# 1. `POLICY` — 3段階を表すデータ構造。形は次の3つのどれかで: ツール名 → 段階の辞書、段階 → ツール名の集合（リストやタプルでも可）の辞書、
#    ツール名を受け取って段階を返す関数
# 2. `DEFAULT_TIER` — 表にないツールが落ちる段階（`"allow"` / `"ask"` / `"deny"` のどれか）
# 3. `run_tool_uses(content, tool_impls, approve)` — レッスンの承認弁つきの版を、ポリシー弁つきに書き換えたもの。
#    `content` はモデルの応答の `response.content`、`tool_impls` はツール名 → 関数（入力をキーワード引数で受け取る: `tool_impls[block.name](**block.input)`）、
#    `approve(name, input)` は人間に尋ねて `True`（許可）か `False`（拒否）を返す関数です。
#    返り値は `tool_result` ブロック（辞書）のリストです。
# 4. `ANSWERS` — ポリシー弁がループのどのステップに属するか、既存の承認弁とどう関係するか、deny に当たったときモデルに何を返すか
#    （選択肢から選びます）
#
# ### 完了基準（採点セルが1つずつ確かめます）
#
# 1. 3段階を表現できるポリシー構造を示し、デフォルトの段階（未記載のツールがどの段階に落ちるか）を述べている。
#    段階はポリシーのデータから決まる（採点はあなたの `POLICY` をその場で書き換え — 表のツールの段階を入れ替え、表にないツールを足して —
#    振る舞いがそれに従うかを確かめます。`run_tool_uses` は呼ばれるたびに `POLICY` を引きましょう）
# 2. ポリシー弁を `run_tool_uses` の中、`tool_use` ブロックごとに、ツールを実行する**前に**評価している —
#    承認弁と同じ位置であり、`ask` の段階は既存の確認（`approve`）を再利用する。確認が許可で終わらなかったとき（`approve` が例外を出した、
#    `None` のように「はい」でない値を返した）は、ツールを実行しない（承認弁は閉じる側に倒す）。`ANSWERS` の `"step"` と `"approval"` もそれを述べている
# 3. `deny` に当たったときはツールを実行しないが、それでも `is_error: true` の `tool_result` を返し、
#    そのツールがポリシー（規則）で禁止されていることをモデルに伝える（黙って落とさない。「使えません」「拒否しました」だけでは、
#    人間が断ったのか失敗したのか区別がつきません）。`ask` で人間が断ったときの結果は、規則ではなく人間が断ったと伝えたままにする。
#    すべての `tool_use` に、順番どおり、ちょうど1つの、API が受け取れる結果を返す。渡された `content` は変えない
#    （ループは同じリストを会話履歴に入れて次のリクエストで送り返します）。`ANSWERS` の `"deny"` もそれを述べている
#
# 採点はあなたのソースコードを読みません。記録係のツール（呼ばれたら記録するだけの偽物で、1つは例外を出して失敗します）と記録係の `approve` を
# 渡して `run_tool_uses` を実際に呼び、**何が実行され、だれに何を尋ね、何が返ったか**だけで判定します。

# %% [markdown]
# ## 準備
#
# 採点に使うのと同じツール定義（`TOOLS`）と、エミュレーターのクライアントを用意します（表にないツールも入っています。
# 名前は `[t["name"] for t in TOOLS]` で確かめられます）。準備のセルは何も表示しません。
# `hl.use_language("ja")` は、このカーネルの表示（選択肢、採点の結果とヒント）を日本語にします（英語版のノートブックでは `"en"`）。
# `ANTHROPIC_API_KEY` があっても、このノートブックはエミュレーターだけを使います。
# 本物の Claude で試したいときは `client = anthropic.Anthropic()` に差し替えるだけで、ほかは変わりません。

# %% tags=["setup"]
import json

import harness_lab as hl
from harness_lab.emulator import call, emulated_client, reply
from harness_lab.grading import check_level1, level1_options, try_limited
from harness_lab.grading.scenarios import tool_defs

hl.use_language("ja")  # このノートブックの表示は日本語（HARNESS_LAB_LANG の設定にかかわらず）
TOOLS = tool_defs()  # 採点と同じツール定義。説明は use_language で選んだ言語
MODEL = "claude-sonnet-5"

# %% [markdown]
# ## あなたの番 1: ポリシーとデフォルトの段階
#
# `POLICY` と `DEFAULT_TIER` を書いてください。デフォルトを `"allow"` にすると基準1は満たしますが、
# 「△ 注意」が付きます（採点は通ります）。新しいツールが確認なしで走ってよいか、考えてから決めましょう。

# %% tags=["answer", "starter"]
# TODO: 3段階（allow / ask / deny）を表すポリシーを書く（上の表のとおり）
POLICY = {}

# TODO: 表にないツールが落ちる段階を "allow" / "ask" / "deny" から選ぶ
DEFAULT_TIER = None

# %% tags=["answer", "solution"]
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

# %% [markdown]
# ## あなたの番 2: `run_tool_uses` にポリシー弁を取り付ける
#
# 下はレッスンの承認弁つき `runToolUses` を Python にしたものです。`runToolUses` はレッスン本文（TypeScript）での名前で、
# Python のコードでは同じ関数を `run_tool_uses` と書きます。いまは `HIGH_IMPACT` の集合で
# 「尋ねる / 通す」の2つに分けています。これを `POLICY` の3段階で分岐するように書き換えてください。
#
# - ポリシーを評価する場所は、承認弁と同じ — `tool_use` ブロック1つずつ、`tool_impls[...]` を呼ぶ手前です
# - 段階は、呼ばれるたびに `POLICY` から引きます（ツール名をコードに直書きしない）
# - `ask` では、新しい確認の仕組みを作らず、渡された `approve` をそのまま使います
# - `deny` では何も実行しませんが、結果は返します。モデルが「ポリシーで禁止されている」と読めば、別の道を探せます

# %% tags=["answer", "starter"]
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


# %% tags=["answer", "solution"]
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


# %% [markdown]
# ## 試してみる
#
# モデルが1つの応答で `get_time`、`write_file`、`send_email` を同時に頼んできた場面です。
# 人間役の `say_no` はいつも「いいえ」と答えます。どのツールが実際に走り（`[実行]` の行）、
# モデルに何が返るかを見てください。
#
# あなたの `run_tool_uses` は `try_limited` で呼びます。採点と同じく別プロセスで、制限時間付きで走るので、
# 無限ループになってもこのセルは5秒で戻り、次のセルへ進めます。

# %% tags=["try"]
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
    print(f"[承認] {name} を実行しようとしています → n（拒否）")
    return False


def try_it():
    for result in run_tool_uses(response.content, tool_impls, say_no):
        print(json.dumps(result, ensure_ascii=False))


try_limited(try_it)

# %% [markdown]
# ## あなたの番 3: ポリシー弁の置き場所を言葉にする
#
# 課題は、コードだけでなく言葉でも答えることを求めています: ポリシー弁はループのどのステップに属するか、
# 既存の承認弁とどう関係するか、deny に当たったときにモデルへ何を返すか。次のセルを実行すると選択肢が表示されます。

# %% tags=["options"]
level1_options()

# %% tags=["answer", "starter"]
# TODO: それぞれの問いに、上の一覧からキーを1つずつ選ぶ
ANSWERS = {
    "step": None,      # ポリシー弁が属するループのステップ
    "approval": None,  # 既存の承認弁との関係
    "deny": None,      # deny に当たったとき、モデルに返すもの
}

# %% tags=["answer", "solution"]
ANSWERS = {
    "step": "before_tool",     # tool_use ごと、ツールを実行する直前（承認弁と同じ場所）
    "approval": "ask_reuses",  # ask の段階が承認弁そのもの: approve に判断を任せる
    "deny": "error_result",    # 実行せず、is_error: true で「ポリシーで禁止」と伝える
}

# %% [markdown]
# ## 採点
#
# このセルを実行すると、基準ごとに「○ 合格」か「× 不合格」が1行ずつ出ます。「× 不合格」にはヒントが付き、
# セルは1行のエラー（`GradeFailed`）で止まります。あなたのコードが例外を投げても、無限ループになっても、
# ここで固まることはありません（採点は別プロセスで、制限時間とメモリの上限付きで走ります）。
# 3つとも合格なら、最後の行に「◎ 3つの基準をすべて満たしました」と出ます。このセルの下に何も出ていなければ、まだ採点していません。
# 採点する基準:
#
# 1. 3段階（allow / ask / deny）をポリシーのデータで表し、未記載のツールが落ちるデフォルトの段階がある
# 2. ポリシーは tool_use ごとに、ツールを実行する前に評価され、ask は承認のコールバックを再利用している
# 3. deny でも is_error: true の tool_result でポリシーによる禁止を伝え、すべての tool_use に順番どおり1つずつ、API が受け取れる結果を返す

# %% tags=["grade"]
from harness_lab.grading import check_level1
check_level1(POLICY, DEFAULT_TIER, run_tool_uses, ANSWERS)

# %% [markdown]
# ## 振り返り
#
# <details><summary>ポリシー弁はループのどのステップに属しますか？ 承認弁との関係は？</summary>
#
# ツールの実行の直前、`tool_use` ブロックごとです。承認弁と同じ場所で、承認弁はポリシー弁の `ask` の段階そのもの
# — 「尋ねる」の中身は既存の `approve` に任せ、ポリシー弁はその手前で「尋ねるのか、通すのか、拒むのか」だけを決めます。
# 1ステップ遅ければ、`deny` のメールはもう送られています。
# </details>
#
# <details><summary>deny のとき、なぜ黙って落とさずに tool_result を返すのですか？</summary>
#
# 仕様がすべての `tool_use` に対応する `tool_result` を求めているので、落とせば次のリクエストが 400 になります。
# それに、拒否それ自体がモデルに知らせるべき結果です。「ポリシーで禁止されている」と読めたモデルは、別の道を探せます。
# </details>
#
# <details><summary>なぜ段階を、呼ばれるたびに POLICY から引くのですか？</summary>
#
# ポリシーはデータなので、ツールが増えても、方針が変わっても、コードを書き換えずに表だけを直せます。
# ツール名をコードに直書きすると、表を直しても振る舞いが変わらず、表とコードが黙って食い違います。
# </details>
#
# <details><summary>デフォルトの段階を allow にすると、何が起きますか？</summary>
#
# 来週だれかが `drop_database` を足したとき、それはポリシーに載っていないので、確認なしで走ります。
# 許可の一覧（allowlist）で考え、知らないものは `ask` か `deny` に倒すのが、過剰なエージェンシー（OWASP LLM06）への備えです。
# </details>
