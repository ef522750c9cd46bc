"""Prompt caching as the docs describe it, so a cached run costs visibly less (lesson 6's cost valve).

A ``cache_control`` breakpoint (on a tool, a system block or a message block, or the top-level
one, which puts it on the last block and moves it forward as the conversation grows) asks the
server to cache the prompt up to there: tools, then system, then messages. A later request reads
the longest cached prefix it still shares, looking back up to 20 blocks from each of its own
breakpoints; what lies between that and its last breakpoint is written; the rest is plain input.
So an edit early in the history changes every prefix after it: the cache reads only up to the
edit (when a breakpoint, or the 20-block look-back, still reaches a prefix before it).

The cache lives in the ``Emulator`` (one client's server), keyed by a digest of the prefix; time
does not pass offline, so entries never expire and ``ttl`` only decides which of the two
``cache_creation`` fields a write lands in. Prefixes shorter than the model's minimum cacheable
length are neither written nor read. At most four breakpoints are allowed per request.
"""

from __future__ import annotations

from .tokens import RequestEstimate, in_tokenizer

__all__ = ["LOOKBACK", "MAX_BREAKPOINTS", "PromptCache", "too_many_breakpoints", "ttl_error", "usage", "wants_cache"]

MAX_BREAKPOINTS = 4
LOOKBACK = 20  # blocks the server looks back from a breakpoint for an earlier cached prefix


def too_many_breakpoints(estimate: RequestEstimate) -> str | None:
    """The real 400 text when a request has more than four breakpoints (the top-level one counts:
    the docs say automatic caching takes one of the four slots)."""
    if estimate.breakpoints > MAX_BREAKPOINTS:
        return (
            f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided. Found {estimate.breakpoints}."
        )
    return None


# The live 400 (public reports, 2026): a bare marker is a 5-minute one, and the order is the prefix's.
TTL_ORDER = (
    "{path}.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control "
    "block. Note that blocks are processed in the following order: `tools`, `system`, `messages`."
)
# The prompt caching page: automatic caching over a last block whose own marker has another TTL "returns
# a 400 error". Inferred: the wording (the page quotes none).
TTL_CLASH = (
    "cache_control.ttl: the top-level cache_control (ttl='{top}') falls on {path}, "
    "whose own cache_control has ttl='{own}'"
)


def _markers_in_order(request: dict) -> list[tuple[str, dict]]:
    """Every ``cache_control`` with its block's path, tools, then system, then messages (a tool_result's
    inner blocks before the result itself)."""
    found: list[tuple[str, dict]] = []

    def take(path: str, block: object) -> None:
        if isinstance(block, dict):
            inner = block.get("content") if block.get("type") == "tool_result" else None
            for k, nested in enumerate(inner if isinstance(inner, list) else ()):
                take(f"{path}.content.{k}", nested)
            if isinstance(block.get("cache_control"), dict):
                found.append((path, block["cache_control"]))

    for i, tool in enumerate(request.get("tools") or ()):
        take(f"tools.{i}", tool)
    system = request.get("system")
    for i, block in enumerate(system if isinstance(system, list) else ()):
        take(f"system.{i}", block)
    for i, message in enumerate(request.get("messages") or ()):
        content = message.get("content") if isinstance(message, dict) else None
        for j, block in enumerate(content if isinstance(content, list) else ()):
            take(f"messages.{i}.content.{j}", block)
    return found


def _last_block_path(request: dict) -> str | None:
    messages = request.get("messages") or ()
    content = messages[-1].get("content") if messages and isinstance(messages[-1], dict) else None
    return f"messages.{len(messages) - 1}.content.{len(content) - 1}" if isinstance(content, list) and content else None


def ttl_error(request: dict) -> str | None:
    """A 1-hour breakpoint after a 5-minute one, or automatic caching with another TTL than the last
    block's own marker: the API's 400, else None."""
    markers = _markers_in_order(request)
    top = request.get("cache_control")
    if isinstance(top, dict):
        last = _last_block_path(request)
        own = next((m for path, m in markers if path == last), None)
        top_ttl = top.get("ttl") or "5m"
        if own is not None and (own.get("ttl") or "5m") != top_ttl:
            return TTL_CLASH.format(top=top_ttl, path=last, own=own.get("ttl") or "5m")
        if own is None and last is not None:
            markers.append((last, top))
    seen_short = False
    for path, marker in markers:
        ttl = marker.get("ttl") or "5m"
        if ttl == "1h" and seen_short:
            return TTL_ORDER.format(path=path)
        seen_short = seen_short or ttl == "5m"
    return None


