# %% [markdown]
# # レッスン7: 2026 年の API でループを回す — 思考ブロック、キャッシュ、サーバー側の弁
#
# **エージェントハーネスの基礎: ループと制御** · ノートブック 6 / 6（発展）
#
# 前: [レッスン6: 制御付きエージェントハーネスを手書きする](05_full_harness.ipynb) ｜ 次: なし
#
# **所要時間の目安:** 約30分（読む 20分・書いて確かめる 6分・実行と予想 6分） ｜ **前提:** ノートブック01〜05（`my_harness.py` の `run_agent` と `next_step` を使います。なければ参考実装で進みます）
#
# 既定のモデル `claude-sonnet-5` は、頼まなくても考えてから答えます。同じループが、今の API では何に気をつければよいかを確かめます。
#
# **このノートブックを終えると、次のことができます:**
#
# - 思考ブロックを `signature` ごと返さないと 400 になることを示し、レッスン2の「`content` をまるごと」がなぜ前より大事かを説明する
# - プロンプトキャッシュで同じ 20 ターンの費用が下がること、履歴の書き換えがキャッシュを無効にすることを数字で確かめる
# - コンテキスト編集・圧縮・タスク予算を、弁2（`TokenBudget`）と比べて説明する
# - `refusal`・`model_context_window_exceeded` で止まったとき、人に返す停止メッセージ `stop_message` を書く

# %%
# Colab など、harness_lab が入っていない環境では、最初にインストールします（手元の環境では何もしません）
import importlib.util
if importlib.util.find_spec("harness_lab") is None:
    %pip install -q "harness_lab @ git+https://github.com/harness-lab/harness_lab.git"

# %%
import anthropic
import harness_lab as hl
from harness_lab import lessons

hl.use_language("ja")  # このノートブックの表示は日本語（HARNESS_LAB_LANG の設定にかかわらず）
MODEL = hl.MODEL


@hl.tool
def read_file(path: str) -> str:
    """プロジェクト内のテキストファイルを読む（おもちゃの実装）"""
    return f"{path}: 会議で決まったことと、次の担当者の記録。" * 30


@hl.tool
def get_time() -> str:
    """現在時刻を ISO 8601 の文字列で返す（おもちゃの実装: いつも同じ時刻）"""
    return "2026-08-26T10:42:07+09:00"


TOOLS = [read_file.definition, get_time.definition]
impls = {"read_file": read_file, "get_time": get_time}
print(hl.mode_line(hl.connect("interleaved", live=False)))

# %% [markdown]
# ## 1. 思考ブロックは、受け取ったまま返す
#
# 1回だけリクエストを送り、応答の `content` を見ます。このノートブックの実行は、すべてエミュレーターのシナリオです
# （`live=False` で名指しするので、`ANTHROPIC_API_KEY` があってもオフラインのまま。上のセルの1行がそれを示します）。

# %%
client = hl.connect("interleaved", live=False)
REQUEST = {"model": MODEL, "max_tokens": 1024, "tools": TOOLS} | hl.emulator.ask_to_think(MODEL)  # 頼まないと考えないモデルには考えてと頼む（既定のモデルでは何も足さない）
messages = [{"role": "user", "content": "README.md の1行目と、今の時刻を教えて"}]
response = client.messages.create(**REQUEST, messages=messages)
for block in response.content:
    if block.type == "thinking":
        print("thinking  本文:", repr(block.thinking), " signature:", block.signature[:16] + "…")
    else:
        print(block.type, block.name, block.input)
print("出力トークンのうち思考:", response.usage.output_tokens_details.thinking_tokens, "/", response.usage.output_tokens)

# %% [markdown]
# 先頭は思考ブロックです。本文は既定で空（`display: "omitted"`。4.6 以前は要約）ですが、考えた分は出力トークンとして課金されます。
# `signature` は、思考ブロックが書き換えられていないことを API が確かめるための封です。
#
# 結果を返す履歴を3通り作って送ります。送る前に、それぞれ 200 と 400 のどちらが返るかを予想してください。

# %%
MY_GUESS = {"そのまま返す": None, "思考ブロックを落とす": None, "signature を書き換える": None}  # ← 200 か 400 を書く

# %%
results = [{"type": "tool_result", "tool_use_id": b.id, "content": read_file(**b.input)}
           for b in response.content if b.type == "tool_use"]
thinking, *rest = response.content
tampered = dict(thinking.model_dump(), signature=thinking.signature[:-6] + "AAAAA=")
TRIES = {
    "そのまま返す": response.content,
    "思考ブロックを落とす": [b for b in response.content if b.type != "thinking"],
    "signature を書き換える": [tampered, *rest],
}
status, refusals = {}, {}
for name, content in TRIES.items():
    try:
        client.messages.create(**REQUEST, messages=messages + [{"role": "assistant", "content": content}, {"role": "user", "content": results}])
        status[name] = 200
    except anthropic.BadRequestError as e:
        status[name], refusals[name] = 400, e.body["error"]["message"].split(". ")[0]  # 長いので最初の一文だけ
