"""The phrase grammar of the template realiser, and the content written in it."""

from __future__ import annotations

import random
import re
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.generate.contacts import Templates, contact_pool, lexicon, names, noise_content, templates
from proevent.generate.realize.grammar import GrammarError, check, expand, guaranteed, tidy, top_level
from proevent.generate.realize.template import rule_tables
from proevent.generate.validate import _norm
from proevent.timeexpr import date_mentions, time_mentions

RULES = [{"greet": ["hi <who>", "hey <who>"], "who": ["you"]}, {"who": ["never used"], "end": ["!"]}]


def test_expand_resolves_rules_most_specific_table_first():
    rng = random.Random(0)
    outs = {expand("<greet><end>", RULES, rng) for _ in range(50)}
    assert outs == {"hi you!", "hey you!"}


def test_expand_nested_and_optional_groups():
    rng = random.Random(1)
    outs = {expand("[so [sorry|sry]|apologies][, {name}|]", RULES, rng) for _ in range(200)}
    assert outs == {"so sorry", "so sry", "apologies", "so sorry, {name}", "so sry, {name}", "apologies, {name}"}


def test_expand_is_deterministic_for_a_seed():
    tpl = "<greet> [a|b|c] [d|e] {slot}"
    assert [expand(tpl, RULES, random.Random(5)) for _ in range(3)] == [expand(tpl, RULES, random.Random(5))] * 3


@pytest.mark.parametrize("bad", ["[a|b", "a|b]", "<nope>"])
def test_check_rejects_broken_templates(bad):
    with pytest.raises(GrammarError):
        check(bad, RULES, "here")


def test_guaranteed_slots():
    assert guaranteed("[{a} x|y {a}] z", "{a}", RULES)
    assert not guaranteed("[{a} x|y] z", "{a}", RULES)
    assert guaranteed("<r>", "{a}", [{"r": ["{a}!", "[{a}|{a}?]"]}])
    assert not guaranteed("<r>", "{a}", [{"r": ["{a}!", "no"]}])
    assert top_level("a [b [c|d]|e] f") == "a   f"


@pytest.mark.parametrize(("raw", "clean"), [
    ("ok , thanks", "ok, thanks"),
    ("  , hey  there !", "hey there!"),
    ("Sounds good, .", "Sounds good."),
    ("I'm sorry, : busy", "I'm sorry: busy"),
    ("really?..", "really?"),
    ("same place?, sorry", "same place? sorry"),
    ("so... another time", "so... another time"),
    ("see you at 7 p.m..", "see you at 7 p.m."),
    ("nice :) see you", "nice :) see you"),
])
def test_tidy(raw, clean):
    assert tidy(raw) == clean


def test_templates_reject_a_required_slot_missing_from_one_branch():
    base = templates().model_dump()
    base["casual"]["propose"] = ["[{act} {when} at {place}|{act} {when}?]"]
    with pytest.raises(ValueError, match=r"casual\.propose\[0\]: missing slots \['place'\]"):
        Templates.model_validate(base)


def _fillers():
    """Every template, small-talk line and reason, per voice (the grammar parts, values masked)."""
    for voice in ("formal", "casual", "emoji", "terse"):
        register = "formal" if voice == "formal" else "casual"
        for intent, tpls in getattr(templates(), register).items():
            for t in tpls:
                yield voice, f"{register}.{intent}", t
        for t in noise_content().interjections[register]:
            yield voice, "interjection", t
        for topic in noise_content().topics:
            for t in topic:
                yield voice, "topic", t
        for table in (lexicon().conflict_reasons, lexicon().cancel_reasons, lexicon().implicit_cancel_reasons):
            for key, pool in table.items():
                if key.split("/")[0] == register:
                    for t in pool:
                        yield voice, f"reason {key}", t


def test_fillers_never_name_a_day_a_time_a_place_or_a_person():
    """The grammar's own words must not express (or fake) a gold value: only slots do."""
    rng = random.Random(3)
    ref = datetime(2026, 3, 2, 12)
    places = {_norm(p) for pr in contact_pool().profiles for p in pr.places}
    people_names = [*names().people, *names().users, *(p.name for p in contact_pool().profiles),
                    *(a for p in contact_pool().profiles for a in p.attendees)]
    people = {t for n in people_names for t in _norm(n).split() if len(t) >= 3 and t not in {"the", "and", "mrs"}}
    problems = []
    for voice, where, tpl in _fillers():
        for _ in range(12):
            text = re.sub(r"\{\w+\}", " ", expand(tpl, rule_tables(voice), rng))
            norm = f" {_norm(text)} "
            days = [d for d in date_mentions(text, ref) if d != {ref.date()}]
            if days or time_mentions(text) or any(f" {p} " in norm for p in places) or set(norm.split()) & people:
                problems.append((where, text))
    assert not problems, problems[:5]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_every_expansion_of_every_template_keeps_its_required_slots(seed):
    rng = random.Random(seed)
    for register in ("formal", "casual"):
        table = getattr(templates(), register)
        for intent, slots in templates().required.items():
            tpl = rng.choice(table[intent])
            text = expand(tpl, rule_tables(register), rng)
            for slot in slots:
                assert "{" + slot + "}" in text or "{" + slot + "_cap}" in text, (intent, text)
