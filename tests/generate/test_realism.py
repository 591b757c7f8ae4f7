"""The realism report (issue 11, point 7): figures counted by hand on tiny datasets, the classifier, the CLI."""

from __future__ import annotations

import json
import random
import sys
from datetime import datetime

import pytest
from typer.testing import CliRunner

from proevent.cli import app
from proevent.generate import realism
from proevent.generate.realism import PHENOMENA, realism_report, repeated_phrases, report_rows, side_figures
from proevent.generate.realism_auc import INSTALL_HINT, classifier_auc
from proevent.generate.realism_text import four_grams, gives_bare_hour, has_emoji, words
from proevent.io import write_dataset
from proevent.model import Case, Chat, DeleteOp, InsertOp, Message, Step, UpdateOp, make_event

USER = "Ann Lee"
DAY = "2026-03-09"


def _chats(n: int) -> list[Chat]:
    direct = Chat(chat_id="c1", name="Bob Roy", type="direct", members=[USER, "Bob Roy"])
    group = Chat(chat_id="c2", name="Climbing", type="group", members=[USER, "Bob Roy", "Cy Diaz"])
    return [direct, group][:n]


def _case(case_id: str, steps: list[tuple[list[str], list]], *, initial: tuple[str, ...] = (), chats: int = 1,
          meta: dict | None = None) -> Case:
    """A case whose step t holds the given texts (one minute apart, in chat c1) and gold operations.
    Gold timetables are left empty: the realism report does not read them."""
    built = []
    for t, (texts, ops) in enumerate(steps, start=1):
        start, end = f"{DAY}T{8 + 2 * (t - 1):02d}:00", f"{DAY}T{10 + 2 * (t - 1):02d}:00"
        msgs = [Message(chat_id="c1", time=f"{DAY}T{8 + 2 * (t - 1):02d}:{i:02d}", sender="Bob Roy", text=x)
                for i, x in enumerate(texts)]
        built.append(Step(t=t, start=start, end=end, messages=msgs, gold_ops=ops, gold_timetable=[]))
    timetable = [make_event(i, start=f"{DAY}T18:00", participants=[USER]) for i in initial]
    return Case(case_id=case_id, user=USER, start=f"{DAY}T08:00", initial_timetable=timetable,
                chats=_chats(chats), steps=built, meta=meta or {})


def _insert() -> InsertOp:
    return InsertOp(event=make_event(start=f"{DAY}T19:00", participants=[USER, "Bob Roy"]))


def _tiny() -> list[Case]:
    return [
        _case("a1", [
            (["fri 8?", "👍", "see you at the pub then"],
             [UpdateOp(id="e1", attribute="start", value=f"{DAY}T20:00"), _insert()]),
            ([], []),
            (["can we move it to Thursday at 7pm instead?"],
             [DeleteOp(id="e2"), UpdateOp(id="e3", attribute="location", value="Crag")]),
        ], initial=("e1", "e2"), chats=2, meta={"phenomena": ["bare_hour", "initial_event_change"]}),
        _case("a2", [
            (["ok", "sounds great, see you there 😊"], [UpdateOp(id="e1", attribute="location", value="Gym")]),
            ([], []),
        ], initial=("e1",), meta={"phenomena": ["bare_hour", "burst", "made_up"]}),
        _case("a3", [(["running 10 min late sorry"], [])]),
    ]


def test_side_figures_counted_by_hand():
    f = side_figures(_tiny(), "tiny")
    assert (f.cases, f.steps, f.messages) == (3, 6, 7)
    # words per message: 2, 0, 6, 9 | 1, 5 | 5
    assert f.words_mean == 4.0 and f.words_median == 5.0
    assert (f.short_messages, f.short_share) == (3, 0.4286)  # "fri 8?", "👍", "ok"
    assert (f.emoji_messages, f.emoji_share) == (2, 0.2857)
    assert (f.bare_hour_messages, f.bare_hour_share) == (1, 0.1429)  # "fri 8?" ("7pm" is marked)
    assert (f.quiet_steps, f.quiet_step_share) == (2, 0.3333)
    # a1: e1 and e2 are initial, e3 was inserted; a2: e1 is initial
    assert (f.updates_deletes, f.initial_changes, f.initial_change_share) == (4, 3, 0.75)
    assert (f.messages_per_case, f.chats_per_case) == (2.33, 1.33)
    assert f.phenomena is not None and set(f.phenomena) == set(PHENOMENA)
    assert f.phenomena["bare_hour"] == 0.6667 and f.phenomena["initial_event_change"] == 0.3333
    assert f.phenomena["burst"] == 0.3333 and f.phenomena["similar_events"] == 0.0
    assert f.other_phenomena == {"made_up": 1}
    assert (f.repeated_phrase_messages, f.top_phrases) == (0, [])


