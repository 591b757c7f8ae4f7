"""Paired variants: the same cases with one factor changed, and only that factor."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from proevent.generate.config import GeneratorConfig
from proevent.generate.pipeline import generate, generate_dataset
from proevent.generate.realize.template import IMPLICIT_INTENTS
from proevent.generate.validate import validate_case
from proevent.generate.variants import KNOWN, parse_variant, same_gold, variant_path
from proevent.model import Case

N = 60  # enough cases that a few hold a "same crew as ..." link (link_people is rare: about 1 case in 20)


@pytest.fixture(scope="module")
def result():
    return generate(GeneratorConfig(cases=N, seed=3, variants=list(KNOWN)))


def tagged(case: Case) -> list[tuple[str, str, str, str, str]]:
    """(intent, chat, time, sender, text) of every message, in the case's message order."""
    msgs = [m for s in case.steps for m in s.messages]
    intents = case.meta["message_intents"]
    assert len(intents) == len(msgs)
    return [(i, m.chat_id, m.time, m.sender, m.text) for i, m in zip(intents, msgs)]


def test_parse_variant_names_the_known_ones() -> None:
    assert parse_variant("direct").slug == "direct"
    assert parse_variant("noise=failed_planning").name == "noise=failed_planning"
    assert parse_variant(" noise_position = late ").slug == "noise_position-late"
    assert variant_path("data/x/", parse_variant("noise=none")) == "data/x.noise-none"
    for bad in ("directly", "direct=1", "noise", "noise=loud", "noise_position=middle"):
        with pytest.raises(ValueError, match="known: direct, noise=unrelated_event"):
            parse_variant(bad)
    with pytest.raises(ValueError, match="unknown variant"):
        GeneratorConfig(variants=["noise=loud"])


def test_base_is_unchanged_by_asking_for_variants(result) -> None:
    plain = generate(GeneratorConfig(cases=10, seed=3)).cases
    assert [c.model_dump() for c in plain] == [c.model_dump() for c in result.cases[:10]]


@pytest.mark.parametrize("name", KNOWN)
def test_every_variant_shares_ids_timetables_windows_and_gold(result, name: str) -> None:
    vr = result.variants[name]
    assert vr.given_up == 0 and vr.gold_changed == 0
    assert [c.case_id for c in vr.cases] == [c.case_id for c in result.cases]
    for base, var in zip(result.cases, vr.cases):
        assert same_gold(base, var), base.case_id
        assert (base.user, base.start, base.timezone) == (var.user, var.start, var.timezone)
        assert [e for e in validate_case(var) if e.severity == "error"] == []
        for key in ("category", "subcategory", "negotiation_turns", "scheduling_pattern", "atomic_ops", "seed"):
            assert base.meta[key] == var.meta[key]


def test_direct_says_every_implicit_value_and_changes_nothing_else(result) -> None:
    changed = 0
    for base, var in zip(result.cases, result.variants["direct"].cases):
        b, v = tagged(base), tagged(var)
        assert not any(i in IMPLICIT_INTENTS - {"relay_time", "relay_place", "relay_cancel"} for i, *_ in v)
        assert not any(usual in row[-1].lower() for row in v if row[0] != "interjection"
                       for usual in ("the usual spot", "the usual place", "our usual spot"))
        # a line may be sent as a burst of messages in one minute: a line is (chat, time, sender)
        touched = {row[1:4] for row in b if row[0] in IMPLICIT_INTENTS or "usual" in row[-1].lower()}
        kept = Counter(row[1:] for row in b if row[1:4] not in touched)
        assert not kept - Counter(row[1:] for row in v), base.case_id
        # the lines that changed are the implicit ones, at their own times
        assert {row[1:3] for row in b} == {row[1:3] for row in v}
        changed += b != v
    assert changed >= N // 4
    # paired by line (chat, time, sender): either text may be sent as a burst of several messages
    links = [(r, s) for base, var in zip(result.cases, result.variants["direct"].cases)
             for r in tagged(base) if r[0] == "link_people" for s in tagged(var) if s[1:4] == r[1:4]]
    assert links and all(s[0] == "add_person" and "same" not in s[-1].lower() for _, s in links)


@pytest.mark.parametrize("kind", ["unrelated_event", "failed_planning"])
def test_noise_content_swaps_off_topic_noise_at_the_same_places(result, kind: str) -> None:
    swapped = 0
    for base, var in zip(result.cases, result.variants[f"noise={kind}"].cases):
        b, v = tagged(base), tagged(var)
        assert "off_topic" not in var.meta["noise_content"]
        assert not any(row[0] == "interjection" for row in v)
        base_kinds = [c.chat_id for c in base.chats]
        assert [c.chat_id for c in var.chats] == base_kinds
        # event lines keep text and time; off-topic lines became event talk at their times
        off_chats = {row[1] for row in b if row[0] == "interjection"} - {
            row[1] for row in b if row[0] != "interjection"}
        kept = Counter(row[1:] for row in b if row[0] != "interjection")
        assert not kept - Counter(row[1:] for row in v)
        times = {row[2] for row in b if row[0] == "interjection" and row[1] not in off_chats}
        assert times <= {row[2] for row in v}
        if "off_topic" in base.meta["noise_content"]:
            swapped += 1
            assert kind in var.meta["noise_content"] or var.meta["noise"]["message"] is False
    assert swapped >= N // 4


