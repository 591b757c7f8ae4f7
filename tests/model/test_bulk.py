"""The collector's scoped switches, and the lines built without validation."""

from __future__ import annotations

import gc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from proevent.agents.protocol import Action
from proevent.model import PredictionLine
from proevent.model.bulk import gc_frozen, gc_paused
from proevent.runner.core import action_to_line


def test_gc_paused_restores_the_collector_as_it_was() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block leaves it off until the outer one ends
    assert gc.isenabled()


def test_gc_frozen_freezes_for_the_block_and_leaves_an_outer_freeze_alone() -> None:
    assert gc.get_freeze_count() == 0
    keep = [object() for _ in range(10)]
    with gc_frozen():
        assert gc.get_freeze_count() > 0
        with gc_frozen():
            assert gc.get_freeze_count() > 0
        assert gc.get_freeze_count() > 0  # the inner block did not unfreeze the outer one's objects
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with gc_frozen():
            pass
        assert gc.get_freeze_count() == frozen  # someone else's freeze stays
    finally:
        gc.unfreeze()
    assert keep


def _validated(case_id: str, mode: str, t: int, repeat: int, action: Action) -> PredictionLine:
    return PredictionLine(case_id=case_id, mode=mode, t=t, repeat=repeat, ops=action.ops, error=action.error,
                          raw=action.raw, usage=None,
                          latency_s=None if action.latency_s is None else round(action.latency_s, 4))


OPS = st.lists(st.dictionaries(st.sampled_from(["op", "id", "event"]), st.one_of(st.text(max_size=3), st.none())),
               max_size=3)


@given(OPS, st.one_of(st.none(), st.text(max_size=5)), st.one_of(st.none(), st.floats(0, 100)),
       st.sampled_from(["single", "multi"]), st.integers(1, 9), st.integers(0, 3))
def test_an_offline_answer_gives_the_line_validation_gives(ops: list, raw: str | None, latency: float | None,
                                                         mode: str, t: int, repeat: int) -> None:
    action = Action(ops=ops, raw=raw, latency_s=latency)
    line, slow = action_to_line("pe-1", mode, t, repeat, action), _validated("pe-1", mode, t, repeat, action)
    assert line == slow and list(line.__dict__) == list(slow.__dict__)
    assert line.model_fields_set == slow.model_fields_set and line.__pydantic_extra__ == slow.__pydantic_extra__
    assert line.model_dump_json() == slow.model_dump_json()
    assert line.ops is not ops  # a copy, as validation makes


@pytest.mark.parametrize("action", [Action(ops=[], prompt_tokens=3), Action(ops=[], cost_usd=0.1),
                                    Action(ops=[], extra={"requests": 1}), Action(error="boom", raw="x")])
def test_answers_with_usage_extras_or_errors_are_validated(action: Action) -> None:
    line = action_to_line("pe-1", "single", 1, 0, action)
    assert PredictionLine.model_validate(line.model_dump()) == line