def test_phenomena_null_without_meta_and_shares_null_without_denominator():
    f = side_figures([_case("b1", [([], [_insert()])])])
    assert f.phenomena is None and f.other_phenomena == {}
    assert f.messages == 0 and f.short_share is None and f.words_mean is None
    assert f.initial_change_share is None and f.quiet_step_share == 1.0


def test_repeated_phrase_needs_twenty_other_messages():
    held = [f"thank you for your {w}" for w in "help time note call gift card tip map pen cup".split()] * 2
    others = ["see you there", "7 or 8?", "thank you so much"]
    flags, wide = repeated_phrases(held + others)  # 20 messages hold the phrase: 19 others each
    assert not any(flags) and not wide
    flags, wide = repeated_phrases([*held, "thank you for your thank you for your", *others])
    assert flags == [True] * 21 + [False] * 3 and wide == {"thank you for your": 21}


def test_repeated_phrase_share_counted_on_a_sample(monkeypatch):
    texts = [f"see you at the {w} then" for w in range(25)] + ["ok"] * 5
    case = _case("r1", [(texts, [])])
    full = side_figures([case])
    assert full.phrase_sample == 30 and full.repeated_phrase_messages == 25
    assert full.repeated_phrase_share == full.repeated_phrase_share_all == 0.8333
    assert full.top_phrases == [("see you at the", 25)]
    monkeypatch.setattr(realism, "PHRASE_SAMPLE", 10)
    small = side_figures([case])
    assert small.phrase_sample == 10 and small.repeated_phrase_share == 0.0  # 21 holders cannot fit in 10
    assert small.repeated_phrase_share_all == 0.8333


def test_message_rules():
    assert words("ok 👍") == ["ok"] and words("👍") == [] and words("12:30 works?") == ["12:30", "works"]
    assert four_grams("Thank you for your message, Dan!") == {
        "thank you for your", "you for your message", "for your message dan"}
    assert has_emoji("see u 🥾") and has_emoji("🇬🇧") and not has_emoji("© 2026 ™") and not has_emoji("-> :)")


@pytest.mark.parametrize("text, bare", [
    ("fri 8?", True), ("9 works", True), ("7 or 8?", True), ("ok, 8 it is", True), ("see you at 9", True),
    ("blue ridge trailhead, 9 till 1 🥾", True), ("dinner at 7 tomorrow?", True), ("8 👍", True),
    ("12:30?", False), ("at 7pm", False), ("7ish?", False), ("at 11 o'clock", False), ("at 6-9:15pm", False),
    ("7pm-9", False), ("half 7", False), ("table for 4", False), ("in 10 mins", False), ("room 4", False),
    ("march 8", False), ("the 8th", False), ("2 people", False), ("3/14", False), ("30 degrees", False),
    ("end of ep 2!!", False), ("at eight", False), ("fest 12-14 june", False), ("getting 2 for me", False),
    ("tram 1 to mine", False), ("you have lou at 6 that day", True), ("8 ok?", True), ("either, but 8 if pushed", True),
    ("wait no, 11 for 30 min 🙃", True), ("a bike ride 8 for 3 hours", True), ("3 for one hour ok?", True),
    ("ok let's do 6 for 2.5h", True),
])
def test_bare_hour(text, bare):
    assert gives_bare_hour(text, datetime(2026, 3, 9, 8)) is bare


def _sentences(vocab: list[str], n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(vocab) for _ in range(5)) for _ in range(n)]


SHARED = "see you at the pub then ok sure sounds good maybe later tomorrow works for me yes no".split()


def test_auc_near_one_for_trivially_different_corpora():
    a = _sentences(SHARED, 150, 1)
    b = [t.replace(" ", " ... ") + " !!" for t in _sentences(SHARED, 150, 2)]
    auc = classifier_auc(a, b, seed=0, repeats=1)
    assert auc.mean is not None and auc.mean >= 0.99 and len(auc.folds) == 5 and auc.per_side == 150


