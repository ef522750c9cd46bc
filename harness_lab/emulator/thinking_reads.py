"""Whose thinking blocks a model reads besides its own: a table the model table (models.py) builds each row's
``reads`` from. A block a model cannot read is dropped, not refused (docs/api_facts.md, the model table's sources).
"""

from __future__ import annotations

__all__ = ["READS"]

# Whose thinking blocks a model reads besides its own (one it cannot read is dropped, not refused). The preserved
# thinking page, "Switching models mid-conversation": Fable 5.1 and Mythos 5.1 read "each other, Claude Opus 5,
# Claude Fable 5, and Claude Mythos 5, and ... Claude Opus 4.8 and earlier Opus models, Claude Sonnet models, and
# Claude Haiku 4.5", and Opus 5.5's; Opus 5.5 reads "Claude Opus 5 and earlier Opus, Sonnet, and Haiku models";
# Sonnet 5.5 reads Sonnet 5, Opus 4.8, Haiku 4.5 and earlier, and only Opus 5.5 reads its blocks (What's new in
# Claude Sonnet 5.5). What's new in Claude Fable 5.2: "Only Claude Fable 5.2 and Claude Mythos 5.2 read Claude Fable
# 5.2 thinking blocks" (Fable 5.2 reading Mythos 5.2's is inferred, as the 5.1 pair read each other); whose older
# blocks they read, and Haiku 5.5's, no page says: their own only.
_CLAUDE_4 = ("claude-opus-4-8", "claude-opus-4-7", "claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-5")
_BEFORE_5_5 = (*_CLAUDE_4, "claude-haiku-4-5", "claude-sonnet-5")
_BEFORE_5_1 = (*_BEFORE_5_5, "claude-opus-5", "claude-fable-5", "claude-mythos-5", "claude-opus-5-5")
READS = {
    "claude-fable-5-1": (*_BEFORE_5_1, "claude-mythos-5-1"),
    "claude-mythos-5-1": (*_BEFORE_5_1, "claude-fable-5-1"),
    "claude-opus-5-5": (*_BEFORE_5_5, "claude-opus-5", "claude-sonnet-5-5"),
    "claude-sonnet-5-5": _BEFORE_5_5,
    "claude-fable-5-2": ("claude-mythos-5-2",),
    "claude-mythos-5-2": ("claude-fable-5-2",),
}
