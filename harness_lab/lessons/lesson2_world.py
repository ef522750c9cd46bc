"""Lesson 2's scripted world, in the kernel's language: the weather a tool returns, the tool that may fail,
and the response that calls it for two cities (the checks of ``run_tools`` and the bare ``run_agent`` read it)."""

from __future__ import annotations

from functools import partial

from ..emulator import call
from ..grading.spies import Recorder
from ..text import lang
from .scenes import response_of, said, thought

__all__ = ["WEATHER", "CityNotFound", "two_cities", "weather_impls"]

# What the user asks, what the model says and what the tool returns: a hint may quote any of it. Each
# weather has a character outside ASCII, so json.dumps without ensure_ascii=False shows in both.
WEATHER = {
    "ja": {
        "大阪": {"city": "大阪", "temp": 21, "condition": "晴れ"},
        "東京": {"city": "東京", "temp": 17, "condition": "くもり"},
    },
    "en": {
        "Osaka": {"city": "Osaka", "temp": 21, "condition": "sunny ☀"},
        "Tokyo": {"city": "Tokyo", "temp": 17, "condition": "cloudy ☁"},
    },
}


_said = partial(said, "l2")


class CityNotFound(Exception):
    """What the failing weather tool raises: no KeyError or ValueError, so catching a guessed few is not enough."""


def weather_impls(rec: Recorder, fail: str | None = None) -> dict:
    spy = rec.tool("get_weather", None)
    weather = WEATHER[lang()]

    def get_weather(city: str) -> dict:
        spy(city=city)
        if city == fail:
            raise CityNotFound(f"{_said('no_city')}: {city}")
        return weather[city]

    return {"get_weather": get_weather}


def two_cities():
    osaka, tokyo = call("get_weather", city=_said("osaka")), call("get_weather", city=_said("tokyo"))
    return response_of(thought(), _said("two_cities"), osaka, tokyo)
