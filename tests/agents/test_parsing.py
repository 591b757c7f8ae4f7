"""Extracting operations from model text, and validating them."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from proevent.agents.llm.parsing import extract_ops, validate_ops
from proevent.model import Timetable, make_event

OPS = [{"op": "delete", "id": "e1"}, {"op": "update", "id": "e2", "attribute": "location", "value": "Cafe"}]


def test_plain_object_and_bare_list_and_single_op():
    assert extract_ops(json.dumps({"ops": OPS})) == (OPS, None)
    assert extract_ops(json.dumps(OPS)) == (OPS, None)
    assert extract_ops(json.dumps({"operations": OPS})) == (OPS, None)
    assert extract_ops('{"op": "delete", "id": "e1"}') == ([OPS[0]], None)
    assert extract_ops('{"analysis": "nothing agreed", "needs_action": false, "ops": []}') == ([], None)


def test_code_fence_with_prose_takes_the_last_block():
    text = ("Let me think.\n```json\n{\"ops\": []}\n```\nOn second thought:\n```json\n"
            + json.dumps({"ops": OPS}, indent=2) + "\n```\nDone.")
    assert extract_ops(text) == (OPS, None)


def test_json_inside_prose_without_fence():
    text = 'The user agreed, so: {"ops": [{"op": "delete", "id": "e1"}]} — that is all.'
    assert extract_ops(text) == ([OPS[0]], None)


def test_failures_say_what_is_wrong():
    assert extract_ops("") == (None, "the answer is empty")
    assert extract_ops("I would delete the hike.") == (None, "no JSON found in the answer")
    assert extract_ops('{"ops": [{"op": "delete", "id": "e1"}') == (None, "no JSON found in the answer")
    assert extract_ops('{"answer": 3}')[1] == 'the JSON holds no operation list (expected {"ops": [...]})'


@given(prose=st.text(alphabet=st.characters(blacklist_characters="{}[]`"), max_size=60),
       fenced=st.booleans())
def test_ops_survive_any_surrounding_prose(prose, fenced):
    body = json.dumps({"ops": OPS})
    text = f"{prose}\n```json\n{body}\n```\n{prose}" if fenced else f"{prose} {body} {prose}"
    assert extract_ops(text) == (OPS, None)


def test_validation_against_the_timetable():
    table = Timetable([make_event("e1", start="2026-03-14T09:00")])
    assert validate_ops([{"op": "delete", "id": "e1"}], table) == []
    problems = validate_ops([{"op": "delete", "id": "e7"}, {"op": "update", "id": "e1", "attribute": "colour",
                                                              "value": 1}], table)
    assert problems == [
        "operation 2: attribute: Input should be 'start', 'end', 'location', 'participants' or 'description'",
        "operation 1: unknown id 'e7'",
    ]
