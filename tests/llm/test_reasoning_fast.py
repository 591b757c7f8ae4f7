"""A reply without ``<`` skips the reasoning searches: the same answer as the searches give."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from proevent.llm.reasoning import _OPEN, _THINK, _split_tags, split_reasoning, unclosed_reasoning

texts = st.text(st.sampled_from(list(" \n\t\u00a0\u2003x{}[]\"/think>reasoning:é")), max_size=40)


@given(texts)
def test_split_reasoning_without_tags_matches_the_searches(text: str) -> None:
    assert split_reasoning(text) == _split_tags(text)
    assert unclosed_reasoning(text) == (_OPEN.search(_THINK.sub("", text)) is not None)


def test_split_reasoning_with_tags_still_searches() -> None:
    assert split_reasoning("<think>why</think> {}") == ("{}", "why")
    assert split_reasoning("why</think> {}") == ("{}", "why")
    assert split_reasoning('{"ops": []}  ') == ('{"ops": []}', None)
    assert unclosed_reasoning("<think>cut") and not unclosed_reasoning("no tag")
