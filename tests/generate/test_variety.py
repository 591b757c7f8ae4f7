"""Linguistic variety of the template realiser, and table 3 (linguistic variations) of the stats."""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import datetime

from proevent.generate import GeneratorConfig, compute_stats, generate_cases
from proevent.generate.config import StyleConfig
from proevent.generate.realize.template import ChatContext, _typo, render_line
from proevent.generate.skeleton import Line
from proevent.generate.stats import distinct_expressions, expression, linguistic_variations

AT = datetime(2026, 3, 2, 10, 0)
CALM = StyleConfig(slang=0, discourse=0, emoticon=0, greeting=0, typo=0)


def test_mid_dataset_rarely_repeats_a_sentence(mid_result):
    # Short replies repeat as they do between people ("ok", "👍", "lemme check"): a third of the
    # messages are three words or fewer, so the share over all messages is lower than the share
    # among messages of six words or more (measured 0.72 and 0.93 on this dataset; before the
    # v2 wording, 0.97 and 0.98 with long stock compositions).
    st = compute_stats(mid_result.cases)
    assert st["distinct_message_ratio"] >= 0.65
    assert st["distinct_long_message_ratio"] >= 0.9


def test_acknowledgements_are_built_from_parts():
    ctx = ChatContext(user="U Ser", voices={"U Ser": "casual", "Maya Patel": "casual"},
                      nicknames={"Maya Patel": "May"}, style=CALM, acts=["dinner"])
    rng = random.Random(0)
    texts = [render_line(Line("U Ser", "ack", {"after": "cancel"}, addressee="Maya Patel"), AT, ctx, rng)
             for _ in range(400)]
    assert len(set(texts)) >= 300
    assert all("{" not in t and "<" not in t and "[" not in t for t in texts)


def test_reasons_fit_the_contact_category():
    from proevent.generate.contacts import lexicon

    work_words = {"client", "sprint", "all-hands", "vendor", "one-to-one", "release", "onboarding", "workshop",
                  "back-to-back"}
    ctx = ChatContext(user="U Ser", voices={"Maya Patel": "casual"}, nicknames={}, style=CALM, category="work")
    rng = random.Random(2)
    texts = [render_line(Line("Maya Patel", "reject", {"reason": "conflict"}), AT, ctx, rng) for _ in range(200)]
    assert any(any(w in t for w in work_words) for t in texts)
    assert "casual/work" in lexicon().conflict_reasons


def test_typos_never_touch_a_slot():
    rng = random.Random(4)
    for _ in range(300):
        out = _typo("meet {place} around {when} please, thanks", rng)
        assert "{place}" in out and "{when}" in out
        assert len(out.split()) == 6


def test_typo_rate_zero_leaves_words_alone():
    ctx = ChatContext(user="U Ser", voices={"Maya Patel": "casual"}, nicknames={}, style=CALM)
    line = Line("Maya Patel", "fill_place", {"place": "Cafe Nero"})
    words = Counter()
    rng = random.Random(6)
    for _ in range(300):
        words.update(re.findall(r"[a-z']+", render_line(line, AT, ctx, rng).lower()))
    from proevent.generate.contacts import templates

    vocab = " ".join(templates().casual["fill_place"] + [" ".join(v) for v in templates().rules["casual"].values()])
    known = set(re.findall(r"[a-z']+", vocab.lower())) | {"cafe", "nero"}
    known |= {w.replace("'", "") for w in known}  # the chat style drops apostrophes now and then ("lets")
    assert set(words) <= known, set(words) - known


def test_expression_masks_values_and_skips_greetings():
    expr, frame = expression("hey Dan, so can we switch to Cafe Nero on Friday at 7pm?", {"Cafe Nero"}, AT)
    assert expr == "can we switch"
    assert frame == "hey <v> so can we switch to <v>"
    assert expression("Could we move it to Friday 5 March?", (), AT)[0] == "could we move"
    assert expression("ok ok", (), AT) == ("", "ok ok")


def test_distinct_expressions_ignore_typos():
    assert distinct_expressions(["can we switch", "can we swicth", "can we swich", "can we move", "cna we move"]) == 3
    assert distinct_expressions(["let's call off", "let's caall off", "let's cancel it"]) == 2


def test_linguistic_variations_table(small_cases):
    table = linguistic_variations(small_cases, n=10, seed=0)
    assert set(table) == {"propose", "modify", "cancel"}
    for row in table.values():
        assert row["sampled"] == min(10, row["messages"])
        assert 0 < row["expressions"] <= row["frames"] <= row["sampled"] or row["messages"] == 0
    assert linguistic_variations(small_cases, n=10, seed=0) == table
    stripped = [c.model_copy(update={"meta": {k: v for k, v in c.meta.items() if k != "message_intents"}})
                for c in small_cases]
    assert linguistic_variations(stripped) is None
    assert compute_stats(stripped)["linguistic_variations"] is None


def test_two_seeds_share_few_long_sentences():
    a = generate_cases(GeneratorConfig(cases=60, seed=11))
    b = generate_cases(GeneratorConfig(cases=60, seed=12))

    def long_texts(cases):
        return {m.text for c in cases for s in c.steps for m in s.messages if len(m.text.split()) >= 6}

    ta, tb = long_texts(a), long_texts(b)
    # short, plain small talk and hedges ("on hold with the council again") recur by chance across
    # seeds: measured 19 of 756 (2.5%) with the v2 wording, under 2% with the first grammar's
    # long compositions; a template that stopped varying would share far more
    assert len(ta & tb) <= 0.04 * min(len(ta), len(tb))