guessed = lessons.compare(MY_GUESS, status)
if lessons.guessed(MY_GUESS):  # どれが断られたかが答えなので、予想を書くまで見せない
    for name, message in refusals.items():
        print(name, "→", message)

# %% [markdown]
# レッスン2では、text だけを残すと tool_use が消えて 400 でした。今は `text` と `tool_use` だけを拾って**組み立て直す**のも 400 です。
# `redacted_thinking`（暗号化された思考）も同じ扱いです。知っている型だけを拾うループは、いつか必ず断られます。
# レッスンの確認も、使うモデルを何と書いても既定のモデルで試すので、この誤りを見逃しません。
#
# ## 2. プロンプトキャッシュ: 費用の弁
#
# ループは毎ターン、履歴をまるごと送り直します（レッスン4）。前と同じ先頭部分をサーバーに覚えておいてもらえば、
# 次の回からはその部分を**キャッシュ読み込み**（入力の 1 割の値段）で済ませられます。トップレベルに `cache_control` を1つ付けるだけです。
# 20 ターンかかるタスク（ノートを 19 件読む）で、付けない場合と比べます。

# %%
def run_loop(client, prompt, edit_at=None, reasons=None, **extra):
    """裸のループ。応答ごとの usage を返す。edit_at 回のリクエストのあと（edit_at + 1 回目の前）に、最初の user メッセージを書き換える。
    reasons にリストを渡すと、キャッシュ診断を頼んで、応答ごとの cache_miss_reason をそこに足す"""
    request = {"model": MODEL, "max_tokens": 1024, "tools": TOOLS, **extra}  # extra で model も替えられる
    messages, usages, previous = [{"role": "user", "content": prompt}], [], None
    while True:
        if len(usages) == edit_at:
            messages[0] = {"role": "user", "content": prompt + "（追記: 日付は 8月26日）"}
        if reasons is not None:  # 前の応答の id を渡すと、API がその回と今回を比べる
            request["diagnostics"] = {"previous_message_id": previous}
        r = client.messages.create(**request, messages=messages)
        usages.append(hl.Usage.of(r.usage))
        if reasons is not None:
            reasons.append(r.diagnostics.cache_miss_reason if r.diagnostics else None)
            previous = r.id
        if r.stop_reason != "tool_use":
            return usages
        messages.append({"role": "assistant", "content": r.content})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": b.id, "content": impls[b.name](**b.input)}
            for b in r.content if b.type == "tool_use"]})


# %% [markdown]
# 予想: キャッシュを付けた実行で、キャッシュ読み込みが 0 のリクエストは何回あるでしょう。

# %%
MY_GUESS = {"キャッシュ読み込みが 0 のリクエスト": None}  # ← 予想を書く

# %%
from harness_lab.valves.budget import cost_usd

PROMPT = "notes/ のノートを全部読んで、決まったことをまとめて"
plain = run_loop(hl.connect("twenty_turns", live=False), PROMPT)
cached = run_loop(hl.connect("twenty_turns", live=False), PROMPT, cache_control={"type": "ephemeral"})
print(f" キャッシュなし  キャッシュあり\n{len(plain):>15}{len(cached):>16}  リクエスト")  # なし・ありを列に並べる: 狭い画面でも折り返さない
for label, field in (("入力", "input_tokens"), ("書き込み", "cache_creation_input_tokens"), ("読み込み", "cache_read_input_tokens")):
    print(f"{getattr(sum(plain, hl.Usage()), field):>15,}{getattr(sum(cached, hl.Usage()), field):>16,}  {label}")
print(f"{f'${cost_usd(plain, MODEL):.4f}':>15}{f'${cost_usd(cached, MODEL):.4f}':>16}  料金")
guessed = lessons.compare(MY_GUESS, {"キャッシュ読み込みが 0 のリクエスト": sum(u.cache_read_input_tokens == 0 for u in cached)})

# %%
from harness_lab.ui import compare_runs

reasons, BINDING = [], hl.emulator.drop_rebound_thinking(MODEL)  # 思考ブロックを会話に結び付けるモデルでは、書き換えのあと前の思考ブロックを捨ててもらう
edited = run_loop(hl.connect("twenty_turns", live=False).beta, PROMPT, edit_at=10, reasons=reasons, cache_control={"type": "ephemeral"}, **BINDING)
compare_runs({"キャッシュなし": plain, "キャッシュあり": cached, "11回目の前に先頭を書き換え": edited}, by="usd")