def test_auc_rounds_average_every_fold_of_every_round():
    a = _sentences(SHARED, 120, 6)
    b = [t + " lol" if i % 3 == 0 else t for i, t in enumerate(_sentences(SHARED, 120, 7))]
    one = [classifier_auc(a, b, seed=s, repeats=1) for s in (4, 5, 6)]
    three = classifier_auc(a, b, seed=4, repeats=3)
    # round r is the single round of seed + r, and the mean is taken over all 15 folds
    assert three.repeats == 3 and three.folds == [f for r in one for f in r.folds]
    assert three.repeat_means == [r.mean for r in one]
    assert three.mean == round(sum(three.folds) / 15, 4)
    with pytest.raises(ValueError, match="repeats must be >= 1"):
        classifier_auc(a, b, repeats=0)


def test_auc_near_half_for_one_corpus_split_in_two():
    texts = _sentences(SHARED, 600, 3)
    auc = classifier_auc(texts[::2], texts[1::2], seed=0)
    assert auc.mean is not None and abs(auc.mean - 0.5) < 0.1 and auc.sd is not None and auc.sd >= 0


def test_auc_balances_and_caps_the_sides():
    auc = classifier_auc(_sentences(SHARED, 90, 4), _sentences(SHARED, 40, 5), seed=0, max_per_side=30)
    assert auc.per_side == 30 and auc.mean is not None


def test_auc_without_scikit_learn_or_messages_says_why(monkeypatch):
    assert classifier_auc(["a"] * 5, ["b"] * 100).note == "too few messages: 5 per side, 10 needed"
    monkeypatch.setitem(sys.modules, "sklearn.model_selection", None)
    report = realism_report(_tiny() * 3, _tiny() * 3)
    assert report.auc.mean is None and report.auc.note == INSTALL_HINT
    assert report.dataset.messages == 21 and report.dataset.short_messages == 9
    assert report_rows(report)[0] == ("classifier AUC (0.5 = alike)", INSTALL_HINT, "")


def test_report_rows_and_json():
    other = [_case("z1", [(["hello there, how are you doing today?"] * 3, [])])]
    report = realism_report(_tiny(), other, seed=3)
    data = report.to_json()
    assert data["format"] == "proevent.realism/1" and data["seed"] == 3
    assert data["dataset"]["name"] == "dataset" and data["reference"]["phenomena"] is None
    rows = {label.strip(): (x, y) for label, x, y in report_rows(report)}
    assert rows["steps without messages"] == ("33.3% (2 of 6)", "0.0% (0 of 1)")
    assert rows["updates+deletes of initial events"] == ("75.0% (3 of 4)", "n/a")
    assert rows["bare_hour"] == ("66.7%", "n/a") and rows["made_up (not in the vocabulary; cases)"] == ("1", "0")


runner = CliRunner()


def test_stats_against_cli(tmp_path):
    cases = [c.model_copy(update={"case_id": f"{c.case_id}-{k}"}) for k in range(4) for c in _tiny()]
    write_dataset(tmp_path / "a", cases, name="tiny-a", version="1")
    write_dataset(tmp_path / "b", [_case("z1", [(["hello there!", "see u at 9"] * 8, [])])], name="tiny-b",
                  version="1")
    out = tmp_path / "realism.json"
    r = runner.invoke(app, ["stats", str(tmp_path / "a"), "--against", str(tmp_path / "b"), "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert "realism report" in r.output and "steps without messages" in r.output
    data = json.loads(out.read_text())
    assert data["dataset"]["name"] == "tiny-a" and data["reference"]["name"] == "tiny-b"
    assert data["dataset"]["messages"] == 28 and data["reference"]["bare_hour_messages"] == 8
    assert data["auc"]["per_side"] == 16 and 0.5 <= data["auc"]["mean"] <= 1.0
    r = runner.invoke(app, ["stats", str(tmp_path / "a"), "--against", str(tmp_path / "b"), "--plots", "p"])
    assert r.exit_code == 1 and "--plots does not go with --against" in r.output
    r = runner.invoke(app, ["stats", str(tmp_path / "a"), "--against", str(tmp_path / "missing")])
    assert r.exit_code == 1 and "Traceback" not in r.output
