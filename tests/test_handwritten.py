"""The hand-written development set (examples/handwritten/): its builder, and the committed dataset.

The committed ``cases.jsonl`` must be exactly what ``build.py`` makes of ``src/*.txt``, every
case's gold must replay, and the validator's structural checks must pass. The builder's own
checks are exercised on a small source (the example of the format notes) with planted faults.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.generate.phenomena import PHENOMENA
from proevent.generate.validate import validate_case
from proevent.io import load_dataset
from proevent.model import DeleteOp, InsertOp, Timetable, UpdateOp, parse_time

HANDWRITTEN = Path(__file__).resolve().parents[1] / "examples" / "handwritten"
CATEGORIES = {"dining", "work", "sports_outdoors", "entertainment", "travel", "education", "health_care"}

# The validator's structural codes (generate/validate.py: _structure and _replay). Semantic doubts
# (value_not_expressed) are review flags and are not asserted here.
STRUCTURAL_CODES = {
    "duplicate_chat", "direct_chat_members", "step_numbering", "window", "change_without_message",
    "message_outside_window", "message_order", "unknown_chat", "sender_not_member", "initial_timetable",
    "user_not_participant", "invalid_gold_op", "gold_replay", "gold_timetable", "description_update",
}


def _load(name: str) -> ModuleType:
    key = f"proevent_handwritten_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, HANDWRITTEN / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module


builder = _load("build")
counts = _load("counts")


@pytest.fixture(scope="module")
def cases():
    return builder.build(HANDWRITTEN / "src")


# ---- the committed set -------------------------------------------------------------------------


def test_committed_dataset_is_exactly_the_build(cases, tmp_path):
    builder.write(cases, tmp_path)
    for name in ("cases.jsonl", "dataset.json"):
        assert (tmp_path / name).read_bytes() == (HANDWRITTEN / name).read_bytes(), (
            f"{name} differs from a rebuild: run python examples/handwritten/build.py")


def test_committed_dataset_loads_with_its_checksum():
    ds = load_dataset(HANDWRITTEN)
    assert ds.manifest.name == "proevent-handwritten"
    assert ds.manifest.created == builder.CREATED
    assert ds.manifest.counts.cases == len(ds.cases)


def test_every_case_replays_its_gold():
    for case in load_dataset(HANDWRITTEN).cases:
        table = Timetable(case.initial_timetable)
        for step in case.steps:
            result = table.apply(step.gold_ops)
            assert not result.errors, (case.case_id, step.t, result.errors)
            assert result.timetable.events == step.gold_timetable, (case.case_id, step.t)
            table = result.timetable


def test_structural_validation_passes(cases):
    structural = [str(i) for c in cases for i in validate_case(c) if i.code in STRUCTURAL_CODES]
    assert structural == []


def test_the_set_covers_what_it_is_for(cases):
    # part A (hw-001..hw-020) and part B (hw-101..hw-120) have both landed: 40 cases, 7 categories
    assert len(cases) >= 40
    assert {c.meta["category"] for c in cases} == CATEGORIES
    held = {t for c in cases for t in c.meta["phenomena"]}
    assert set(PHENOMENA) <= held, sorted(set(PHENOMENA) - held)
    steps = [s for c in cases for s in c.steps]
    assert sum(not s.messages for s in steps) * 5 <= len(steps)  # quiet windows at most 1 in 5
    for case in cases:
        n = sum(len(s.messages) for s in case.steps)
        assert 8 <= n <= 40, (case.case_id, n)
        assert 1 <= len(case.chats) <= 4, case.case_id
        assert case.meta["realizer"] == "handwritten"
        assert case.meta["concurrent_chats"] == len(case.chats)
        assert case.meta["phenomena"] == sorted(case.meta["phenomena"])


def test_a_third_or_more_of_the_changes_target_initial_events(cases):
    changes = on_initial = 0
    for case in cases:
        initial = {ev.id for ev in case.initial_timetable}
        for op in (op for s in case.steps for op in s.gold_ops):
            if isinstance(op, UpdateOp | DeleteOp):
                changes += 1
                on_initial += op.id in initial
    assert on_initial * 3 >= changes


def test_readme_counts_are_current():
    assert counts.main(["--check"]) == 0, "run python examples/handwritten/counts.py"


# ---- the builder on a small source --------------------------------------------------------------

SAMPLE = """\
# case hw-900
category: dining
subcategory: dinner
phenomena: bare_hour, initial_event_change, reaction_agreement
user: Priya Shah
timezone: Europe/London
start: 2026-03-09T08:00
window: 4h
chat c1 direct Tom Okafor | Tom
chat c2 group Climbing lot | Tom Okafor, Ana Ruiz, Li Wei
event e1 | 2026-03-14T19:00 | 2026-03-14T21:00 | Rosa's | Priya Shah, Tom Okafor | Dinner with Tom
event e2 | 2026-03-12 | - | - | Priya Shah | Dentist
---
2026-03-09T09:12 c1 Tom Okafor: still on for rosa's sat?
2026-03-09T09:40 c1 Priya Shah: yes! could we do 8 tho
2026-03-09T09:41 c1 Tom Okafor: 👍
> update e1 start 2026-03-14T20:00
> update e1 end 2026-03-14T22:00
2026-03-09T13:05 c2 Ana Ruiz: bouldering thurs 7?
2026-03-09T13:20 c2 Priya Shah: in
> insert | 2026-03-12T19:00 | - | The Climbing Hangar | Priya Shah, Ana Ruiz | Bouldering
2026-03-10T10:02 c1 Tom Okafor: gotta bail on sat, sorry, family thing
> delete e1
"""


def _source(tmp_path: Path, text: str, name: str = "x.txt") -> Path:
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    (src / name).write_text(text, encoding="utf-8")
    return src


def test_sample_builds_as_the_format_says(tmp_path):
    (case,) = builder.build(_source(tmp_path, SAMPLE))
    # 08:00 + 4h windows up to the one holding Tue 10:02: 26h02m / 4h -> 7 windows
    assert [s.start for s in case.steps][:3] == ["2026-03-09T08:00", "2026-03-09T12:00", "2026-03-09T16:00"]
    assert case.steps[-1].end == "2026-03-10T12:00"
    assert [len(s.messages) for s in case.steps] == [3, 2, 0, 0, 0, 0, 1]
    assert [[op.op for op in s.gold_ops] for s in case.steps] == [
        ["update", "update"], ["insert"], [], [], [], [], ["delete"]]
    assert [[ev.id for ev in s.gold_timetable] for s in case.steps] == [
        ["e1", "e2"], ["e1", "e2", "e3"], *[["e1", "e2", "e3"]] * 4, ["e2", "e3"]]
    e1 = case.steps[0].gold_timetable[0]
    assert (e1.start, e1.end, e1.location) == ("2026-03-14T20:00", "2026-03-14T22:00", "Rosa's")
    e3 = case.steps[1].gold_timetable[2]
    assert (e3.start, e3.end, e3.participants) == ("2026-03-12T19:00", None, ["Priya Shah", "Ana Ruiz"])
    c1, c2 = case.chats
    assert (c1.name, c1.type, c1.members) == ("Tom", "direct", ["Priya Shah", "Tom Okafor"])
    assert (c2.name, c2.members) == ("Climbing lot", ["Priya Shah", "Tom Okafor", "Ana Ruiz", "Li Wei"])
    assert case.initial_timetable[1].start == "2026-03-12" and case.initial_timetable[1].participants == ["Priya Shah"]
    assert case.meta == {"category": "dining", "subcategory": "dinner",
                         "phenomena": ["bare_hour", "initial_event_change", "reaction_agreement"],
                         "concurrent_chats": 2, "realizer": "handwritten"}
    assert [i for i in validate_case(case) if i.code in STRUCTURAL_CODES] == []


# (line replaced, replacement, the expected problem); line numbers are those of SAMPLE.
FAULTS = [
    ("> delete e1", "> delete e9", "src/x.txt:23: delete: unknown id 'e9'"),
    ("2026-03-09T13:05 c2 Ana Ruiz", "2026-03-09T13:05 c1 Ana Ruiz",
     "src/x.txt:19: message: sender 'Ana Ruiz' is not a member of c1"),
    ("2026-03-09T13:05 c2", "2026-03-09T13:05 c9", "src/x.txt:19: message: unknown chat 'c9'"),
    ("2026-03-09T13:20 c2", "2026-03-09T09:00 c2", "src/x.txt:20: message: 2026-03-09T09:00 is before the previous"),
    ("> update e1 end 2026-03-14T22:00", "> update e1 end 8pm", "src/x.txt:18: update: invalid time '8pm'"),
    ("> update e1 end 2026-03-14T22:00", "> update e1 colour red", "src/x.txt:18: update: unknown attribute 'colour'"),
    ("> update e1 end 2026-03-14T22:00", "> update e1 description Dinner", "src/x.txt:18: update: gold never updates"),
    ("Priya Shah, Ana Ruiz | Bouldering", "Priya Shah, Bob | Bouldering",
     "src/x.txt:21: insert: participant 'Bob' is not the user or a member of a chat"),
    ("Priya Shah, Ana Ruiz | Bouldering", "Ana Ruiz | Bouldering", "src/x.txt:21: insert: the user 'Priya Shah'"),
    ("category: dining", "category: cooking", "src/x.txt:2: category: unknown 'cooking'"),
    ("phenomena: bare_hour,", "phenomena: bare_hours,", "src/x.txt:4: phenomena: unknown tag 'bare_hours'"),
    ("window: 4h", "window: soon", "src/x.txt:8: window: invalid window 'soon'"),
    ("event e2 | 2026-03-12 |", "event e2 | 12 March |", "src/x.txt:12: event e2: invalid time '12 March'"),
]


@pytest.mark.parametrize(("old", "new", "expected"), FAULTS)
def test_planted_faults_are_reported_with_file_and_line(tmp_path, old, new, expected):
    assert SAMPLE.count(old) == 1
    src = _source(tmp_path, SAMPLE.replace(old, new))
    with pytest.raises(builder.BuildError) as info:
        builder.build(src)
    assert any(p.startswith(expected) for p in info.value.problems), info.value.problems


def test_a_gold_line_before_any_message_is_an_error(tmp_path):
    src = _source(tmp_path, SAMPLE.replace("---\n", "---\n> delete e2\n"))
    with pytest.raises(builder.BuildError) as info:
        builder.build(src)
    assert info.value.problems == ["src/x.txt:14: delete: gold operation before any message "
                                   "(an operation follows the message that settles it)"]


def test_an_event_inserted_in_a_step_cannot_change_in_the_same_step(tmp_path):
    text = SAMPLE.replace("| Bouldering\n", "| Bouldering\n> update e3 location the hangar\n")
    with pytest.raises(builder.BuildError) as info:
        builder.build(_source(tmp_path, text))
    assert info.value.problems == ["src/x.txt:22: update: unknown id 'e3' (not in the timetable before this step)"]


def test_duplicate_case_ids_across_files(tmp_path):
    _source(tmp_path, SAMPLE, "a.txt")
    src = _source(tmp_path, SAMPLE, "b.txt")
    with pytest.raises(builder.BuildError) as info:
        builder.build(src)
    assert info.value.problems == ["src/b.txt:1: case: duplicate case id 'hw-900' (first in src/a.txt:1)"]


def test_the_script_exits_1_without_a_traceback_and_writes_nothing(tmp_path):
    src = _source(tmp_path, SAMPLE.replace("> delete e1", "> delete e9"))
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, str(HANDWRITTEN / "build.py"), "--src", str(src), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [
        "src/x.txt:23: delete: unknown id 'e9' (not in the timetable before this step)",
        "1 problem(s); nothing written",
    ]
    assert not (out / "cases.jsonl").exists()


@settings(max_examples=40, deadline=None)
@given(minutes=st.integers(min_value=30, max_value=24 * 60))
def test_windows_hold_every_message_once_whatever_their_length(tmp_path_factory, minutes):
    tmp = tmp_path_factory.mktemp("w")
    (case,) = builder.build(_source(tmp, SAMPLE.replace("window: 4h", f"window: {minutes}m")))
    span = timedelta(minutes=minutes)
    first, last = parse_time(case.start), parse_time("2026-03-10T10:02")
    assert len(case.steps) == (last - first) // span + 1
    for k, step in enumerate(case.steps):
        assert parse_time(step.start) == first + k * span and parse_time(step.end) == first + (k + 1) * span
        assert all(step.start <= m.time < step.end for m in step.messages)
    assert [m.time for s in case.steps for m in s.messages] == [
        "2026-03-09T09:12", "2026-03-09T09:40", "2026-03-09T09:41", "2026-03-09T13:05", "2026-03-09T13:20",
        "2026-03-10T10:02"]
    ops = [op for s in case.steps for op in s.gold_ops]
    assert [type(op) for op in ops] == [UpdateOp, UpdateOp, InsertOp, DeleteOp]
    assert [ev.id for ev in case.steps[-1].gold_timetable] == ["e2", "e3"]


# ---- the sets written blind to the agents (examples/handwritten_b to _g) ----------------------------
BLIND_SETS = [  # (folder, dataset name, cases, gold operations / inserts / deletes)
    ("handwritten_b", "proevent-handwritten-b", 24, (127, 20, 6)),
    ("handwritten_c", "proevent-handwritten-c", 24, (147, 31, 6)),
    ("handwritten_d", "proevent-handwritten-d", 24, (141, 29, 4)),
    ("handwritten_e", "proevent-handwritten-e", 24, (138, 27, 6)),
    ("handwritten_f", "proevent-handwritten-f", 24, (170, 31, 7)),
    ("handwritten_g", "proevent-handwritten-g", 24, (167, 32, 4)),
    ("handwritten_h", "proevent-handwritten-h", 24, (152, 22, 7)),
    ("handwritten_i", "proevent-handwritten-i", 24, (139, 18, 7)),
    ("handwritten_j", "proevent-handwritten-j", 24, (131, 24, 9)),
    ("booking_blind", "proevent-booking-blind", 20, (32, 15, 2)),  # booking dialogues, read once unseen
    ("booking_blind2", "proevent-booking-blind2", 20, (42, 17, 2)),
    ("booking_blind3", "proevent-booking-blind3", 20, (38, 15, 2)),
    ("booking_blind4", "proevent-booking-blind4", 20, (26, 17, 4)),
    ("booking_blind5", "proevent-booking-blind5", 20, (33, 23, 4)),
    ("booking_blind6", "proevent-booking-blind6", 20, (27, 18, 3)),
]


@pytest.mark.parametrize(("folder", "name", "n_cases", "counts"), BLIND_SETS)
def test_a_blind_set_is_exactly_the_build_of_its_sources_and_passes_the_structural_checks(tmp_path, folder, name,
                                                                                           n_cases, counts):
    path = HANDWRITTEN.parent / folder
    builder.write(builder.build(path / "src"), tmp_path, name)
    for file in ("cases.jsonl", "dataset.json"):
        assert (tmp_path / file).read_bytes() == (path / file).read_bytes(), (
            f"{file} differs from a rebuild: see examples/{folder}/README.md")
    ds = load_dataset(path)
    assert ds.manifest.name == name and len(ds.cases) == n_cases
    structural = [i for case in ds.cases for i in validate_case(case) if i.code in STRUCTURAL_CODES]
    assert structural == []
    ops = [op for case in ds.cases for step in case.steps for op in step.gold_ops]
    assert (len(ops), sum(op.op == "insert" for op in ops), sum(op.op == "delete" for op in ops)) == counts
    before = [row[0] for row in BLIND_SETS][:[row[0] for row in BLIND_SETS].index(folder)]
    earlier = [HANDWRITTEN, *(HANDWRITTEN.parent / f for f in before)]
    assert {c.case_id for c in ds.cases}.isdisjoint({c.case_id for p in earlier for c in load_dataset(p).cases})