def wants_cache(request: dict) -> bool:
    """Whether the request asks for caching anywhere (only then is the prompt's trail hashed)."""
    if request.get("cache_control") is not None:
        return True
    for tool in request.get("tools") or ():
        if isinstance(tool, dict) and tool.get("cache_control"):
            return True
    system = request.get("system")
    if isinstance(system, list) and any(isinstance(b, dict) and b.get("cache_control") for b in system):
        return True
    for message in request.get("messages") or ():
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and any(isinstance(b, dict) and b.get("cache_control") for b in content):
            return True
    return False


class PromptCache:
    """The cached prefixes one emulated server holds: digest of the prefix -> its length in tokens."""

    def __init__(self) -> None:
        self.entries: dict[bytes, int] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def use(self, estimate: RequestEstimate, min_cacheable: int, tokenizer: str = "2026") -> tuple[int, int]:
        """Serve one request: ``(cache write, cache read)`` in tokens, and remember what it wrote.

        ``min_cacheable`` is in the model's own tokens (``tokenizer``), the estimate in 2026 ones."""
        end = estimate.cached_prefix
        if in_tokenizer(end, tokenizer) < min_cacheable or not estimate.trail:
            return 0, 0
        trail = estimate.trail
        read = 0
        for at, (_tokens, _digest, marked) in enumerate(trail):
            if not marked:
                continue
            for back in range(at, max(at - LOOKBACK, -1), -1):
                tokens, digest, _ = trail[back]
                if tokens <= read:
                    break
                if digest in self.entries:
                    read = tokens
                    break
        for tokens, digest, marked in trail:
            if marked and in_tokenizer(tokens, tokenizer) >= min_cacheable:
                self.entries[digest] = tokens
        return end - read, read


def _prompt_fields(estimate: RequestEstimate, write: int, read: int) -> dict:
    """The usage fields a response reports for its prompt: uncached input, writes, reads. A write up to
    the last 1-hour breakpoint is a 1-hour write, the rest of it a 5-minute one (the docs' mixed TTLs)."""
    hour = min(max(estimate.hour_prefix - read, 0), write)
    return {
        "input_tokens": estimate.total - write - read,
        "cache_creation_input_tokens": write,
        "cache_read_input_tokens": read,
        "cache_creation": {
            "ephemeral_5m_input_tokens": write - hour,
            "ephemeral_1h_input_tokens": hour,
        },
    }


def usage(estimate: RequestEstimate, write: int, read: int, output_tokens: int, thinking: int, tokenizer: str) -> dict:
    """Usage with every field present, counted by the model's tokenizer; ``output_tokens`` includes the
    thinking tokens."""
    fields = _prompt_fields(estimate, write, read)
    if tokenizer != "2026":  # each part rounded down, the uncached input the rest: the parts still add up
        prompt = in_tokenizer(estimate.total, tokenizer)
        for key in ("cache_creation_input_tokens", "cache_read_input_tokens"):
            fields[key] = in_tokenizer(fields[key], tokenizer)
        hour = in_tokenizer(fields["cache_creation"]["ephemeral_1h_input_tokens"], tokenizer)
        fields["cache_creation"] = {
            "ephemeral_5m_input_tokens": fields["cache_creation_input_tokens"] - hour,
            "ephemeral_1h_input_tokens": hour,
        }
        fields["input_tokens"] = prompt - fields["cache_creation_input_tokens"] - fields["cache_read_input_tokens"]
        output_tokens, thinking = in_tokenizer(output_tokens, tokenizer), in_tokenizer(thinking, tokenizer)
    return {
        **fields,
        "output_tokens": output_tokens,
        "output_tokens_details": {"thinking_tokens": thinking},
        "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
        "service_tier": "standard",
        "inference_geo": "global",
    }
