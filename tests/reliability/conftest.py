"""The reliability runs retry through the SDK, whose backoff (0.5 s and more after a connection error,
a 429 or a 5xx) would dominate runs that need milliseconds: every test here backs off 1 ms instead."""

import pytest


@pytest.fixture(scope="module", autouse=True)
def quick_retries():
    import anthropic._base_client as sdk_base  # only when a test runs: most files here never load the SDK

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sdk_base, "INITIAL_RETRY_DELAY", 0.001)
        yield
