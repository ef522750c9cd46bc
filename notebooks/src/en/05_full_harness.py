# %% [markdown] ja="246a39d9f201"
# # Lesson 6: Hand-write an agent harness with controls
#
# **Agent harness basics: loops and control** · Notebook 5 of 6
#
# Previous: [Lesson 5: Intervention and steering](04_human_in_the_loop.ipynb) | Next: the exercises, [Level 1: a tiered valve per tool](../../exercises/en/level1_tiered_policy.ipynb) and [Level 2: the gates this loop lacks](../../exercises/en/level2_missing_gate.ipynb); further: [Lesson 7: The loop on the 2026 API](06_api_2026.ipynb)
#
# **Time:** about 65 minutes (reading 30, writing and checking 26, running and predicting 7). To split it into three sittings, stop before "Write the harness" and before "Finishing touch" | **You need:** notebooks 01 to 04 (we use the pieces in `my_harness.py`; where one is missing, the reference stands in)
#
# `run_agent` from [lesson 2](01_bare_loop.ipynb), `next_step` from [lesson 3](02_stop_conditions.ipynb), `signature_of` from [lesson 4](03_runaway_fallbacks.ipynb),
# `run_tool_uses` from lesson 5. Today you weld the pieces you have written into one harness.
#
# **By the end of this notebook you can:**
#
# - give `run_agent` the four control valves, make it a generator, and name the step of the loop where each valve sits
# - confine `read_file` to its root, and explain how a string comparison or a link lets a path get out
# - step through your own harness turn by turn in the Stepper, and set it beside the package's `hl.Run`
# - wire a tool of your own under a policy, and confirm that it behaves on scenarios this notebook does not show

# %% ja="aad5a97da929"
# Where harness_lab is not installed (Colab, say), install it first (does nothing on your own machine)
import importlib.util
if importlib.util.find_spec("harness_lab") is None:
    %pip install -q "harness_lab @ git+https://github.com/harness-lab/harness_lab.git"

# %% ja="e2bfd0425782"
import harness_lab as hl
from harness_lab import lessons

hl.use_language("en")  # this notebook speaks English, whatever HARNESS_LAB_LANG says
client = hl.connect("lesson6")
print(hl.mode_line(client))

# %% [markdown] ja="8323123f9735"
# ## Where the four valves sit
#
# Today, for the first time, all four valves are in place. Valve 1 (max turns) and valve 2 (token budget) sit at `loop_top`, the top of the loop body.
# Valve 3 (no-progress detection) sits at `before_tools`, where the calls are known and none has run yet. Valve 4 (the approval valve) sits at `before_each_tool`, just before a single tool runs.

# %% ja="16e7c35a78c2"
from harness_lab.ui import Stepper, diagram

diagram()

# %% [markdown] ja="5ecc17fbc1f8"
# ## First, run it in a terminal
#
# Hand one sentence to an agent wired with two harmless toy tools (`get_time` and `read_file`). In a terminal that is
# `harness-lab run "Read the first line of README.md, then tell me the time"`. Here we run the same command with `subprocess`,
# inside a demo project made in a temporary folder (it holds a single `README.md`).

# %% ja="8db8294b4745"
import subprocess
import sys
import tempfile
from pathlib import Path

PROMPT = "Read the first line of README.md, then tell me the time"
DEMO = Path(tempfile.mkdtemp(prefix="lesson6_demo_"))  # a new temporary folder on every run
(DEMO / "README.md").write_text("# Agent harness basics\n\nA course where you write the loop and its four control valves by hand, and check them.\n",
                                encoding="utf-8")

# the same as harness-lab run "...": without --live it runs on the emulator, key or no key
done = subprocess.run([sys.executable, "-m", "harness_lab.cli", "run", PROMPT],
                      cwd=DEMO, capture_output=True, text=True, timeout=60)
print(done.stderr + done.stdout)

