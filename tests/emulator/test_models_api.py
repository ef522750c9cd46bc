"""``client.models.list()`` and ``client.models.retrieve()`` offline: the model table as the Models API lists it."""

from __future__ import annotations

import anthropic
import pytest
from anthropic._data.deprecated_models import DEPRECATED_MODELS

from harness_lab.emulator import emulated_client, say
from harness_lab.model import DEFAULT_MODEL
from harness_lab.sdk import send


@pytest.fixture
def client():
    return emulated_client([say("はい")], max_retries=0)


def test_every_listed_model_answers_with_its_listed_window_and_output(client):
    listed = list(client.models.list())
    assert DEFAULT_MODEL in [m.id for m in listed] and len({m.id for m in listed}) == len(listed)
    for info in listed:
        assert info.type == "model" and info.display_name.startswith("Claude ") and info.lifecycle != "retired"
        largest = {"model": info.id, "max_tokens": info.max_tokens, "messages": [{"role": "user", "content": "q"}]}
        assert send(client, largest).model == info.id  # streamed where the SDK wants it (sdk.py)
        with pytest.raises(anthropic.BadRequestError, match="maximum allowed number of output tokens"):
            send(client, {**largest, "max_tokens": info.max_tokens + 1})


def test_pages_follow_their_cursors_and_an_alias_gives_its_canonical_id(client):
    everything = [m.id for m in client.models.list()]
    first = client.models.list(limit=3)
    assert [m.id for m in first.data] == everything[:3] and first.has_more and first.last_id == everything[2]
    after = client.models.list(limit=3, after_id=first.last_id)
    assert [m.id for m in after.data] == everything[3:6]
    assert [m.id for m in client.models.list(limit=2)] == everything  # the SDK pages through them all
    assert client.models.retrieve("claude-haiku-4-5").id == "claude-haiku-4-5-20251001"


def test_the_sdks_deprecated_models_are_deprecated_with_their_end_date(client):
    for info in client.models.list():
        assert (info.lifecycle == "deprecated") == (info.id in DEPRECATED_MODELS)
        if info.lifecycle == "deprecated":
            assert info.retires_at is not None and str(info.retires_at.year) in DEPRECATED_MODELS[info.id]
        else:
            assert info.deprecated_at is None and info.retires_at is None  # "null while the model is active"


def test_a_deprecated_model_says_when_it_was_deprecated(client):
    # The SDK's ModelInfo: deprecated_at is "Populated for deprecated and retired models". Opus 4.5 was
    # deprecated on 2026-11-23 (the model deprecations page, as modelpin 0.5.7 read it).
    info = client.models.retrieve("claude-opus-4-5")
    assert info.lifecycle == "deprecated" and info.deprecated_at is not None
    assert (info.deprecated_at.year, info.deprecated_at.month, info.deprecated_at.day) == (2026, 11, 23)
    assert info.deprecated_at < info.retires_at


def test_an_unknown_model_or_a_bad_page_gets_the_apis_error(client):
    with pytest.raises(anthropic.NotFoundError) as caught:
        client.models.retrieve("claude-3-opus-20240229")
    assert caught.value.body["error"]["message"] == "model: claude-3-opus-20240229"
    with pytest.raises(anthropic.BadRequestError, match="limit"):
        client.models.list(limit=0)


@pytest.mark.parametrize("model", ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "claude-mythos-preview"])
def test_a_retired_model_fails_as_an_unknown_one_and_is_not_listed(client, model):
    # The model deprecations page: "Requests to retired models will fail". Sonnet 4.5 retired on
    # 2026-11-30 (its model page), Mythos Preview on 2026-06-30 (the SDK's list of deprecated models).
    ask = {"model": model, "messages": [{"role": "user", "content": "q"}]}
    for call in (lambda: client.messages.create(max_tokens=64, **ask), lambda: client.messages.count_tokens(**ask)):
        with pytest.raises(anthropic.NotFoundError) as caught:
            call()
        assert caught.value.body["error"] == {"details": None, "type": "not_found_error", "message": f"model: {model}"}
    assert model not in {m.id for m in client.models.list()}


