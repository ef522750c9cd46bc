"""Top-level parameters the schema cannot judge alone (reliability round four, issue 26 item 9).

The API refuses, with a 400, what an earlier emulator let through: a stop sequence with no
visible character, a system text block that is empty or blank, an ``inference_geo`` other than
``"us"`` and ``"global"``, a ``metadata.user_id`` longer than it stores, a ``container`` id without
the code execution tool, and base64 image data whose bytes are not the ``media_type`` it claims. Texts quoted from public reports are the API's;
the others follow its wording for the same fault elsewhere and say "inferred" (docs/api_facts.md
lists which).
"""

from __future__ import annotations

import base64
import binascii

__all__ = ["INFERENCE_GEOS", "MAX_USER_ID", "image_mismatch", "parameter_error"]

STOP_SEQUENCE_BLANK = "stop_sequences: each stop sequence must contain non-whitespace"
# Inferred: the messages' own texts for the same fault, with the system path.
SYSTEM_EMPTY = "system: text content blocks must be non-empty"
SYSTEM_BLANK = "system: text content blocks must contain non-whitespace text"
# Inferred: pydantic's max_length wording, which the API's other string limits use.
MAX_USER_ID = 256
USER_ID_TOO_LONG = f"metadata.user_id: String should have at most {MAX_USER_ID} characters"
MEDIA_MISMATCH = (
    "{path}.source.base64: The image was specified using the {claimed} media type, but the image appears to be a "
    "{actual} image"
)

# The data residency page: "Only `"us"` and `"global"` are available". The text is the live one as a
# proxy's conformance test records it (docs/api_facts.md).
INFERENCE_GEOS = ("global", "us")
GEO_UNKNOWN = "inference_geo: must be one of ['global', 'us']"

# A container is code execution's sandbox: an id sent without that tool (a loop that dropped the tool on a
# later turn but kept the reply's container) is the live 400 (docs/api_facts.md, round six).
CONTAINER_WITHOUT_TOOL = "container: Container identifier can only be provided when using the code execution tool"

# The first bytes of each image format the API takes.
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


def parameter_error(request: dict) -> str | None:
    for sequence in request.get("stop_sequences") or ():
        if not sequence.strip():
            return STOP_SEQUENCE_BLANK
    system = request.get("system")
    if isinstance(system, list):
        for block in system:
            if not block["text"]:
                return SYSTEM_EMPTY
            if not block["text"].strip():
                return SYSTEM_BLANK
    geo = request.get("inference_geo")
    if geo is not None and geo not in INFERENCE_GEOS:
        return GEO_UNKNOWN
    metadata = request.get("metadata")
    if isinstance(metadata, dict) and len(metadata.get("user_id") or "") > MAX_USER_ID:
        return USER_ID_TOO_LONG
    if isinstance(request.get("container"), str) and not _executes_code(request.get("tools") or ()):
        return CONTAINER_WITHOUT_TOOL
    return None


def _executes_code(tools) -> bool:
    return any(str(tool.get("type")).startswith("code_execution_") for tool in tools)


def _sniff(data: str) -> str | None:
    """The format the first bytes say; None when they say nothing the API checks (left alone)."""
    try:
        head = base64.b64decode(data[:32] + "=" * (-len(data[:32]) % 4), validate=False)
    except (binascii.Error, ValueError):
        return None
    for magic, media_type in _SIGNATURES:
        if head.startswith(magic):
            return media_type
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def image_mismatch(block: dict, path: str) -> str | None:
    """The 400 for an image block whose base64 bytes are another format than its media_type."""
    source = block.get("source")
    if not isinstance(source, dict) or source.get("type") != "base64":
        return None
    actual = _sniff(source.get("data") or "")
    if actual is None or actual == source.get("media_type"):
        return None
    return MEDIA_MISMATCH.format(path=path, claimed=source.get("media_type"), actual=actual)
