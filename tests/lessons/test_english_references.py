"""An English kernel runs and shows the English twins of the references that speak (lessons.english):
the same code as the Japanese, messages in English, and the check passes them."""

from __future__ import annotations

import inspect

import pytest

from harness_lab import lessons
from harness_lab.lessons.scenes import response_of
from harness_lab.text import speaking
from notebooks.editions import code_shape

TWINNED = [p for p in lessons.ALL if p.english is not None]
JAPANESE = set(
    "あいうえおかきくけこさしすせそたちつてとなにのはまもらりるれをんアイウエオカキクケコサシスセソタチツテトンー一分止答"
)


def test_the_pieces_that_speak_have_english_twins():
    assert {(p.name, p.lesson) for p in TWINNED} >= {("run_agent", 6), ("stop_message", 7)}


@pytest.mark.parametrize("piece", TWINNED, ids=lambda p: f"{p.name}-{p.lesson}")
def test_each_english_twin_is_the_japanese_code(piece):
    ja, en = (_code(fn) for fn in (piece.japanese, piece.english))
    assert en == ja


def _code(fn) -> list[str]:
    """Its tokens, strings and comments set aside, and the trailing commas the formatter adds to a longer line."""
    texts = [tok.text for tok in code_shape(inspect.getsource(fn))]
    return [x for n, x in enumerate(texts) if not (x == "," and n + 1 < len(texts) and texts[n + 1] in ")]}")]


@pytest.mark.parametrize("piece", TWINNED, ids=lambda p: f"{p.name}-{p.lesson}")
def test_each_english_twin_passes_the_check_and_has_no_japanese(piece):
    with speaking("en"):
        assert piece.reference is piece.english and lessons.reference(piece.name, lesson=piece.lesson) is piece.english
        verdict = lessons.judge(piece, piece.reference)
    assert verdict.passed, verdict.text()
    assert not JAPANESE & set(inspect.getsource(piece.english))
    with speaking("ja"):
        assert piece.reference is piece.japanese


def test_an_english_kernel_gets_english_stop_messages():
    refused = response_of(
        "No.", stop_reason="refusal", stop_details={"type": "refusal", "category": None, "explanation": None}
    )
    with speaking("en"):
        said = lessons.use("stop_message")(refused)
    assert said == "The model declined this request (no category): no explanation given"
    with speaking("ja"):
        assert lessons.use("stop_message")(refused) == "モデルがこの依頼を断りました（分類なし）: 説明はありません"
