"""The words of a mistake in the public API or the command line, ja and en: each error is raised where the
mistake is made (``checks.py``, the tools' and valves' own checks, argparse's messages) and says what to write
instead. ``text.py`` serves them beside the core's (catalog.py).
"""

from __future__ import annotations

# key -> (ja, en)
USAGE: dict[str, tuple[str, str]] = {
    # argparse's own words, in the language in use (command_line.py)
    "usage.args.usage": ("使い方: ", "usage: "),
    "usage.args.positionals": ("引数", "positional arguments"),
    "usage.args.options": ("オプション", "options"),
    "usage.args.help": ("このヘルプを表示して終わります", "show this help message and exit"),
    "usage.args.not_language": (
        "ja（日本語）か en（英語）を指定してください: {text}",
        "must be ja (Japanese) or en (English): {text}",
    ),
    "usage.args.error": ("{prog}: エラー: {message}", "{prog}: error: {message}"),
    "usage.args.required": ("次の引数が必要です: {names}", "the following arguments are required: {names}"),
    "usage.args.unrecognized": ("知らない引数です: {names}", "unrecognized arguments: {names}"),
    "usage.args.expected_one": ("{name} には値が1つ必要です", "argument {name}: expected one argument"),
    "usage.args.choice": (
        "引数 {name}: {value} はありません。{choices} のどれかを指定してください",
        "argument {name}: invalid choice: {value} (choose from {choices})",
    ),
    "usage.args.argument": ("引数 {name}: {message}", "argument {name}: {message}"),
    "usage.seconds": (
        "秒数には正の数を指定してください: {text}",
        "must be a positive number of seconds: {text}",
    ),
    "usage.client": (
        'client には anthropic.Anthropic のクライアントを渡してください（例: client = hl.connect("lesson6")）。渡されたのは {got} です',
        'client must be an anthropic.Anthropic client (e.g. client = hl.connect("lesson6")), not {got}',
    ),
    "usage.valves": (
        "valves には制御弁のリストを渡してください（例: valves=[hl.MaxTurns(8), hl.Approval()]）。渡されたのは {got} です",
        "valves must be a list of valves (e.g. valves=[hl.MaxTurns(8), hl.Approval()]), not {got}",
    ),
    "usage.valve_class": (
        "{name} はクラスのままです。valves=[{name}(...)] のように、呼び出して作った制御弁を渡してください",
        "{name} is the class itself; pass a valve made from it, as in valves=[{name}(...)]",
    ),
    "usage.valve": (
        "{got} は制御弁ではありません。制御弁は name・step・check(state)・reading(state) を持つもの（hl.MaxTurns(8)、hl.TokenBudget(40_000)、hl.NoProgress()、hl.Approval()）です",
        "{got} is not a valve; a valve has name, step, check(state) and reading(state) (hl.MaxTurns(8), hl.TokenBudget(40_000), hl.NoProgress(), hl.Approval())",
    ),
    "usage.max_tokens": (
        "max_tokens は 1 以上の整数です（渡されたのは {got}）。1回の応答の上限で、実行全体の予算は valves=[hl.TokenBudget(...)] で決めます",
        "max_tokens must be a whole number >= 1 (got {got}); it caps one response, the run's budget is valves=[hl.TokenBudget(...)]",
    ),
    "usage.valve_step": (
        "制御弁 {name} の step {step} はループのどの場所でもありません。{steps} のどれかにしてください（綴りが違うと、その弁は一度も呼ばれません）",
        "Valve {name} has step {step}, which is no place in the loop; use one of {steps} (with a misspelt step, the valve would never be called)",
    ),
    "usage.text": (
        "{what} には文字列を渡してください。渡されたのは {got} です",
        "{what} takes strings, not {got}",
    ),
    "usage.fork_at": (
        "at={at} のターンはありません。この Run で終わったターンは {turns} 個です（at は 1 から {turns} まで）",
        "There is no turn at={at}; this Run has {turns:completed turns} (at runs from 1 to {turns})",
    ),
    "usage.fork_ids": (
        "{ids} は、ターン {at} までの tool_use の id ではありません（使える id: {known}）",
        "{ids} are not tool_use ids of the turns up to {at} (known ids: {known})",
    ),
    "usage.tier": (
        '段階 {got} はありません。{tiers} のどれかにしてください（"alow" のような綴りの誤りが allow として通ってしまわないよう、ここで止めます）',
        'There is no tier {got}; use one of {tiers} (a typo such as "alow" must not pass as allow)',
    ),
    "usage.whole_number": (
        "{what} には {minimum} 以上の整数を渡してください。渡されたのは {got} です",
        "{what} must be a whole number >= {minimum}, not {got}",
    ),
    "usage.budget_usd": (
        "TokenBudget の usd には 0 より大きいドル額（数値）を渡してください。渡されたのは {got} です",
        "TokenBudget usd must be a number of dollars > 0, not {got}",
    ),
    "usage.not_utf8": (
        "{got} に UTF-8 にできない文字（対になっていないサロゲート）が入っています。そのままでは JSON として送れず、会話履歴に入るとこの先のリクエストがすべて失敗するので、受け付けません",
        "{got} holds a character that is not valid UTF-8 (a lone surrogate); it cannot be sent as JSON, and in the history it would make every later request fail, so it is refused",
    ),
    "usage.option": (
        "{name} は run() の引数ではありません（使えるのは {known}）。{hint}",
        "{name} is not an argument of run() (it takes {known}). {hint}",
    ),
    "usage.option_valve": (
        "それは制御弁の役目です: valves=[{valve}]",
        "That is a valve's job: valves=[{valve}]",
    ),
    "usage.prompt": (
        "プロンプトには空でない文字列（またはコンテンツブロックの空でないリスト）を渡してください。渡されたのは {got} です",
        "The prompt must be a non-empty string (or a non-empty list of content blocks), not {got}",
    ),
    "usage.steer": (
        "steer() には空でない文字列を渡してください。渡されたのは {got} です",
        "steer() takes a non-empty string, not {got}",
    ),
    "usage.running": (
        "この Run は途中です（動いている generator か、保留中の応答があります）。続けるなら run.resume()、指示を足すなら run.steer(text) のあと run.resume()、別の会話なら新しい Run を作ってください",
        "This Run is still under way (a generator is running or a response is held back). Continue with run.resume(), add an instruction with run.steer(text) then run.resume(), or make a new Run for a new conversation",
    ),
    "usage.not_started": (
        "この Run はまだ始まっていません。先に run.start(prompt) を呼んでください",
        "This Run has not started yet; call run.start(prompt) first",
    ),
    "usage.approve": (
        'approve には ApprovalRequest を受け取って allow() / deny("理由") / True / False を返す関数を渡してください。渡されたのは {got} です',
        'approve must be a function that takes an ApprovalRequest and returns allow() / deny("why") / True / False, not {got}',
    ),
    "usage.decision": (
        'Decision の allowed は True か False にしてください（許可は hl.allow()、拒否は hl.deny("理由")）。渡されたのは {got} です',
        'Decision\'s allowed must be True or False (hl.allow() to allow, hl.deny("why") to deny), not {got}',
    ),
    "usage.not_a_block": (
        "{kind} は内容ブロックではありません。response.content の要素か、type を持つ dict を渡してください",
        "{kind} is not a content block: pass an item of response.content or a dict with a type",
    ),
    "usage.record_needs_key": (
        "実際の実行を記録するには ANTHROPIC_API_KEY（または api_key=...）が必要です",
        "Recording a live run needs ANTHROPIC_API_KEY (or api_key=...)",
    ),
    "usage.decision_reason": (
        "Decision の reason は文字列にしてください。渡されたのは {got} です",
        "Decision's reason must be a string, not {got}",
    ),
    "usage.tools": (
        "tools にはツールのリストを渡してください（例: tools=[hl.get_time]）。渡されたのは {got} です",
        "tools must be a list of tools (e.g. tools=[hl.get_time]), not {got}",
    ),
    "usage.max_turns_zero": (
        "MaxTurns(0) では、モデルが頼んだツールを1つも実行できません。0 は「上限なし」ではありません。上限は 1 以上の整数で、上限なしで回すなら valves から MaxTurns を外します",
        "MaxTurns(0) would let no tool the model asks for run: 0 does not mean no limit. The limit is a whole number of at least 1; to run without one, leave MaxTurns out of valves",
    ),
    "usage.tool_maker": (
        "{name} はツールを作る関数で、ツールそのものではありません。呼び出して、できたツールを渡してください（例: tools=[hl.{name}()]）",
        "{name} makes a tool; it is not one itself. Call it and pass the tool it returns (e.g. tools=[hl.{name}()])",
    ),
    "usage.model": (
        'model にはモデル名の文字列を渡してください（例: model="claude-sonnet-5"。省けば HARNESS_LAB_MODEL か既定のモデル）。渡されたのは {got} です',
        'model must be a model name, a string (e.g. model="claude-sonnet-5"; leave it out for HARNESS_LAB_MODEL or the default), not {got}',
    ),
    "usage.tool_not_callable": (
        "ツールには関数を渡してください。{got} は呼び出せません（組み込みなら hl.read_file のように関数そのもの、自作なら @hl.tool を付けた関数を渡します）",
        "A tool must be a function; {got} is not callable (pass the function itself, like hl.read_file, or one decorated with @hl.tool)",
    ),
    "usage.tool_generator": (
        "ツール {name} はジェネレーター関数です。ツールの結果は1つの値なので、yield ではなく return で返してください",
        "The tool {name} is a generator function; a tool result is one value, so return it instead of yielding",
    ),
    "usage.tool_name": (
        'ツール名 {name} は API が受け付けません（英数字・_・- で 1〜64 文字）。@hl.tool(name="my_tool") のように名前を付けてください',
        'The API does not accept the tool name {name} (1-64 letters, digits, _ or -); name it with @hl.tool(name="my_tool")',
    ),
    "usage.tool_duplicate": (
        'ツール名 {name} が2つあります。API は同じ名前のツールを受け付けないので、片方に @hl.tool(name="...") で別の名前を付けてください',
        'Two tools are named {name}; the API refuses duplicate names, so rename one with @hl.tool(name="...")',
    ),
    "usage.annotation": (
        "ツール {tool} の引数 {param} の型 {annotation} は JSON で受け渡せません。str / int / float / bool / list / dict / Literal[...] / Optional[...] にするか、@hl.tool(input_schema={{...}}) でスキーマを直接書いてください",
        "Parameter {param} of tool {tool} is annotated {annotation}, which JSON cannot carry; use str / int / float / bool / list / dict / Literal[...] / Optional[...], or write the schema with @hl.tool(input_schema={{...}})",
    ),
    "usage.annotation_unresolved": (
        "ツール {tool} の型注釈を解決できません（{error}）。その型を import するか、@hl.tool(input_schema={{...}}) でスキーマを直接書いてください",
        "The annotations of tool {tool} cannot be resolved ({error}); import the type, or write the schema with @hl.tool(input_schema={{...}})",
    ),
    "usage.script": (
        'エミュレーターのシナリオには、シナリオ名（例: "lesson6"）、返答のリスト（say(...) / call(...) / reply(...)）、リクエストを受け取って返答を返す関数、Emulator のどれかを渡してください。渡されたのは {got} です',
        'An emulator scenario is a scenario name (e.g. "lesson6"), a list of replies (say(...) / call(...) / reply(...)), a function from request to reply, or an Emulator, not {got}',
    ),
    "usage.script_empty": (
        '返答のリストが空です。エミュレーターには返答を1つ以上渡してください（例: [say("こんにちは")]）',
        'The list of replies is empty: the emulator needs at least one reply (e.g. [say("Hello")])',
    ),
    "usage.policy": (
        'Policy にはツール名 → 段階（"allow" / "ask" / "deny"）の dict を渡してください（例: hl.Policy({{"write_file": "ask"}})）。渡されたのは {got} です',
        'Policy takes a dict of tool name -> tier ("allow" / "ask" / "deny"), e.g. hl.Policy({{"write_file": "ask"}}), not {got}',
    ),
    "usage.language": (
        'use_language には "ja" か "en" を渡してください（例: hl.use_language("en")）。渡されたのは {got} です',
        'use_language takes "ja" or "en" (e.g. hl.use_language("en")), not {got}',
    ),
    "usage.approval_policy": (
        'Approval の policy には hl.Policy(...) を渡してください（例: hl.Approval(hl.Policy({{"write_file": "ask"}}))）。渡されたのは {got} です',
        'Approval\'s policy must be an hl.Policy(...) (e.g. hl.Approval(hl.Policy({{"write_file": "ask"}}))), not {got}',
    ),
    "usage.approver": (
        'approver には ApprovalRequest を受け取って allow() / deny("理由") / True / False を返す関数を渡してください。渡されたのは {got} です',
        'approver must be a function that takes an ApprovalRequest and returns allow() / deny("why") / True / False, not {got}',
    ),
}