# %%
print("書き換えた実行の、各リクエストのキャッシュ読み込み:", [u.cache_read_input_tokens for u in edited])
for n, reason in enumerate(reasons, 1):
    if reason is not None:
        print(f"{n}回目のキャッシュ診断: {reason.type}（キャッシュに載らなかった入力 約{reason.cache_missed_input_tokens:,}）")

# %% [markdown]
# キャッシュは**先頭からの一致**でしか効きません。1回目は短すぎて（1,024 トークン未満）載らず、2回目が書き込み、3回目からは前の回までを読んで、足した分を書き込みます。
# 途中で先頭のメッセージを書き換えると、その回は読み込みが 0 に戻り、全部を書き直します。
# 理由は API に聞けます。`diagnostics` に前の応答の id を渡すと（**キャッシュ診断**）、先頭がどこで変わったかが返ります。
# 11回目だけが `messages_changed`（前の回の会話が、後ろに足す以外の形で変わった）でした。`system_changed` や `tools_changed` なら、
# システムプロンプトやツールの一覧を毎回作り直していないかを疑います。
# 注意書きを履歴の途中に差し込みたくなったら、後ろに足します。キャッシュはターン数も予算も止めません。下げるのは1ターンの値段です。
#
# ## 3. サーバー側の弁: コンテキスト編集・圧縮・タスク予算
#
# 弁2（予算上限）は、ハーネスが数えて**止める**弁でした。今の API には、止めずに文脈を軽くする仕組みがサーバー側にあります。
# **コンテキスト編集**（`clear_tool_uses`）は、古いツールの結果を置き換えてから、モデルに見せます。手元の履歴はそのままです。

# %%
EDITS = {"edits": [{"type": "clear_tool_uses_20250919", "trigger": {"type": "input_tokens", "value": 3000},
                    "keep": {"type": "tool_uses", "value": 2}}]}
beta = hl.connect("big_results", live=False).beta
full = run_loop(beta, "logs/ のログを全部読んでまとめて")
trimmed = run_loop(beta, "logs/ のログを全部読んでまとめて", context_management=EDITS, betas=["context-management-2025-06-27"])
print("編集なし 入力:", [u.prompt_tokens for u in full])
print("編集あり 入力:", [u.prompt_tokens for u in trimmed])

# %% [markdown]
# 入力が 3,000 を超えたところから、古い結果が消されて伸びが鈍りました。**圧縮**（`compact_20260112`、ベータ `compact-2026-01-12`）は
# さらに進んで、それまでの会話を要約の `compaction` ブロック1つに置き換えます（`trigger` は 50,000 トークン以上）。`pause_after_compaction` を付けると、応答は
# `stop_reason: "compaction"` で止まります。これまでの `next_step` は、この値を知りません:

# %%
next_step = lessons.use("next_step")
COMPACT = {"edits": [{"type": "compact_20260112", "trigger": {"type": "input_tokens", "value": 50000}, "pause_after_compaction": True}]}
paused = hl.connect("big_results", live=False).beta.messages.create(
    model=hl.emulator.compaction_model(MODEL), max_tokens=1024, tools=TOOLS, messages=[{"role": "user", "content": "ログを読んで。" + "背景: " * 28000}],
    context_management=COMPACT, betas=["compact-2026-01-12"])  # どのモデルでも 50,000 トークンを超える長さ（4.6 以前のモデルは同じ文を少なめに数える）
print(paused.stop_reason, [b.type for b in paused.content], "→ next_step:", next_step(paused))
# 圧縮した応答の請求は usage.iterations の合計（トップレベルは要約のあとの分だけ）。TokenBudget は合計を数える

# %% [markdown]
# 知らない `stop_reason` で止まるのは安全側の判断です。ただ、圧縮のあとは `pause_turn` と同じく、`content` をまるごと履歴に足して
# 送り直せば続きます（`"resend"`）。
#
# **タスク予算**（`output_config.task_budget`、ベータ `task-budgets-2026-03-13`）はモデルに残りを見せる**目安**です。
# 残りを見て切り上げるかはモデル次第で、超えても API は止めません。
# 使えるモデルは限られ（Opus 5・Opus 4.8・Fable 5 など。既定の Sonnet 5 は 400）、`total` は 20,000 以上です。
# 数えるのはモデルが**見た**分（ツールの結果や自分の出力を1回ずつ）で、毎回送り直す履歴は数えません。