# %% [markdown] ja="1c325f92642d"
# How many times to call which tool, in what order, and when to wrap up: the model decided all of that inside the loop. The harness only ran the tools it named and returned the results.
# That is the difference between a **workflow**, where code fixes the path, and an **agent**, where the model picks it. `[turn 3]` is the third request to the model; the tool calls took two turns.
#
# ## Gather the pieces
#
# The functions that passed their checks are in `my_harness.py`, and `lessons.use` loads them from there (where one is missing, you get the reference).

# %% ja="00b2d8534234"
from datetime import datetime

MODEL = hl.MODEL
next_step = lessons.use("next_step")          # lesson 3: what the loop does after a response
signature_of = lessons.use("signature_of")    # lesson 4: this turn's calls as one signature
run_tool_uses = lessons.use("run_tool_uses")  # lesson 5: ask before a high-impact tool runs
MAX_TURNS = 8                                 # valve 1: max turns (lesson 3)
TOKEN_BUDGET = 40_000                         # valve 2: the running token budget (lesson 4)


def get_time():
    return datetime.now().astimezone().isoformat(timespec="seconds")


GET_TIME = {"name": "get_time", "description": "Return the current time as an ISO 8601 string",
            "input_schema": {"type": "object", "properties": {}}}
TOOLS = [GET_TIME,
         {"name": "read_file", "description": "Read the first 2000 characters of a text file in the project directory",
          "input_schema": {"type": "object", "required": ["path"],
                           "properties": {"path": {"type": "string", "description": "A path relative to the project root"}}}}]
print(get_time())

# %% [markdown] ja="985a3779871b"
# ## Confine `read_file` to its root
#
# The boundary check in the lesson text joins the path to the root, normalizes it, and checks whether the **string** starts with "root + separator" (`abs.startsWith(ROOT + sep)`).
# Port it to Python and try it in a temporary folder: put `secret.txt` outside `project/`, and make `project/link.txt` a symbolic link to it.

# %% ja="e4ac13d7514e"
import os


def read_file_startswith(path, root="."):
    # the lesson text's check: does the normalized string start with "root + separator"?
    base = os.path.abspath(root)
    target = os.path.normpath(os.path.join(base, path))  # only folds .. in the string; never looks where a link points
    if not target.startswith(base + os.sep):
        raise PermissionError(f"Refused to read a path outside the project directory: {path}")
    with open(target, encoding="utf-8") as f:
        return f.read(2000)

# %% ja="e948732a4fb8"
LAB = Path(tempfile.mkdtemp(prefix="lesson6_link_"))
(LAB / "project").mkdir()
(LAB / "project" / "README.md").write_text("# A small project\n", encoding="utf-8")
(LAB / "secret.txt").write_text("A secret outside the project: token=dummy-0000\n", encoding="utf-8")
try:
    (LAB / "project" / "link.txt").symlink_to(LAB / "secret.txt")  # a link that looks inside but points outside
except OSError as err:  # on Windows you cannot create links without the right privilege
    print("Could not create a symbolic link here:", type(err).__name__)


def try_read(read):
    for path in ["README.md", "../secret.txt", "link.txt"]:
        try:
            print(f"{path:14} → read: {read(path, root=LAB / 'project').strip()}")
        except OSError as err:
            print(f"{path:14} → refused: {err}")


try_read(read_file_startswith)

# %% [markdown] ja="6c946dd7187c"
# `../secret.txt` was refused, yet through `link.txt` the secret reads straight out. The string `.../project/link.txt` really does start with the root,
# and `open()` follows the link outside. It makes no difference whether the link was placed by a model steered by some tool output or by a careless person.
#
# **Write it yourself**: reverse the order. First follow the links all the way to find where the path really leads, then check whether that is inside the root.
# The root itself may be a link (macOS's `/tmp` is one). Compare path components, not strings:
# as a string, the neighbouring `project-secrets/` also starts with `project`.

# %% tags=["todo", "piece:read_file"] ja="962dfb4d3d28"
def read_file(path, root="."):
    # return the first 2000 characters of a file inside root; refuse a path that leads outside with PermissionError
    # If you want the steps, run lessons.hint("read_file") in another cell
    raise NotImplementedError  # ← delete this line and write your code here


# %% tags=["check"] ja="54f804ce8a9c"
from harness_lab import lessons
read_file = lessons.check("read_file", read_file)