def test_a_retired_model_stays_in_the_catalogue_listed_only_when_asked_for(client):
    # The SDK's ModelInfo: a retired model "remains in the catalogue as the historical record of its
    # retirement"; ModelListParams: "`retired` models appear only when `retired` is requested explicitly".
    # The days: the model deprecations page's "Model status" table; Sonnet 4.5's from its model page.
    info = client.models.retrieve("claude-sonnet-4-5")
    assert (info.id, info.lifecycle) == ("claude-sonnet-4-5-20250929", "retired")
    assert info.display_name == "Claude Sonnet 4.5"
    assert (info.retires_at.year, info.retires_at.month, info.retires_at.day) == (2026, 11, 30)
    assert (info.max_input_tokens, info.max_tokens, info.line) == (200_000, 64_000, "sonnet")
    opus_4 = client.models.retrieve("claude-opus-4-20250514")
    assert (opus_4.deprecated_at.month, opus_4.retires_at.month) == (4, 6)
    retired = [m.id for m in client.models.list(lifecycle=["retired"])]
    assert retired[0] == "claude-sonnet-4-5-20250929" and "claude-3-haiku-20240307" in retired
    assert {m.lifecycle for m in client.models.list(lifecycle=["retired"])} == {"retired"}
    both = [m.id for m in client.models.list(lifecycle=["active", "retired"])]
    assert DEFAULT_MODEL in both and set(retired) <= set(both)
    with pytest.raises(anthropic.NotFoundError):
        client.models.retrieve("claude-mythos-preview")  # invitation-only: not in the page's table


@pytest.mark.parametrize("stream", [False, True])
def test_a_reply_names_the_dated_id_an_alias_stands_for(client, stream):
    # A live exchange recorded by pydantic/pydantic-ai (its cassette for claude-haiku-4-5): the request
    # says "claude-haiku-4-5", the reply's model "claude-haiku-4-5-20251001".
    ask = {"model": "claude-haiku-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": "q"}]}
    if stream:
        with client.messages.stream(**ask) as events:
            assert events.get_final_message().model == "claude-haiku-4-5-20251001"
    else:
        assert client.messages.create(**ask).model == "claude-haiku-4-5-20251001"
    assert client.messages.create(**{**ask, "model": "claude-opus-4-5"}).model == "claude-opus-4-5-20251101"
    assert client.messages.create(**{**ask, "model": DEFAULT_MODEL}).model == DEFAULT_MODEL  # no dated twin


def _accepted(client, model: str, **extra) -> bool:
    ask = {"model": model, "max_tokens": 2048, "messages": [{"role": "user", "content": "q"}], **extra}
    try:
        client.beta.messages.create(**ask)
    except anthropic.BadRequestError:
        return False
    return True


def test_each_models_capabilities_say_what_its_requests_meet(client):
    # The SDK's ModelCapabilities: ThinkingTypes' "disabled" is "False exactly when a request that sends it
    # gets a 400 from this model", and so for the other keys read here.
    thinking = {
        "adaptive": {"type": "adaptive"},
        "enabled": {"type": "enabled", "budget_tokens": 1024},
        "disabled": {"type": "disabled"},
        "between_tools": {"type": "between_tools"},
    }
    compact = {"edits": [{"type": "compact_20260112"}]}
    search = {"type": "web_search_20260209", "name": "web_search"}  # its callers need programmatic tool calling
    for info in client.models.list():
        said = info.capabilities
        assert said is not None and said.thinking.supported
        for kind, config in thinking.items():
            assert getattr(said.thinking.types, kind).supported == _accepted(client, info.id, thinking=config)
        for level in ("low", "medium", "high", "xhigh", "max"):
            met = _accepted(client, info.id, output_config={"effort": level})
            assert getattr(said.effort, level).supported == met, (info.id, level)
        assert said.effort.supported == _accepted(client, info.id, output_config={"effort": "high"})
        met = _accepted(client, info.id, context_management=compact, betas=["compact-2026-01-12"])
        assert said.context_management.compact_20260112.supported == met
        assert said.code_execution.supported == _accepted(client, info.id, tools=[search])
