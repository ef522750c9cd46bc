"""The ``anthropic-beta`` header: a name the API does not know is a 400 offline as live, not ignored."""

import anthropic
import pytest

from harness_lab.emulator import emulated_client, emulator_of, say

REQUEST = {"model": "claude-sonnet-5", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}]}
UNEXPECTED = (
    "Unexpected value(s) {} for the `anthropic-beta` header. "
    "Please consult our documentation at docs.claude.com or try again without the header."
)


def test_a_misspelt_beta_is_refused_and_names_every_unknown_value_in_order():
    client = emulated_client([say("ok")], max_retries=0)
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.beta.messages.create(
            **REQUEST, betas=["context-management-2025-06-72", "compact-2026-01-12", "no-such-beta"]
        )
    body = caught.value.body
    assert body["error"] == {
        "details": None,
        "type": "invalid_request_error",
        "message": UNEXPECTED.format("`context-management-2025-06-72`, `no-such-beta`"),
    }
    assert body["request_id"] == caught.value.response.headers["request-id"]
    with pytest.raises(anthropic.BadRequestError, match="no-such-beta"):
        client.beta.messages.count_tokens(model=REQUEST["model"], messages=REQUEST["messages"], betas=["no-such-beta"])


def test_the_betas_the_course_sends_and_the_sdk_adds_are_taken():
    client = emulated_client([say("ok")], max_retries=0)
    betas = ["context-management-2025-06-27", "compact-2026-01-12", "task-budgets-2026-03-13"]
    assert client.beta.messages.create(**REQUEST, betas=betas).stop_reason == "end_turn"
    with client.beta.messages.stream(**REQUEST, betas=betas) as stream:
        assert stream.get_final_text() == "ok"
    runner = client.beta.messages.tool_runner(**REQUEST, tools=[])  # its server-held thread has its own beta
    assert [m.stop_reason for m in runner] == ["end_turn"]
    assert len(emulator_of(client).requests) == 3


@pytest.mark.parametrize("field", [{"mcp_servers": []}, {"fallbacks": []}, {"billing_policy": {"type": "standard"}}])
def test_a_beta_only_parameter_without_any_beta_header_is_one_the_api_does_not_know(field):
    # Public reports of the live 400: a gateway that dropped the caller's anthropic-beta header got
    # "<field>: Extra inputs are not permitted" for the body fields those betas gate (mnfst/llm-gateway
    # #2910; ericc-ch/copilot-api #217, "the 400 is just the missing beta header").
    client = emulated_client([say("ok"), say("ok")], max_retries=0)
    (name,) = field
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.beta.messages.create(**REQUEST, **field)
    assert caught.value.body["error"]["message"] == f"{name}: Extra inputs are not permitted"
    assert client.beta.messages.create(**REQUEST, **field, betas=["mcp-client-2025-11-20"]).content