# %% [markdown] ja="f5498a56d2bd"
# Try the same three paths, and confine the `read_file` the model calls to the demo project. An OS error message includes the absolute path,
# so the model gets back only the path it passed and the reason (the model never sees how the machine is laid out).

# %% ja="a0f7b6e8a4db"
try_read(read_file)


def read_in_demo(path):
    try:
        return read_file(path, root=DEMO)
    except OSError as err:
        raise OSError(f"cannot read {path} ({type(err).__name__})") from None  # the exception's name, not the OS's message with its absolute path


impls = {"get_time": get_time, "read_file": read_in_demo}

# %% [markdown] ja="08dd187704ec"
# ### The package closes it one step further
#
# The version that resolves first and compares afterwards still has a gap. If a directory along the way is swapped for a link between the check and the `open()`,
# `open()` goes outside (TOCTOU: the gap between time of check and time of use). The package's `read_file` (`Place.find` in `harness_lab/tools/confine.py`)
# opens the root once, then opens the path **one component at a time**, each inside the directory it opened last, without following links. Here are the key lines.

# %% ja="ea8e698868af"
import inspect

from harness_lab.tools import run_tool
from harness_lab.tools.confine import Place

WALK = {  # a line of Place.find (excerpt): what that line does
    "base = os.open(self.base": "open the root once; hold it as a descriptor (a number)",
    "while todo:": "while path components remain",
    "name = todo.pop()": "take one component",
    "here = held[-1] if held else base": "the directory we are in (a descriptor)",
    "fd = self._enter(": "open the component with O_NOFOLLOW: a link stays shut",
    "held.append(fd)": "the directory just opened is the next place we are in",
    "st = _lstat(name, here)": "the last component: its kind, links not followed",
    "yield Found(here, name, st)": "a regular file: open it in the checked directory",
    "target = os.readlink(name, dir_fd=here)": "a link: only read the string it points to",
    "todo.extend(reversed(_components(target)))": "walk its target the same way: never above the root",
}
source = inspect.getsource(Place.find).splitlines()
for needle, note in WALK.items():
    print(f"# {note}\n{next(line for line in source if needle in line)[8:]}")  # each note on a line of its own above its code: nothing stranded at a narrow screen's edge
print(run_tool(hl.make_read_file(LAB / "project"), {"path": "link.txt"}))

# %% [markdown] ja="60a725faedcd"
# ## Write the harness: `run_agent` with four valves
#
# Rewrite lesson 2's `run_agent`. Four things change from the lesson text's `runAgent`:
#
# - `next_step(response)` decides whether to go round again. The text's loop looks only at `tool_use`, so it ends on a `pause_turn` response that is only partway done
# - after each turn, pause with `yield lessons.turn(turns, response, results)` (the generator from notebook 04)
# - at the end, `return` not a string but a **value** that says how it ended (`lessons.finished(...)` or `lessons.stopped(...)`)
# - valve 2's `tokens_used` counts prompt caching's cache writes (`cache_creation_input_tokens`) and cache reads (`cache_read_input_tokens`)
#   on top of the text's `input_tokens + output_tokens`: like `hl.TokenBudget` in notebook 03, it counts every token the API counted (a `None` as 0)
#
# The check cell runs it beside the package's `Run` on the same scripted model, and compares how each stops and how many requests and tool turns each takes.
# It tries the limits rewritten to `MAX_TURNS = 3` and `TOKEN_BUDGET = 3_000` (if you take them as arguments `max_turns` and `token_budget`, it passes them there too).
# It checks valve 2's count on a model with prompt caching on, too.
# For valve 4, it checks that a high-impact tool does not run when there is no approval function or when the answer is "no".

# %% tags=["todo", "piece:run_agent"] ja="ef1865319236"
def run_agent(client, user_input, tools, tool_impls, approve=None):
    # lesson 2's loop with four valves, as a generator that yields after each turn. For the steps: lessons.hint("run_agent", lesson=6)
    #   valve 1 MAX_TURNS and valve 2 TOKEN_BUDGET at the top of the body / valve 3 signature_of / valve 4 run_tool_uses (refuse when there is no approve)
    #   when a valve stops it: return lessons.stopped("max_turns" | "token_budget" | "no_progress", stop message, turns, tokens_used)
    raise NotImplementedError  # ← delete this line and write your code here