# %%
budget = {"task_budget": {"type": "tokens", "total": 20000}}
advised = run_loop(hl.connect("task_budget", live=False).beta, "ノートを読んで", model="claude-opus-5", output_config=budget, betas=["task-budgets-2026-03-13"])
print(f"タスク予算 20,000: リクエスト {len(advised)} 回。モデルが残りを見て自分で切り上げた（請求の累計は {sum(u.total for u in advised):,} トークン）")
run = hl.Run(hl.connect("task_budget", live=False), tools=[read_file, get_time], valves=[hl.TokenBudget(6000)])
end = hl.drain(run.start("ノートを読んで"))
print(f"TokenBudget 6,000: リクエスト {run.state.model_calls} 回で {end.cause} — {end.reason}")

# %% [markdown]
# | | 誰が持つか | 超えたら |
# |---|---|---|
# | `task_budget` | API（モデルが見る） | モデルが切り上げる**かもしれない** |
# | `TokenBudget`（弁2） | ハーネス | 必ず止まり、停止メッセージを返す |
#
# ## 4. 止まったとき、人に何を返すか — `stop_message` を書く
#
# `next_step` は `refusal`・`model_context_window_exceeded`・`max_tokens` で `"stop"` を返しました。止まった**理由**を人に伝えるのが
# `stop_message` です。`refusal` の応答には、理由の分類（`category`）と説明（`explanation`）を持つ `stop_details` が付きます。
# どちらも `None` のことがあります。エミュレーターの3つの応答で見ます:

# %%
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search"}  # pause_turn はサーバーツールのループからだけ返る
stops = {}
for scenario in ("pause_turn", "refusal", "model_context_window_exceeded"):
    stops[scenario] = r = hl.connect(scenario, live=False).messages.create(model=MODEL, max_tokens=1024, tools=[WEB_SEARCH], messages=[{"role": "user", "content": "資料を調べて"}])
    print(f"{r.stop_reason}\n    next_step={next_step(r)}\n    text={hl.text_of(r.content)!r}\n    stop_details={r.stop_details}")  # 応答ごとに名前の行と中身の行: 狭い画面でも列が崩れない

# %% tags=["todo", "piece:stop_message"]
# TODO: ループを止める応答なら、人に返す停止メッセージ（文字列）を、止めない応答なら None を返します。
# refusal: response.stop_details の category と explanation を入れる（どちらも None のことがある）。
# model_context_window_exceeded / max_tokens: 止まった理由と、途中までの text（hl.text_of(response.content)）を入れる。
# 手順は lessons.hint("stop_message") で開けます。
def stop_message(response):
    raise NotImplementedError  # ← この行を消して、ここに書く


# %% tags=["check"]
from harness_lab import lessons
stop_message = lessons.check("stop_message", stop_message)

# %%
for r in stops.values():  # 確認を通った stop_message（まだなら参考実装）を、上の3つの応答に
    print(f"{r.stop_reason}\n    → {stop_message(r)}")

# %% [markdown]
# ## 5. 自分のハーネスを、今の API で
#
# ノートブック05で書いた `run_agent` を `my_harness.py` から読み込み、思考ブロックが2回挟まるシナリオ、
# `redacted_thinking` が来るシナリオ、断られるシナリオで最後まで走らせます。`content` をまるごと返していれば、400 は出ません。

# %%
run_agent = lessons.use("run_agent", lesson=6)
for scenario in ("interleaved", "redacted_thinking", "refusal"):
    events, end = lessons.drive(run_agent(hl.connect(scenario, live=False), "README.md の1行目と、今の時刻を教えて", TOOLS, impls))
    kinds = [[b.type for b in e.response.content] for e in events]
    print(f"{scenario}: ターンの content {kinds} → {type(end).__name__}: {(end.text if isinstance(end, hl.Finished) else end.reason)[:48]}")

# %% [markdown]
# ## まとめ
#
# - 既定のモデルは思考ブロックを先頭に返す。`signature` ごと、並べ替えずに返す。`content` をまるごと、がいちばん確か
# - プロンプトキャッシュは1ターンの値段を下げる弁。先頭を書き換えると、その回から書き直しになる
# - コンテキスト編集と圧縮はサーバー側で文脈を軽くする。タスク予算は目安で、止めるのは弁2（`TokenBudget`）
# - `refusal` は `stop_details` を、`model_context_window_exceeded` と `max_tokens` は途中までの text を、停止メッセージで人に渡す
#
# ## 確認問題
#
# **問1.** 思考ブロックの本文は空でした。捨ててもよいですか。
#
# <details><summary>答え</summary>
#
# いいえ。本文が空でも `signature` が封です。ツールの結果を返すリクエストで、その assistant ターンが思考ブロックで始まらないと 400 です。
# </details>
#
# **問2.** `task_budget` を 20,000 にすれば、`TokenBudget` は要りませんか。
#
# <details><summary>答え</summary>
#
# 要ります。タスク予算はモデルが見る目安で、超えても API は止めません。止めると約束できるのは、ハーネスが持つ弁2だけです。
# </details>
