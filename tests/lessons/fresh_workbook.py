"""Import a saved my_harness.py in this fresh process and call every piece on real inputs (the offline
emulator, spy tools, a temporary project): print each piece's name once it ran right.

    python tests/lessons/fresh_workbook.py path/to/my_harness.py
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
from pathlib import Path

from harness_lab.emulator import call, emulated_client, say
from harness_lab.lessons import drive
from harness_lab.lessons.scenes import response_of, scene_tools

spec = importlib.util.spec_from_file_location("my_harness", sys.argv[1])
mine = importlib.util.module_from_spec(spec)
sys.modules["my_harness"] = mine
spec.loader.exec_module(mine)
held = ["run_tools", "next_step", "signature_of", "run_tool_uses", "read_file", "run_agent", "my_agent"]

two = response_of("調べます。", call("get_time"), call("write_file", path="a.md", content="x"))
impls = {"get_time": lambda: "10:42", "write_file": lambda path, content: "書きました"}
assert [r["tool_use_id"] for r in mine.run_tools(two.content, impls)] == [
    b.id for b in two.content if b.type == "tool_use"
]
print("run_tools")
assert mine.next_step(response_of("…", stop_reason="pause_turn")) == "resend"
print("next_step")
again = response_of("調べます。", call("write_file", path="a.md", content="x"), call("get_time"), prompt="次のターン")
assert mine.signature_of(two.content) == mine.signature_of(again.content) != mine.signature_of(again.content[:3])
print("signature_of")
results = mine.run_tool_uses(two.content, impls, lambda name, given: False)
assert results[1]["is_error"] is True
print("run_tool_uses")
root = Path(tempfile.mkdtemp())
(root / "README.md").write_text("# 見出し\n", encoding="utf-8")
assert mine.read_file("README.md", root=root).startswith("# 見出し")
print("read_file")
events, end = drive(
    mine.run_agent(
        emulated_client("lesson6"),
        "README.md の1行目は？",
        scene_tools(),
        {"read_file": lambda path: "# 見出し", "get_time": lambda: "10:42"},
    )
)
assert end.stop_reason == "end_turn" and len(events) == 2, end
print("run_agent")
sent = []
gen = mine.my_agent(
    emulated_client([call("http_post", url="https://hooks.example.com/x", body="日報"), say("送りました")]),
    "送って",
    lambda url, body: sent.append(url),
    lambda name, given: True,
)
drive(gen)
assert sent == ["https://hooks.example.com/x"], sent
print("my_agent")
refused = response_of(
    "お応えできません。",
    stop_reason="refusal",
    stop_details={"type": "refusal", "category": "cyber", "explanation": "理由"},
)
assert "理由" in mine.stop_message(refused) and mine.stop_message(response_of("答えです。")) is None
print("stop_message")