# %% tags=["check"] ja="b4be00ac088d"
from harness_lab import lessons
run_agent = lessons.check("run_agent", run_agent, lesson=6)

# %% [markdown] ja="095fe97354bc"
# ## Step through your own harness in the Stepper
#
# Wrap it in `lessons.HandWritten` and the Stepper drives your generator one turn at a time. Instead of the `step()` calls in the cell below, you can press the panel's
# "Next turn" and "Run to end" (a hand-written loop has no `RunState`, so the panel shows only the "Conversation" tab).
# In a notebook, instead of asking a person, the approval function always refuses.

# %% ja="a05ab2f93ea4"
def approve(name, tool_input):
    print(f"[approve] {name} is a high-impact action, so it is refused without running")
    return False


mine = Stepper(lessons.HandWritten(run_agent, client, TOOLS, impls, approve), PROMPT)
mine

# %% ja="51fbdd23a2fc"
mine.step()     # turn 1: read_file
mine.run_all()  # to the end (the get_time turn goes into the panel's conversation)

# %% [markdown] ja="6aaaea6b16ba"
# ## Do the same job with the package's `hl.Run`
#
# Wrap the same two tools with `hl.tool` and run an `hl.Run` with the four valves. The gauges show turns / limit, tokens / budget, and the last signature.
#
# How the body of `hl.Run.loop` (you read it in notebook 01) lines up with your `run_agent`:
#
# | Line in `Run.loop` | In your `run_agent` |
# |---|---|
# | `s.receive(self.query())` | `client.messages.create(...)` and `tokens_used += ...` |
# | `if not self.wants_tools(response)` | `while step in ("run_tools", "resend")` (`next_step`) |
# | `self.check("loop_top")` | the `if`s of valves 1 and 2 (before `turns += 1`) |
# | `self.check("before_tools")` | valve 3's signature comparison |
# | `yield from self.run_tool_uses(response)` | `run_tool_uses(...)` (valve 4; `yield from` so it can stop to wait for approval) |
# | `s.commit(results)` | the two `messages.append` calls and `turns += 1` |
# | `yield s.turn(...)` | `yield lessons.turn(...)` |

# %% ja="c4eb573c9e9a"
toy_tools = [hl.tool(impls[d["name"]], **d) for d in TOOLS]  # the same definitions and the same code as your two tools
valves = [hl.MaxTurns(MAX_TURNS), hl.TokenBudget(TOKEN_BUDGET), hl.NoProgress(), hl.Approval()]
packaged = Stepper(hl.Run(client, toy_tools, valves), PROMPT)
packaged.run_all()
packaged

# %% [markdown] ja="7c47cc4e26f8"
# ## The bare loop, the package and your harness side by side
#
# With the same tools, hand badly behaved models (the emulator's scenarios) to three loops. The bare loop is an `hl.Run` with no valves at all.
# It never stops on its own, so the code building the table stops pulling after 30 turns (a generator does not move unless pulled).
# So that valve 2 shows, the table lowers the budget ceiling to 20,000 (it rewrites the module variables `run_agent` reads, only while the table is built).
#
# **Predict first.** A model that alternates its calls A-B-A-B (`abab`): which valve of your `run_agent` stops it, and on which request?

# %% ja="3664a6103e7d"
MY_GUESS = {"the valve that stopped it": None, "model requests": None, "tool turns": None}  # ← write your prediction (name the valve, e.g. "max_turns")

from harness_lab.emulator import emulator_of


def outcome(loop, scenario, cap=30):
    """Drive the generator loop(client, prompt) returns with scenario's model; return (how it stopped, requests, turns, tokens)"""
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
    how = f"cut off after turn {cap}" if end is None else getattr(end, "cause", None) or end.stop_reason
    return how, len(emulator_of(model).requests), turns, end.usage.total if end else tokens

# %% ja="045aff764be7"
from IPython.display import display

