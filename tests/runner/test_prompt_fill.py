"""The user message filled by one join of the template's cut parts equals ``Template.substitute``
for every template of every prompt version, whatever the values hold (``$``, braces, newlines)."""

from __future__ import annotations

from string import Template

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.agents.llm.prompts import PROMPT_VERSIONS, STRATEGY_TEMPLATES, _fill, _parts, load_template

NAMES = ["system", "user", "update", "repair", *STRATEGY_TEMPLATES.values()]
KEYS = ["now", "weekday", "window_start", "timetable", "chats", "user", "problems"]
values = st.text(st.sampled_from("ab $${}\n\\é"), max_size=12)


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(NAMES), version=st.sampled_from(PROMPT_VERSIONS),
       filled=st.fixed_dictionaries({k: values for k in KEYS}))
def test_fill_equals_substitute(name: str, version: str, filled: dict[str, str]) -> None:
    assert _fill(name, version, **filled) == Template(load_template(name, version)).substitute(filled)


def test_a_missing_value_is_a_key_error_as_with_substitute() -> None:
    with pytest.raises(KeyError):
        _fill("user", "v2", now="x")


def test_the_cut_keeps_escaped_dollars(monkeypatch: pytest.MonkeyPatch) -> None:
    import proevent.agents.llm.prompts as prompts

    for text in ["a $$ b ${x} c $x$$", "$x", "${x}", "no placeholder", "$$$x"]:
        monkeypatch.setattr(prompts, "_template", lambda name, version, text=text: Template(text))
        _parts.cache_clear()
        assert _fill("t", "v", x="<$>") == Template(text).substitute(x="<$>")
    monkeypatch.setattr(prompts, "_template", lambda name, version: Template("bad $ here ${x}"))
    _parts.cache_clear()
    assert _parts("t", "v") is None
    with pytest.raises(ValueError):
        _fill("t", "v", x="1")
    _parts.cache_clear()
