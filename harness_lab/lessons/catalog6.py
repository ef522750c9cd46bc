"""The lesson checks' strings for lesson 6 and the capstone (ja, en), the workbook's errors, and the steps
``lessons.hint(name)`` opens; the whole harness's (``run_agent`` with the four valves) are in
``catalog6_harness``, valve 2's ways of counting in ``catalog6_budget``. Braces that are not placeholders
are doubled (every entry is formatted)."""

from __future__ import annotations

from ..text import add
from . import catalog6_budget, catalog6_harness  # noqa: F401  # lesson 6's run_agent strings, added with these

add(
    {
        # the workbook: why a file or a name cannot be read or written
        "lesson.workbook.not_utf8": (
            "{path} が UTF-8 ではありません（Shift_JIS などで保存されたようです）。エディターで UTF-8 で保存し直してください",
            "{path} is not UTF-8 (it looks saved as Shift_JIS or similar); save it again as UTF-8 in your editor",
        ),
        "lesson.workbook.unreadable": ("{path} を開けません（{error}）", "{path} cannot be opened ({error})"),
        "lesson.workbook.syntax": (
            "{path} の {line} 行目が Python として読めません（{error}）",
            "line {line} of {path} is not valid Python ({error})",
        ),
        "lesson.workbook.why.object": (
            "数・文字列・リスト・辞書のようなデータではないので、コードに書き出せません。関数の中で作るか、引数で受け取ってください",
            "it is not plain data (numbers, text, lists, dicts), so it cannot be written as code; create it inside the function or take it as an argument",
        ),
        "lesson.workbook.why.holds_itself": (
            "自分自身を中に含んでいるので、コードに書き出せません",
            "it contains itself, so it cannot be written as code",
        ),
        "lesson.workbook.why.too_deep": (
            "入れ子が深すぎるので、コードに書き出せません",
            "it is nested too deeply to be written as code",
        ),
        "lesson.workbook.why.too_big": (
            "大きすぎるので、コードに書き出せません。ファイルから読むようにしてください",
            "it is too big to be written as code; read it from a file instead",
        ),
        "lesson.workbook.why.no_source": (
            "ソースを読めません。def や class で、セルに書いてください",
            "its source cannot be read; write it in a cell with def or class",
        ),
        # read_file
        "lesson.l6.read_file.p1": (
            "ルートの内側のファイルは先頭 2000 文字まで読める（ルート自身がリンクでも）",
            "a file inside the root can be read, its first 2000 characters (also when the root itself is a link)",
        ),
        "lesson.l6.read_file.p2": (
            "../、絶対パス、名前が同じ文字で始まる隣のフォルダー（project-secrets）へ出るパスは PermissionError で拒否する",
            "a path that leaves by ../, an absolute path, or into a sibling folder whose name starts the same (project-secrets) is refused with PermissionError",
        ),
        "lesson.l6.read_file.p3": (
            "ルートの中にある、外を指すシンボリックリンク（ファイルもフォルダーも）を拒否する",
            "a symlink inside the root that points outside (to a file or a folder) is refused",
        ),
        "lesson.l6.read_file.not_read": (
            "README.md を読めませんでした（返り値 {got}）",
            "README.md could not be read (got {got})",
        ),
        "lesson.l6.read_file.wrong_root": (
            "root の中の README.md ではないものを読みました（{got}）。path は root を起点にします（Path(root) / path）",
            "It read something other than the README.md inside root ({got}); start the path at root (Path(root) / path)",
        ),
        "lesson.l6.read_file.bytes": (
            '先頭 2000 バイトを返しました（{length} 文字）。UTF-8 では日本語の1文字が3バイトです。バイナリ（"rb"）ではなく open(target, encoding="utf-8") で開いて、read(2000) で 2000 文字を返します',
            'It returned the first 2000 bytes ({length:characters}); in UTF-8 a Japanese character takes three bytes. Open it as text, not binary ("rb"): open(target, encoding="utf-8"), and read(2000) returns 2000 characters',
        ),
        "lesson.l6.read_file.not_str": (
            'README.md を {type} のまま返しました。tool_result の content は文字列です。バイナリ（"rb"）ではなく open(target, encoding="utf-8") で開いて、文字列を返します',
            'It returned README.md as {type}; a tool_result\'s content is a string. Open it as text, not binary ("rb"): open(target, encoding="utf-8"), and return a str',
        ),
        "lesson.l6.read_file.limit": (
            "5,500 文字のファイルに {length} 文字を返しました。返すのは先頭 2000 文字です（f.read(2000)）",
            "A 5,500-character file gave {length:characters}; return the first 2000 (f.read(2000))",
        ),
        "lesson.l6.read_file.returned_refusal": (
            "外へのパスに、例外ではなく値（{got}）を返しました。値を返すと、モデルには読めたように見えます。raise PermissionError(...) で拒否します",
            "A path outside got a value back ({got}), not an exception, so the model sees a file that was read; refuse with raise PermissionError(...)",
        ),
        "lesson.l6.read_file.not_permission": (
            "外へのパスを拒否しましたが、例外が OSError の仲間ではありません（{error}）。raise PermissionError(...) で拒否します（次のセルの try_read は OSError を受け止めます）",
            "A path outside was refused with an exception that is not an OSError ({error}); refuse with raise PermissionError(...) (try_read in the next cell catches OSError)",
        ),
        "lesson.l6.read_file.path_root": (
            'root を Path で渡すと読めませんでした（{error}）。ノートブックは LAB / "project" のような Path を渡します。root と path は文字列の + ではなく Path(root) / path でつなぎます',
            'It could not read with root given as a Path ({error}); the notebook passes Paths like LAB / "project". Join root and path with Path(root) / path, not string +',
        ),
        "lesson.l6.read_file.inner_path": (
            "docs/../docs/a.md のような、内側に留まるパスも読めるようにします",
            "A path that stays inside, like docs/../docs/a.md, should read",
        ),
        "lesson.l6.read_file.root_link": (
            "ルートがリンクのとき、内側の README.md を読めませんでした。ルートと行き先の両方を Path.resolve() でそろえてから比べます",
            "When the root is a link, README.md inside it did not read; resolve both the root and the target with Path.resolve() before comparing",
        ),
        "lesson.l6.read_file.escaped": (
            "{path} でルートの外の秘密が読めてしまいました",
            "{path} read a secret outside the root",
        ),
        "lesson.l6.read_file.sibling": (
            "../project-secrets/key.txt（ルート project の隣のフォルダー）が読めました。文字列の前方一致では project-secrets も project で始まります。パスの部品で比べます（target.is_relative_to(base)）",
            "../project-secrets/key.txt (a folder beside the root project) was read: as a string, project-secrets starts with project too. Compare path parts (target.is_relative_to(base))",
        ),
        "lesson.l6.read_file.link": (
            "{path}（外を指すリンク）から秘密が読めました。比べる前に、Path.resolve() でリンクをたどった本当の行き先を求めます",
            "{path} (a link pointing outside) read the secret; resolve the real target with Path.resolve() before comparing",
        ),
        # the capstone: my_agent
        "lesson.capstone.p1": (
            "許可した宛先へ、承認を得てから1回だけ送る",
            "it sends once to an allowed host, after a yes",
        ),
        "lesson.capstone.p2": (
            "承認がない・「いいえ」なら送らず、is_error の結果がモデルに届く",
            "with no approver or a no, nothing is sent and the model gets an is_error result",
        ),
        "lesson.capstone.p3": (
            "ポリシーにない宛先へは、承認されても送らない（見た目の似た URL も）",
            "a host the policy does not allow gets nothing, even after a yes (look-alike URLs too)",
        ),
        "lesson.capstone.p4": (
            "同じ送信を繰り返すモデルは弁3で止まり、送るのは1回だけ",
            "a model that posts the same thing again is stopped by valve 3: one send",
        ),
        "lesson.capstone.signature": (
            "my_agent(client, user_input, send, approve) の形で呼べませんでした（{error}）",
            "my_agent could not be called as my_agent(client, user_input, send, approve) ({error})",
        ),
        "lesson.capstone.not_generator": (
            "my_agent が run_agent のジェネレーターを返していません（{got}）。return run_agent(...) で返します",
            "my_agent did not return the run_agent generator (got {got}); return run_agent(...)",
        ),
        "lesson.capstone.no_end": (
            "my_agent のジェネレーターが、終わりの値なしで終わりました（{got}）。yield from だけでは run_agent の終わりの値が返りません。"
            "return run_agent(...)（または return (yield from run_agent(...))）と書きます",
            "my_agent's generator ended without an end value (got {got}); yield from alone drops run_agent's end value. "
            "Write return run_agent(...) (or return (yield from run_agent(...)))",
        ),
        "lesson.capstone.get_time_missing": (
            'get_time が配線されていません（tools に GET_TIME がないか、impls に "get_time" がありません）。モデルは時刻を見てから送ります。run_agent には両方のツールを渡します',
            'get_time is not wired (GET_TIME missing from the tools, or "get_time" from the impls); the model checks the time before it sends, so give run_agent both tools',
        ),
        "lesson.capstone.not_defined": (
            "モデルに渡すツールの定義に http_post がありません。tools に HTTP_POST を足します",
            "The tool definitions sent to the model lack http_post; add HTTP_POST to the tools",
        ),
        "lesson.capstone.approve_not_passed": (
            "http_post は許可されるはずなのに、approve は一度も尋ねられず、弁4 が断りました。my_agent が受け取った approve を run_agent(..., approve) に渡します",
            "http_post should have been allowed, but approve was never asked and valve 4 said no; pass the approve my_agent was given on to run_agent(..., approve)",
        ),
        "lesson.capstone.own_code_failed": (
            "承認されたのに送れませんでした。http_post の中のあなたのコードが例外を出し、それがツールの失敗としてモデルに届いています（{result}）。例外の出た行の、名前や属性のつづりを直します",
            "It was approved, yet nothing was sent: your own code inside http_post raised, and the model was told the tool failed ({result}). Fix the spelling of the name or attribute on the line that raised",
        ),
        "lesson.capstone.not_sent": (
            '承認されたのに、許可した宛先へ送りませんでした（モデルに届いた結果: {result}）。http_post の中で send(url, body) を呼び、impls に "http_post" を足します',
            'It was approved but nothing went to the allowed host (the model got: {result}); call send(url, body) inside http_post and add "http_post" to the impls',
        ),
        "lesson.capstone.sent_wrong": (
            "送ったものが、モデルが頼んだものと違います（{sent}）。url と body をそのまま send に渡します",
            "What was sent differs from what the model asked for ({sent}); pass url and body to send unchanged",
        ),
        "lesson.capstone.not_asked": (
            "尋ねずに送りました。http_post は高インパクトなツールなので、run_agent の弁4が実行の前に尋ねます。approve をそのまま run_agent に渡します",
            "It sent without asking: http_post is high-impact, so run_agent's valve 4 asks before it runs. Pass approve on to run_agent",
        ),
        "lesson.capstone.sent_without_approver": (
            "approve がないのに送りました。尋ねる相手がいなければ断ります（run_agent の弁4）",
            "It sent though approve was None; with nobody to ask, deny (run_agent's valve 4)",
        ),
        "lesson.capstone.sent_denied": (
            "approve が「いいえ」と答えたのに送りました",
            "approve said no, yet it sent",
        ),
        "lesson.capstone.yes_kept": (
            "前の実行で「はい」と言われた http_post を、次の実行では「いいえ」なのに送りました。承認を関数の外（モジュールの変数）に覚えていませんか。"
            "承認はその実行の approve に、呼び出しのたびに尋ねます",
            "After one run said yes to http_post, the next run sent it although its approve said no; is the yes kept outside the "
            "function (a module-level variable)? Ask that run's approve for every call",
        ),
        "lesson.capstone.checked_after_send": (
            "ポリシーにない {url} を断りましたが、断る前に send で送っていました。宛先を確かめてから、send を呼びます",
            "It refused {url}, which the policy does not allow, but only after send had sent it; check the host first, then call send",
        ),
        "lesson.capstone.failure_hidden": (
            "送信に失敗した（send が例外を出した）のに、http_post の tool_result が is_error になっていません（モデルに届いた結果: {result}）。"
            "モデルは送れたと読んで、ユーザーに「送りました」と答えます。http_post の中で send の例外を捕まえて文字列を返さず、"
            "そのまま上げて run_agent に is_error の結果を作らせます",
            "The send failed (send raised), yet http_post's tool_result is not is_error (the model got: {result}). "
            "The model reads it as sent and tells the user it went out. Do not catch send's exception in http_post and "
            "return a string: let it propagate, so run_agent makes an is_error result",
        ),
        "lesson.capstone.denied_not_error": (
            "送らなかった http_post に、is_error の tool_result が返っていません",
            "The http_post that was not sent got no is_error tool_result",
        ),
        "lesson.capstone.lookalike_sent": (
            "ポリシーにない {url} へ送ってしまいました。文字列の前方一致や「含む」では、見た目の似た URL が通ります。urllib.parse.urlsplit(url).hostname を ALLOWED_HOSTS と比べます",
            "It sent to {url}, which the policy does not allow: a string prefix or 'contains' test lets look-alike URLs through. Compare urllib.parse.urlsplit(url).hostname with ALLOWED_HOSTS",
        ),
        "lesson.capstone.refusal_not_error": (
            "断った送信の結果に is_error がありません。ポリシーで断るときは例外を投げ、is_error の結果にします",
            "A refused send's result lacks is_error; raise in http_post so the refusal becomes an is_error result",
        ),
        "lesson.capstone.kept_between_runs": (
            "同じカーネルで2回目に走らせると、承認された許可先への送信を送りませんでした（モデルに届いた結果: {result}）。"
            "1回目の実行から何か（送ったものを覚えておく集合やフラグなど）が残り、送信を止めています。my_agent は実行と実行のあいだに何も持ち越しません。"
            "1回の実行の中で同じ呼び出しを繰り返すのは、弁3（無進捗検知）が止めます",
            "Run a second time in the same kernel, it did not send the approved post to the allowed host (the model got: {result}): "
            "something kept from the first run (a set of what was sent, a flag) held it back. my_agent carries nothing from one run "
            "to the next; the same call repeated within a run is valve 3's (no-progress detection) to stop",
        ),
        "lesson.capstone.sent_again": (
            "同じ送信を {count} 回しました。弁3（無進捗検知）が、同じ呼び出しの2回目を実行の前に止めます。my_agent は run_agent を通して走らせます",
            "It sent the same thing {count:times}; valve 3 (no-progress detection) stops the second identical call before it runs. Run my_agent through run_agent",
        ),
        # the steps behind lessons.hint(name)
        "lesson.hint.none": (
            "{name} の手順のヒントはありません。参考実装は {show} で読めます",
            "There are no steps for {name}; read the reference with {show}",
        ),
        "lesson.hint.signature_of": (
            "手順:\n"
            '  1. content のうち block.type == "tool_use" のブロックだけを使う（id は入れない。ターンごとに変わるから）\n'
            '  2. それぞれを f"{{block.name}}({{json.dumps(block.input, ensure_ascii=False, sort_keys=True)}})" にする\n'
            '  3. sorted で並べ替えてから " | ".join でつなぐ',
            "Steps:\n"
            '  1. use only the blocks whose block.type == "tool_use" (leave the id out: it changes every turn)\n'
            '  2. make each f"{{block.name}}({{json.dumps(block.input, ensure_ascii=False, sort_keys=True)}})"\n'
            '  3. sort them, then join with " | "',
        ),
        "lesson.hint.run_tool_uses": (
            "手順:\n"
            "  1. content の tool_use を1つずつ（tool_use 以外のブロックは飛ばす）\n"
            "  2. 名前が HIGH_IMPACT にあり、approve(block.name, block.input) が False なら、実行せずに\n"
            '     {{"type": "tool_result", "tool_use_id": block.id, "content": 断った理由, "is_error": True}} を足して次へ\n'
            "  3. それ以外は try の中で impls[block.name](**block.input) を実行し、出力を文字列にした結果を足す\n"
            "  4. 例外は is_error の結果に。最後に、呼び出しの順のリストを返す",
            "Steps:\n"
            "  1. take the tool_use blocks of content one by one (skip every other block)\n"
            "  2. when the name is in HIGH_IMPACT and approve(block.name, block.input) is False, do not run it:\n"
            '     add {{"type": "tool_result", "tool_use_id": block.id, "content": why, "is_error": True}} and go on\n'
            "  3. otherwise run impls[block.name](**block.input) inside try and add its output as text\n"
            "  4. an exception becomes an is_error result; return the list in call order",
        ),
        "lesson.hint.read_file": (
            "手順:\n"
            "  1. base = Path(root).resolve()（ルート自身もリンクかもしれない）\n"
            "  2. target = (base / path).resolve()（リンクを最後までたどった本当の行き先）\n"
            "  3. target.is_relative_to(base) でなければ PermissionError（文字列の startswith は使わない）\n"
            '  4. open(target, encoding="utf-8") で開いて、read(2000) を返す',
            "Steps:\n"
            "  1. base = Path(root).resolve() (the root itself may be a link)\n"
            "  2. target = (base / path).resolve() (the real place, every link followed)\n"
            "  3. unless target.is_relative_to(base), raise PermissionError (no string startswith)\n"
            '  4. open(target, encoding="utf-8") and return read(2000)',
        ),
        "lesson.hint.run_agent6": (
            "手順（レッスン2の run_agent から）:\n"
            "  1. turns, tokens_used, last_signature = 0, 0, None。最初の応答のあと tokens_used に input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens を足す（キャッシュのフィールドが None なら 0 として）\n"
            '  2. step = next_step(response) とし、while step in ("run_tools", "resend"): で回る\n'
            "  3. 本体の先頭で 弁1 turns >= MAX_TURNS、弁2 tokens_used >= TOKEN_BUDGET なら return lessons.stopped(...)。それから turns += 1\n"
            '  4. step が "run_tools" なら 弁3: signature_of(response.content) が last_signature と同じなら止める。\n'
            "     違えば覚えて、弁4 run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n"
            '  5. assistant に response.content をそのまま足し、結果があれば user に足す（"resend" なら assistant だけ）\n'
            "  6. yield lessons.turn(turns, response, results)。送り直して tokens_used を足し、step = next_step(response)\n"
            '  7. ループを抜けたら、step が "finish" なら return lessons.finished(response, turns, tokens_used)、\n'
            "     それ以外は return lessons.stopped(response.stop_reason, 停止メッセージ, turns, tokens_used)",
            "Steps (from lesson 2's run_agent):\n"
            "  1. turns, tokens_used, last_signature = 0, 0, None; after the first response add input_tokens + cache_creation_input_tokens + cache_read_input_tokens + output_tokens to tokens_used (a None cache field as 0)\n"
            '  2. step = next_step(response); loop while step in ("run_tools", "resend"):\n'
            "  3. at the top: valve 1 turns >= MAX_TURNS, valve 2 tokens_used >= TOKEN_BUDGET: return lessons.stopped(...); then turns += 1\n"
            '  4. when step is "run_tools", valve 3: stop if signature_of(response.content) equals last_signature;\n'
            "     else keep it, and valve 4: run_tool_uses(response.content, tool_impls, approve or (lambda name, given: False))\n"
            '  5. append response.content as the assistant message, the results (if any) as the user message ("resend": assistant only)\n'
            "  6. yield lessons.turn(turns, response, results); send again, add the tokens, step = next_step(response)\n"
            '  7. after the loop: step "finish" returns lessons.finished(response, turns, tokens_used),\n'
            "     anything else lessons.stopped(response.stop_reason, message, turns, tokens_used)",
        ),
        "lesson.hint.my_agent": (
            "手順:\n"
            "  1. my_agent の中に def http_post(url, body): を書く\n"
            "  2. host = urllib.parse.urlsplit(url).hostname が ALLOWED_HOSTS になければ PermissionError（文字列の前方一致は使わない）\n"
            '  3. あれば send(url, body) を呼んで "送信しました" を返す\n'
            '  4. return run_agent(client, user_input, [GET_TIME, HTTP_POST], {{"get_time": get_time, "http_post": http_post}}, approve)\n'
            "     （http_post は HIGH_IMPACT にあるので、弁4が実行の前に approve に尋ねる）",
            "Steps:\n"
            "  1. inside my_agent, write def http_post(url, body):\n"
            "  2. unless host = urllib.parse.urlsplit(url).hostname is in ALLOWED_HOSTS, raise PermissionError (no string prefix test)\n"
            '  3. otherwise call send(url, body) and return "sent"\n'
            '  4. return run_agent(client, user_input, [GET_TIME, HTTP_POST], {{"get_time": get_time, "http_post": http_post}}, approve)\n'
            "     (http_post is in HIGH_IMPACT, so valve 4 asks approve before it runs)",
        ),
    }
)