run_agent.__globals__.update(MAX_TURNS=8, TOKEN_BUDGET=20_000)  # lower the budget ceiling only while the table is built
LOOPS = {
    "bare loop (no valves)": lambda c, p: hl.Run(c, toy_tools, valves=[]).start(p),
    "harness_lab's Run": lambda c, p: hl.Run(c, toy_tools, [hl.MaxTurns(8), hl.TokenBudget(20_000), hl.NoProgress(), hl.Approval()]).start(p),
    "your run_agent": lambda c, p: run_agent(c, p, TOOLS, impls, approve),
}
rows, ends = ["| scenario | " + " | ".join(LOOPS) + " |", "|---" * (len(LOOPS) + 1) + "|"], {}
for scenario in ["lesson6", "never_ending", "spinning", "abab", "budget_burning", "long_task"]:
    ends[scenario] = [outcome(loop, scenario) for loop in LOOPS.values()]
    rows.append(f"| `{scenario}` | " + " | ".join(f"{h} · requests {r} · tool turns {n} · tokens {k:,}" for h, r, n, k in ends[scenario]) + " |")
run_agent.__globals__.update(MAX_TURNS=8, TOKEN_BUDGET=40_000)  # back to the lesson's values
how, requests, turns, _ = ends["abab"][-1]
guessed = lessons.compare(MY_GUESS, {"the valve that stopped it": how, "model requests": requests, "tool turns": turns})
if lessons.guessed(MY_GUESS):  # the table holds the answer: it waits for a prediction
    display({"text/markdown": "\n".join(rows), "text/plain": "\n".join(rows)}, raw=True)

# %% [markdown] ja="61c68b2353ab"
# Each cell reads "how it stopped · model requests · tool turns · tokens used".
#
# - The **bare loop** never stops unless the model wraps up. `budget_burning` went past 300,000 tokens in 30 turns.
# - In the **harness**, each runaway is caught by its own valve. `abab` changes its signature every turn and slips past valve 3, but valve 1 picks it up.
# - The package's column and yours stop at the same valve after the same number of requests (the small differences in tokens come from differently worded tool errors).
# - `long_task` is a job that **legitimately** takes 12 turns, yet valve 1 cut it off.
#
# ## Strike a balance: not every agent needs all four valves
#
# Add complexity only when it clearly improves the outcome. A small tool that runs three to five turns in a controlled environment may need nothing but valve 1.
#
# | If your agent | Add these valves |
# |---|---|
# | finishes in a few turns with harmless tools only | valve 1 (max turns), as a safety net |
# | carries a large context per turn, or runs for a long time | + valve 2 (token budget) |
# | tends to repeat the same call | + valve 3 (no-progress detection; tune it if there is legitimate polling) |
# | can write, delete or send | + valve 4 (approval; tiers per tool in exercise level 1) |
#
# Fit the limits to the size of the job, too. `MAX_TURNS = 8` is too small for `long_task`.

# %% [markdown] ja="9c7bf4ce97cf"
# ## Finishing touch: wire your own tool under a policy
#
# Last, wire one tool of your own into the harness: `http_post(url, body)`, which sends a body to a chat webhook.
# It may send only to the hosts in `ALLOWED_HOSTS` (that is its policy). A send cannot be taken back, so a person is asked before it runs (valve 4).
# `http_post` is one of the names in `HIGH_IMPACT`, so valve 4 of your `run_agent` applies as it is.
#
# Write `my_agent(client, user_input, send, approve=None)`, a function that returns the generator of a `run_agent` wired with `get_time` and your own `http_post`.
# `send(url, body)` stands in for the network and only records what was sent. The check cell also tries it on models that never appear in this notebook.
# The `[PASS]` / `[FAIL]` lines tell you what is missing. `lessons.hint("my_agent")` opens the steps.

# %% tags=["todo", "piece:my_agent"] ja="362dcc1971c9"
ALLOWED_HOSTS = {"hooks.example.com"}  # the policy: hosts it may send to
HTTP_POST = {"name": "http_post", "description": "POST a body to a URL on an allowed host",
             "input_schema": {"type": "object", "required": ["url", "body"],
                              "properties": {"url": {"type": "string"}, "body": {"type": "string"}}}}


