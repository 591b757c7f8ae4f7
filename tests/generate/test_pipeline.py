from __future__ import annotations

import time
from collections import Counter

import pytest

from proevent.generate import GeneratorConfig, compute_stats, generate, generate_cases, generate_dataset
from proevent.generate.contacts import contact_pool, templates
from proevent.generate.realism import side_figures
from proevent.generate.validate import validate_dataset
from proevent.io import load_dataset
from proevent.model import DeleteOp, InsertOp, UpdateOp

META_KEYS = {"category", "subcategory", "negotiation_turns", "concurrent_chats", "noise", "noise_content",
             "scheduling_pattern", "atomic_ops", "realizer", "seed", "message_intents", "phenomena"}


def test_same_seed_and_config_give_identical_bytes(tmp_path):
    cfg = GeneratorConfig(cases=25, seed=3)
    a = generate_dataset(cfg, tmp_path / "a")
    b = generate_dataset(cfg, tmp_path / "b")
    for name in ("cases.jsonl", "dataset.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert a.manifest.created == cfg.created
    assert a.manifest.generator["seed"] == 3 and a.manifest.generator["config"]["cases"] == 25
    other = generate_dataset(GeneratorConfig(cases=25, seed=4), tmp_path / "c")
    assert other.sha256 != b.sha256


def test_refuses_to_overwrite_without_force(tmp_path):
    cfg = GeneratorConfig(cases=2)
    generate_dataset(cfg, tmp_path)
    with pytest.raises(FileExistsError):
        generate_dataset(cfg, tmp_path)
    assert len(generate_dataset(cfg, tmp_path, force=True).cases) == 2


def test_small_config_is_fast_and_loads_back(tmp_path):
    t0 = time.perf_counter()
    ds = generate_dataset(GeneratorConfig(cases=60, seed=0), tmp_path)
    assert time.perf_counter() - t0 < 10
    loaded = load_dataset(tmp_path)
    assert [c.case_id for c in loaded.cases] == [c.case_id for c in ds.cases]
    assert loaded.manifest.counts.cases == 60
    assert validate_dataset(loaded).ok


KNOWN_INTENTS = set(templates().required) | {"interjection"}


def test_cases_do_not_depend_on_each_other():
    few = generate_cases(GeneratorConfig(cases=5, seed=2))
    many = generate_cases(GeneratorConfig(cases=12, seed=2))
    assert [c.model_dump() for c in few] == [c.model_dump() for c in many[:5]]


def test_meta_keys_are_exactly_the_format(mid_result):
    for case in mid_result.cases:
        assert set(case.meta) == META_KEYS
        assert set(case.meta["noise"]) == {"message", "chat", "event"}
        assert set(case.meta["noise_content"]) <= {"off_topic", "unrelated_event", "failed_planning"}
        assert set(case.meta["atomic_ops"]) <= {"simple_modification", "timetable_linking", "detail_removal"}
        assert case.meta["concurrent_chats"] == len(case.chats)
        assert case.meta["realizer"] == "template"
        # one intent per message, in the case's message order
        assert len(case.meta["message_intents"]) == sum(len(s.messages) for s in case.steps)
        assert set(case.meta["message_intents"]) <= KNOWN_INTENTS


def test_every_phenomenon_occurs(mid_result):
    assert_every_phenomenon(mid_result.cases)


def assert_every_phenomenon(cases):
    ops = Counter()
    attrs = Counter()
    tentative_start = null_location = group_delete = 0
    for case in cases:
        group = any(ch.type == "group" for ch in case.chats)
        for step in case.steps:
            for op in step.gold_ops:
                ops[type(op)] += 1
                if isinstance(op, UpdateOp):
                    attrs[op.attribute] += 1
                    tentative_start += op.attribute == "start" and op.value is not None and len(op.value) == 10
                    null_location += op.attribute == "location" and op.value is None
                if isinstance(op, InsertOp):
                    tentative_start += op.event.start is not None and len(op.event.start) == 10
                    null_location += op.event.location is None
                if isinstance(op, DeleteOp) and group:
                    group_delete += 1
    assert ops[InsertOp] and ops[UpdateOp] and ops[DeleteOp]
    assert {"start", "end", "location", "participants"} <= set(attrs)
    assert "description" not in attrs
    assert tentative_start and null_location and group_delete
    patterns = [c.meta["scheduling_pattern"] for c in cases]
    for token in ("SM:", "TL:", "DR:", "+", "-", "XC:user", "XC:contact", "XI:user", "XI:contact", "DROP", "FAIL"):
        assert any(token in p for p in patterns), token
    assert {c.meta["concurrent_chats"] for c in cases} == {1, 2, 3, 4}
    assert {x for c in cases for x in c.meta["noise_content"]} == {"off_topic", "unrelated_event", "failed_planning"}
    assert all(any(c.meta["noise"][k] for c in cases) for k in ("message", "chat", "event"))
    steps = [s for c in cases for s in c.steps]
    assert any(not s.messages for s in steps), "steps without messages"
    assert any(s.messages and not s.gold_ops for s in steps), "steps with messages but no gold"
    historical = [e for c in cases for e in c.initial_timetable if e.start and e.start < c.start]
    assert historical, "historical events in initial timetables"


def test_failed_planning_inserts_nothing(mid_result):
    # one event planned in the chat, and it failed: nothing of that activity enters the timetable
    failed = [c for c in mid_result.cases if c.meta["scheduling_pattern"].endswith("FAIL")
              and "|" not in c.meta["scheduling_pattern"]]
    assert failed
    profiles = {(p.category, p.subcategory): p for p in contact_pool().profiles}
    for case in failed:
        planned = profiles[case.meta["category"], case.meta["subcategory"]].description
        assert not any(isinstance(op, InsertOp) and op.event.description == planned
                       for s in case.steps for op in s.gold_ops)


def test_gold_timetable_only_holds_events_the_user_attends(mid_result):
    for case in mid_result.cases:
        for step in case.steps:
            for ev in step.gold_timetable:
                assert case.user in ev.participants


def test_generated_cases_pass_validation(mid_result):
    report = validate_dataset(mid_result.cases)
    assert report.ok, [str(e) for e in report.errors[:5]]
    assert mid_result.given_up == 0


def test_noise_can_be_switched_off():
    cfg = GeneratorConfig(cases=40, seed=5, noise={"message": 0, "chat": 0, "event": 0})
    for c in generate_cases(cfg):
        assert not any(c.meta["noise"].values()) and not c.meta["noise_content"]
        assert "interjection" not in c.meta["message_intents"]
    # without the v2 scenarios too, a case is one chat, and only the events that timetable linking
    # refers to are in the initial timetable
    bare = {k: 0.0 for k in ("preexisting", "second_event", "relay", "similar", "usual_spot", "lateness",
                             "volunteer", "solo")}
    for c in generate_cases(cfg.model_copy(update={"scenario": cfg.scenario.model_copy(update=bare)})):
        assert c.meta["concurrent_chats"] == 1
        assert bool(c.initial_timetable) == ("TL:" in c.meta["scheduling_pattern"])


@pytest.mark.slow
def test_default_dataset_has_the_papers_size():
    result = generate(GeneratorConfig())
    st = compute_stats(result.cases)
    assert st["cases"] == 1279
    assert st["questions_with_gold"] >= 2463
    assert st["n_categories"] == 7 and st["n_subcategories"] == 56
    assert st["scheduling_patterns"] >= 275
    assert len(contact_pool().profiles) == 56
    assert_every_phenomenon(result.cases)
    assert validate_dataset(result.cases).ok
    # variety as issue 11 measures it: few messages repeat a stock phrase. Short replies ("ya", "👍")
    # and short small talk repeat across cases, as in real chats, so distinct-message shares are no
    # target any more.
    # (the realism report's figure: counted on a seeded 5,000-message sample, the size the issue
    # measured at, since a fixed "20+ other messages" threshold grows with the dataset)
    figures = side_figures(result.cases)
    assert figures.repeated_phrase_share is not None and figures.repeated_phrase_share <= 0.05
    assert figures.short_share is not None and figures.short_share >= 0.2
    assert figures.quiet_step_share is not None and figures.quiet_step_share <= 0.2
    assert figures.initial_change_share is not None and figures.initial_change_share >= 0.3
    assert figures.phenomena is not None and min(figures.phenomena.values()) >= 0.02, figures.phenomena
    assert st["distinct_long_message_ratio"] >= 0.8
    table3 = st["linguistic_variations"]
    assert table3 is not None and all(v >= 25 for v in table3.values()), table3


def test_output_does_not_depend_on_the_process(tmp_path):
    """Hash randomisation must not leak into the data (sets are never iterated into the output)."""
    import os
    import subprocess
    import sys

    code = ("import sys; from proevent.generate import GeneratorConfig, generate_dataset; "
            "print(generate_dataset(GeneratorConfig(cases=8, seed=9), sys.argv[1]).sha256)")
    shas = set()
    for k, hs in enumerate(("1", "2")):
        env = dict(os.environ, PYTHONHASHSEED=hs)
        out = subprocess.run([sys.executable, "-c", code, str(tmp_path / str(k))], env=env, check=True,
                             capture_output=True, text=True).stdout.strip()
        shas.add(out)
    assert len(shas) == 1


# ----------------------------------------------------------------------------- one attempt loop for every realiser


class FakeRealizer:
    """Rejects every case's first realisation (and every one of the cases in ``refuse``), else
    writes the template texts."""

    name = "fake"

    def __init__(self, refuse: set[str] = frozenset()) -> None:
        self.retried: Counter[str] = Counter()
        self.calls: list[str] = []
        self.refuse = refuse

    async def realize(self, plan, rng) -> None:
        from proevent.generate.assemble import CaseRejected
        from proevent.generate.realize.protocol import TemplateRealizer

        self.calls.append(plan.case_id)
        if self.calls.count(plan.case_id) == 1 or plan.case_id in self.refuse:
            raise CaseRejected("fake")
        await TemplateRealizer().realize(plan, rng)


def test_the_attempt_loop_counts_and_retries_what_a_realiser_rejects():
    from proevent.generate.assemble import CaseRejected
    from proevent.generate.pipeline import build_case

    cfg = GeneratorConfig(cases=4, seed=2, max_attempts=4)
    fake = FakeRealizer(refuse={"pe-00002"})
    result = generate(cfg, realizer=fake)
    # case 2 is refused at each of its attempts that reach the realiser; the others once each
    assert result.given_up == 1 and [c.case_id for c in result.cases] == ["pe-00001", "pe-00003", "pe-00004"]
    assert result.rejected["fake"] == 3 + fake.calls.count("pe-00002")
    assert result.retried == {}
    for case in result.cases:  # the same case the template realiser gives for that attempt, realiser aside
        assert case.meta["realizer"] == "fake"
        index = int(case.case_id[3:]) - 1
        same = []
        for attempt in range(cfg.max_attempts):
            try:
                same.append(build_case(index, attempt, cfg))
            except CaseRejected:
                continue
        want = case.model_dump()
        want["meta"]["realizer"] = "template"
        assert want in [c.model_dump() for c in same]


def test_the_template_and_the_llm_realisers_share_the_loop(scripted_server, monkeypatch):
    import json

    from proevent.generate import pipeline
    from support.scripted_server import Reply

    seen: list[tuple[int, int, str]] = []
    real = pipeline.attempt_case

    async def spy(index, attempt, config, realizer):
        seen.append((index, attempt, realizer.name))
        return await real(index, attempt, config, realizer)

    monkeypatch.setattr(pipeline, "attempt_case", spy)

    def faithful(req: dict) -> Reply:
        lines = json.loads(req["messages"][1]["content"])["lines"]
        return Reply(content=json.dumps({"messages": [{"i": ln["i"], "text": ln["draft"]} for ln in lines]}))

    scripted_server.default = faithful
    template = generate(GeneratorConfig(cases=3, seed=5))
    llm = generate(GeneratorConfig.model_validate({"cases": 3, "seed": 5, "realizer": "llm", "llm": {
        "model": "m", "base_url": scripted_server.base_url, "cache": False}}))
    assert {name for _, _, name in seen} == {"template", "llm:m"}
    for result, name in ((template, "template"), (llm, "llm:m")):
        assert len([s for s in seen if s[2] == name]) == result.attempts
    # the same plans: a model that sends the drafts back gives the template's cases
    assert [c.model_dump(exclude={"meta"}) for c in llm.cases] == [c.model_dump(exclude={"meta"})
                                                                   for c in template.cases]


def test_the_template_realiser_draws_more_often_before_giving_a_case_up():
    """A draw of the template realiser costs nothing, one of the llm realiser requests: 20 and 5 by
    default (5 for both made a 5,000-case dataset at seed 0 come out one case short); a value given
    stays, and a config read back keeps it."""
    assert GeneratorConfig().max_attempts == 20
    assert GeneratorConfig(realizer="llm").max_attempts == 5
    assert GeneratorConfig(max_attempts=3, realizer="llm").max_attempts == 3
    assert GeneratorConfig.model_validate(GeneratorConfig(realizer="llm").model_dump()).max_attempts == 5