def test_noise_none_removes_every_off_topic_message_only(result) -> None:
    for base, var in zip(result.cases, result.variants["noise=none"].cases):
        b, v = tagged(base), tagged(var)
        assert not any(row[0] == "interjection" for row in v)
        assert Counter(row[1:] for row in v) == Counter(
            row[1:] for row in b if row[0] != "interjection" and not _in_off_topic_chat(base, row[1]))
        assert var.meta["noise"]["message"] is False and "off_topic" not in var.meta["noise_content"]


def _in_off_topic_chat(case: Case, chat_id: str) -> bool:
    rows = [row for row in tagged(case) if row[1] == chat_id]
    return all(r[0] == "interjection" for r in rows)


def test_noise_levels_are_ordered(result) -> None:
    def share(name: str) -> float:
        rows = [row for c in result.variants[name].cases for row in tagged(c)]
        return sum(r[0] == "interjection" for r in rows) / len(rows)

    assert share("noise=none") == 0 < share("noise=low") < share("noise=high")


@pytest.mark.parametrize("where", ["early", "interleaved", "late"])
def test_noise_position_moves_the_same_off_topic_lines(result, where: str) -> None:
    moved = 0
    for base, var in zip(result.cases, result.variants[f"noise_position={where}"].cases):
        b, v = tagged(base), tagged(var)
        assert Counter((r[0], r[1], r[3], r[4]) for r in b) == Counter((r[0], r[1], r[3], r[4]) for r in v)
        assert Counter(r for r in b if r[0] != "interjection") == Counter(r for r in v if r[0] != "interjection")
        moved += b != v
        if where == "interleaved":
            continue
        for chat in {r[1] for r in v if r[0] == "interjection"} - {
                r[1] for r in b if all(x[0] == "interjection" for x in b if x[1] == r[1])}:
            order = [r[0] == "interjection" for r in v if r[1] == chat]
            events = [i for i, noise in enumerate(order) if not noise]
            noise = [i for i, n in enumerate(order) if n]
            if events:
                assert (max(noise) < min(events)) if where == "early" else (min(noise) > max(events))
    assert moved >= N // 5


def test_variants_are_deterministic() -> None:
    cfg = GeneratorConfig(cases=8, seed=5, variants=["direct", "noise=failed_planning", "noise_position=early"])
    one, two = generate(cfg), generate(cfg)
    for name in cfg.variants:
        assert [c.model_dump() for c in one.variants[name].cases] == [c.model_dump() for c in two.variants[name].cases]


def test_dataset_writes_variants_beside_the_base_with_the_factor_in_the_manifest(tmp_path: Path) -> None:
    from proevent.io import load_dataset

    out = tmp_path / "synth"
    base = generate_dataset(GeneratorConfig(cases=6, seed=1, variants=["direct", "noise=none"]), out)
    assert base.manifest.generator["config"]["variants"] == ["direct", "noise=none"]
    for slug, factor, value in (("direct", "direct", None), ("noise-none", "noise", "none")):
        ds = load_dataset(tmp_path / f"synth.{slug}")
        rec = ds.manifest.generator["variant"]
        assert (rec["factor"], rec["value"]) == (factor, value)
        assert rec["base"] == {"path": "../synth", "name": base.manifest.name, "version": base.manifest.version,
                               "sha256": base.sha256}
        assert rec["gold_changed"] == 0
        assert [c.case_id for c in ds.cases] == [c.case_id for c in base.cases]
        assert "variants" not in ds.manifest.generator["config"]
    (tmp_path / "fresh.direct").mkdir()
    (tmp_path / "fresh.direct" / "cases.jsonl").write_text("")
    with pytest.raises(FileExistsError, match="fresh.direct"):  # a variant is never replaced silently either
        generate_dataset(GeneratorConfig(cases=2, seed=1, variants=["direct"]), tmp_path / "fresh")


def test_cli_generate_variant(tmp_path: Path) -> None:
    from proevent.cli import app

    out = tmp_path / "d"
    res = CliRunner().invoke(app, ["generate", "--out", str(out), "--cases", "4", "--variant", "direct",
                                   "--variant", "noise=failed_planning", "-q"])
    assert res.exit_code == 0, res.output
    manifest = json.loads((tmp_path / "d.noise-failed_planning" / "dataset.json").read_text())
    assert manifest["generator"]["variant"]["name"] == "noise=failed_planning"
    assert (tmp_path / "d.direct" / "cases.jsonl").exists()
    bad = CliRunner().invoke(app, ["generate", "--out", str(tmp_path / "e"), "--cases", "2", "--variant", "loud"])
    assert bad.exit_code != 0 and "unknown variant" in bad.output and "Traceback" not in bad.output