def my_agent(client, user_input, send, approve=None):
    # write http_post(url, body) in here: only when the host is in ALLOWED_HOSTS, call send(url, body) and return "sent"
    # return the generator of run_agent(...) wired with get_time and http_post
    raise NotImplementedError  # ← delete this line and write your code here


# %% tags=["check"] ja="4e1591935220"
from harness_lab import lessons
my_agent = lessons.check("my_agent", my_agent)

# %% ja="7ad2a6e42fa0"
from harness_lab.emulator import call, say

OUTBOX = []  # what send sent (nothing is really sent)


def yes(name, tool_input):
    print(f"[approve] {name} ({tool_input['url']}) → yes")
    return True


poster = hl.connect([call("get_time"), call("http_post", url="https://hooks.example.com/daily", body="Daily report: 42 inquiries"),
                     say("I've sent the daily report.")], live=False)
events, end = lessons.drive(my_agent(poster, "Send the daily report", lambda url, body: OUTBOX.append(url), yes))
print(end.text, "/ sent:", OUTBOX)

# %% [markdown] ja="27ac77a9062d"
# ## Switch to live Claude
#
# Run `export ANTHROPIC_API_KEY=...` in a terminal and restart Jupyter, and `hl.connect("lesson6")` returns the real Claude:
# the Stepper and `hl.Run` run on the real model (the output differs from what is stored). In a terminal, use `harness-lab run --live "..."`.
# A real model cannot be made to run away on purpose, so the table always uses the emulator.

# %% ja="c9b3d7e8905d"
print(hl.mode_line(hl.connect("lesson6")))

# %% [markdown] ja="493745222d98"
# ## Try it
#
# 1. In your `run_agent`, move valve 1's check **after** `turns += 1` and run the check cell again. What numbers does the hint show?
# 2. Put 20,000 back to 40,000 in both places in the table cell and rebuild it. Which valve now stops `budget_burning`?
#
# ## Summary
#
# - The core of the harness is still lesson 2's loop. Valves 1 and 2 sit at the top of the body (`loop_top`), valve 3 before the tools (`before_tools`), valve 4 just before each tool (`before_each_tool`).
# - Make the loop a generator and you can stop and look after every turn, and return how it ended as a value. The Stepper only drives it.
# - A file boundary is judged on where the path really leads once links are followed, compared component by component. A destination URL, too, is split into parts and compared by host name.
# - Don't stack valves for their own sake. Add as many as the size and the risk of the job call for.
#
# The functions that passed their checks (from `run_tools` to `my_agent`) are in `my_harness.py`. In a new terminal, `import my_harness` and they run without the notebook.

# %% ja="fdccf9b39072"
book = lessons.workbook()
print(book.path.name, "holds:", ", ".join(book.pieces()) or "(nothing yet; each check cell you pass adds its function)")

# %% [markdown] ja="e232df5ca5a6"
# ## Check your understanding
#
# **Q1.** Put valve 1, with a limit of N, after `turns += 1`. How do the tool turns and the number of requests shift?
#
# <details><summary>Answer</summary>
#
# At the top (before `turns += 1`) it takes N tool turns and N + 1 requests. After `turns += 1` it stops on entering the Nth turn: N − 1 tool turns and N requests.
# </details>
#
# **Q2.** With a limit on turns already, why do you need a separate token budget?
#
# <details><summary>Answer</summary>
#
# Because the number of turns does not cap spending. The whole history is resent every time, so the running total grows with the square, and with a large context per turn the budget burns in few turns. In the table, `budget_burning` was stopped by the budget before it reached 8 turns.
# </details>
#
# **Q3.** What gap is still left in a `read_file` that resolves first and compares afterwards? How does the package close it?
#
# <details><summary>Answer</summary>
#
# If a directory along the way is swapped for a link between the check and reopening the path by name, `open()` follows it (TOCTOU). The package opens one component at a time from the root's descriptor, without following links, so what it checked is exactly what it opens.
# </details>
