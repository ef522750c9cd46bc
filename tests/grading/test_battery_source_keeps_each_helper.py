"""A class sample's answer cell holds a whole battery (its modules joined, ``class_submissions.battery_source``):
a helper two modules define alike is harmless, but two different helpers under one name leave only the last,
and an earlier module's answers call the wrong one (round eighteen's ``_dict(runner)`` replaced the
policies' ``_dict(runner, answers=...)`` and three sample notebooks raised)."""

import ast

import pytest
from class_submissions import BATTERIES, battery_source


def _clashes(source: str) -> list[str]:
    seen: dict[str, str] = {}
    clashes = []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
        else:
            continue
        for name in names:
            body = ast.dump(node)
            if name in seen and seen[name] != body:
                clashes.append(name)
            seen[name] = body
    return clashes


def test_the_clash_finder_sees_two_helpers_under_one_name():
    assert _clashes("def _dict(a):\n    return a\n\ndef _dict(a, b):\n    return b\n") == ["_dict"]
    assert _clashes("def _dict(a):\n    return a\n\ndef _dict(a):\n    return a\n") == []


@pytest.mark.parametrize("exercise", sorted(BATTERIES))
def test_a_joined_battery_defines_each_name_once_or_alike(exercise):
    source = battery_source(BATTERIES[exercise].__name__)
    # the tables themselves are rebuilt on purpose (each module adds its rows to WRONG and RIGHT)
    clashes = sorted(
        {name for name in _clashes(source) if name.isupper() and name in ("WRONG", "RIGHT")} ^ set(_clashes(source))
    )
    assert clashes == [], f"{exercise}: names defined differently in two battery modules: {clashes}"
