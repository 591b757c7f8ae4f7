"""The llm realiser against a scripted OpenAI-compatible server on 127.0.0.1 (real HTTP), and its
check line by line (hand-computed contexts)."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta

import pytest

from proevent.generate import GeneratorConfig, generate
from proevent.generate.realize.llm_check import (
    LineContext,
    Required,
    TimetableEvent,
    check_line,
    intent_kind,
)
from proevent.generate.skeleton import Line
from proevent.generate.validate import validate_dataset
from support.scripted_server import Reply

REASONS = {"refusal", "hedge", "says_cancel", "other_day", "other_time", "missing_day", "missing_start", "missing_end",
           "missing_place", "missing_person", "line_count", "not_json"}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _request(req: dict) -> dict:
    return json.loads(req["messages"][1]["content"])


def _answer(lines: list[dict], text_of) -> Reply:
    return Reply(content=json.dumps({"messages": [{"i": ln["i"], "text": text_of(ln)} for ln in lines]},
                                    ensure_ascii=False))


def faithful(req: dict) -> Reply:
    """A model that sends each draft as it is."""
    return _answer(_request(req)["lines"], lambda ln: ln["draft"])


def contradicting(req: dict) -> Reply:
    """A model that moves the proposal to another day: it mentions a day the plan never had."""
    def text(ln: dict) -> str:
        if "day" not in ln["must_express"]:
            return ln["draft"]
        wrong = WEEKDAYS[(WEEKDAYS.index(ln["must_express"]["day"].split("(")[1][:-1]) + 3) % 7]
        return f"{ln['draft']} (actually make it {wrong}, sorry)"
    return _answer(_request(req)["lines"], text)


_INTENTS = {"cancel (implicit)": "cancel_implicit", "accept (after checking)": "accept_later"}


def _is(ln: dict, kind: str) -> bool:
    """Whether a request line (its intent in words) is of ``kind`` (:func:`intent_kind`)."""
    return intent_kind(_INTENTS.get(ln["intent"], ln["intent"].replace(" ", "_"))) == kind


def _hour(hm: str) -> str:
    h, m = int(hm[:2]), int(hm[3:5])
    return f"{h % 12 or 12}" + (f":{m:02d}" if m else "")


def realistic(req: dict) -> Reply:
    """A model that writes the way people text: an acceptance is a thumbs-up, a proposal gives its
    day as a weekday or "mar 14", its time as a bare hour or "7ish", its place in lower case, an
    end as "till 9"; everything else keeps its draft."""
    def text(ln: dict) -> str:
        need = ln["must_express"]
        if _is(ln, "acceptance") and not need:  # a pick among options must still say which one
            return "👍"
        if "start" not in need or set(need) - {"day", "start", "end", "place"} or " " in need.get("end", ""):
            return ln["draft"]
        sent = datetime.strptime(ln["time"][:10], "%Y-%m-%d").date()
        parts = []
        if "day" in need:
            day = date.fromisoformat(need["day"][:10])
            ahead = (day - sent).days
            parts.append(day.strftime("%a").lower() if 1 <= ahead <= 6 else day.strftime("%b %-d").lower())
        start = need["start"]
        parts.append(f"{_hour(start)}ish" if ln["i"] % 2 and start.endswith(":00") else _hour(start))
        if "end" in need:
            parts.append("till midnight" if need["end"] == "00:00" else f"till {_hour(need['end'])}")
        if "place" in need:
            parts.append(f"at {need['place'].lower()}")
        return " ".join(parts) + "?"
    return _answer(_request(req)["lines"], text)


def config(server, **kw) -> GeneratorConfig:
    base = {"cases": 4, "seed": 11, "realizer": "llm", "max_attempts": 5,
            "llm": {"model": "scripted-120b", "base_url": server.base_url, "cache": False, "retries": 0}}
    base.update(kw)
    return GeneratorConfig.model_validate(base)


def _llm(server, retries: int) -> dict:
    return {"model": "m", "base_url": server.base_url, "cache": False, "retries": retries}


def test_faithful_replies_make_valid_cases(scripted_server):
    scripted_server.default = faithful
    result = generate(config(scripted_server))
    assert len(result.cases) == 4 and result.given_up == 0 and result.retried == {}
    assert all(c.meta["realizer"] == "llm:scripted-120b" for c in result.cases)
    assert validate_dataset(result.cases).ok
    req = scripted_server.requests[0]
    assert req["model"] == "scripted-120b" and req["response_format"] == {"type": "json_object"}
    prompt = req["messages"][0]["content"]
    assert "What must not change" in prompt and "fri 8?" in prompt and "the usual spot" in prompt
    sent = _request(req)
    assert {"chat", "people", "lines"} <= set(sent)
    lines = [ln for r in scripted_server.requests for ln in _request(r)["lines"]]
    assert any(ln["must_express"] for ln in lines)
    assert any("accepts" in ln for ln in lines if _is(ln, "acceptance"))


def test_realistic_replies_pass_the_check_without_a_retry(scripted_server):
    """Bare hours, "7ish", lower-case places and a lone 👍 for every acceptance that names no value: no reply is
    rejected by the realiser's check and nothing is asked twice."""
    texts: list[str] = []

    def recorded(req: dict) -> Reply:
        reply = realistic(req)
        texts.extend(m["text"] for m in json.loads(reply.content)["messages"])
        return reply

    scripted_server.default = recorded
    result = generate(config(scripted_server, cases=8, llm=_llm(scripted_server, 2)))
    assert result.retried == {}
    assert not [r for r in result.rejected if r.startswith("llm:")]
    assert all(len(r["messages"]) == 2 for r in scripted_server.requests)
    assert "👍" in texts
    assert any(re.fullmatch(r"[a-z]{3}( \d{1,2})? \d{1,2}(:\d\d)?\?", t) for t in texts)  # "fri 8?", "nov 3 5:30?"
    assert any(re.search(r"\b\d{1,2}ish\b", t) for t in texts)
    for case in result.cases:  # what came through validation keeps the forms as written
        said = {m.text for s in case.steps for m in s.messages}
        assert "👍" in said or not any(_is({"intent": i}, "acceptance") for i in case.meta["message_intents"])


def test_a_contradicting_reply_is_dropped(scripted_server):
    scripted_server.default = contradicting
    result = generate(config(scripted_server, cases=2, max_attempts=1))
    assert result.cases == [] and result.given_up == 2
    assert result.rejected == {"llm:other_day": 2}


def test_a_contradiction_is_retried_with_the_problems(scripted_server):
    def first_wrong(req: dict) -> Reply:
        return contradicting(req) if len(req["messages"]) == 2 else faithful(req)

    scripted_server.default = first_wrong
    result = generate(config(scripted_server, cases=1, llm=_llm(scripted_server, 1)))
    assert len(result.cases) == 1 and not [r for r in result.rejected if r.startswith("llm:")]
    retry = [r for r in scripted_server.requests if len(r["messages"]) == 4]
    assert retry and re.search(r"line \d+: it names \d{4}-\d\d-\d\d \(\w+day\), which is not a day of this line",
                               retry[0]["messages"][3]["content"])
    assert result.retried == {"other_day": len(retry)}


def _intent_change(kind: str, bad) -> callable:
    """A model whose first answer rewrites every line of ``kind`` with ``bad(line)`` and whose
    answer to the retry is faithful."""
    def reply(req: dict) -> Reply:
        if len(req["messages"]) == 4:
            return faithful(req)
        return _answer(_request(req)["lines"], lambda ln: bad(ln) if _is(ln, kind) else ln["draft"])
    return reply


def _another_time(ln: dict) -> str:
    hm = re.search(r"(\d\d):(\d\d)", ln.get("accepts", ""))
    other = (int(hm.group(1)) + 2) % 24 if hm else 21
    return f"{ln['draft']} - {other:02d}:00 works"


@pytest.mark.parametrize(("kind", "bad", "reason", "says"), [
    ("acceptance", lambda ln: "sorry, can't make it", "refusal", "refuses"),
    ("acceptance", lambda ln: "maybe, let me check", "hedge", "hedges"),
    ("acceptance", _another_time, "other_time", "which is not a time of this line"),
    ("implicit_cancellation", lambda ln: "ugh, work again. let's cancel", "says_cancel", "is implicit"),
])
def test_an_intent_change_is_asked_again_and_counted(scripted_server, kind, bad, reason, says):
    scripted_server.default = _intent_change(kind, bad)
    cfg = config(scripted_server, cases=12, max_attempts=1, llm=_llm(scripted_server, 1))
    result = generate(cfg)
    retries = [r for r in scripted_server.requests if len(r["messages"]) == 4]
    assert retries, "no case of the sample had such a line"
    assert all(says in r["messages"][3]["content"] for r in retries)
    assert result.retried == {reason: len(retries)}
    assert not [r for r in result.rejected if r.startswith("llm:")]
    # without a retry the case attempt is rejected, counted by the same reason
    scripted_server.reset()
    scripted_server.default = _intent_change(kind, bad)
    strict = generate(cfg.model_copy(update={"llm": cfg.llm.model_copy(update={"retries": 0})}))
    assert 0 < strict.rejected.get(f"llm:{reason}", 0) <= len(retries) and strict.retried == {}


def test_a_burst_becomes_several_messages_in_the_same_minute(scripted_server):
    def burst(req: dict) -> Reply:
        return _answer(_request(req)["lines"], lambda ln: ["wait", ln["draft"]] if _is(ln, "acceptance")
                       else ln["draft"])

    scripted_server.default = burst
    result = generate(config(scripted_server, cases=3))
    assert len(result.cases) == 3
    for case in result.cases:
        msgs = [m for s in case.steps for m in s.messages]
        waits = [k for k, m in enumerate(msgs) if m.text == "wait"]
        assert waits
        for k in waits:  # the rest of the burst follows in the same chat and minute
            nxt = next(m for m in msgs[k + 1:] if m.chat_id == msgs[k].chat_id)
            assert (nxt.time, nxt.sender) == (msgs[k].time, msgs[k].sender)
        assert len(case.meta["message_intents"]) == len(msgs)


def test_malformed_json_counts_as_a_failed_check(scripted_server):
    scripted_server.default = lambda req: Reply(content="sure! here you go: messages...")
    result = generate(config(scripted_server, cases=1, max_attempts=1))
    assert result.rejected == {"llm:not_json": 1}


def test_cli_generate_with_the_llm_realizer(scripted_server, tmp_path):
    from typer.testing import CliRunner

    from proevent.cli import app

    scripted_server.default = faithful
    cfg = tmp_path / "gen.toml"
    cfg.write_text(f'cases = 3\nseed = 5\n[llm]\nmodel = "m-120b"\nbase_url = "{scripted_server.base_url}"\n'
                   "cache = false\nretries = 1\n")
    r = CliRunner().invoke(app, ["generate", "--out", str(tmp_path / "ds"), "--config", str(cfg),
                                 "--realizer", "llm", "-q"])
    assert r.exit_code == 0, r.output
    lines = (tmp_path / "ds" / "cases.jsonl").read_text().splitlines()
    assert len(lines) == 3 and all('"realizer":"llm:m-120b"' in ln for ln in lines)
    manifest = json.loads((tmp_path / "ds" / "dataset.json").read_text())
    retried = manifest["generator"]["realizer_retries"]  # replies asked for again, by reason
    assert all(k in REASONS and v > 0 for k, v in retried.items())
    assert CliRunner().invoke(app, ["validate", str(tmp_path / "ds")]).exit_code == 0


def test_cli_reports_an_unreachable_server(tmp_path):
    import socket

    from typer.testing import CliRunner

    from proevent.cli import app

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = tmp_path / "gen.json"
    cfg.write_text(json.dumps({"cases": 1, "llm": {"base_url": f"http://127.0.0.1:{port}/v1", "cache": False,
                                                   "timeout_s": 2, "request_retries": 0}}))
    r = CliRunner().invoke(app, ["generate", "--out", str(tmp_path / "ds"), "--config", str(cfg),
                                 "--realizer", "llm", "-q"])
    assert r.exit_code == 1 and "llm realiser" in r.output
    assert not (tmp_path / "ds" / "cases.jsonl").exists()


# ----------------------------------------------------------------------------- check_line, by hand

AT = datetime(2026, 3, 10, 12, 0)  # a Tuesday
FRI = date(2026, 3, 13)


def ctx(**kw) -> LineContext:
    """A dinner on Friday the 13th at 20:00 at Rosa's, proposed by the line itself."""
    base = {"required": Required(day=FRI, start=(20, 0), place="Rosa's"), "days": frozenset({FRI}),
            "times": frozenset({(20, 0)}), "places": ("Rosa's",)}
    return LineContext(**{**base, **kw})


PROPOSE = Line("Ana", "propose")
ACCEPT = Line("Ana", "accept")
ACCEPTS = ctx(required=Required())  # an acceptance must express nothing and may name only what it accepts


@pytest.mark.parametrize(("line", "text", "context"), [
    (PROPOSE, "dinner fri 8? rosa's", ctx()),  # a bare hour, lower case
    (PROPOSE, "rosa's fri, 8ish?", ctx()),
    (PROPOSE, "fri 7 wait no, 8. rosa's", ctx()),  # a self-correction ends on the value
    (PROPOSE, "friday at rosa's, 8 not 7", ctx()),
    (PROPOSE, "fri at the usual spot, 8?", ctx(usual_place="Rosa's")),
    (PROPOSE, "fri 8 at rosa's for two hours?", ctx(required=Required(FRI, (20, 0), (22, 0), None, "Rosa's"),
                                                   times=frozenset({(20, 0), (22, 0)}),
                                                   spans=frozenset({((20, 0), (22, 0))}))),
    (PROPOSE, "rosa's fri straight after the gym?", ctx(timetable=(
        TimetableEvent(frozenset({"gym", "session"}), datetime(2026, 3, 13, 18, 45), datetime(2026, 3, 13, 20)),))),
    (PROPOSE, "rosa's fri, an hour before the match", ctx(timetable=(
        TimetableEvent(frozenset({"match"}), datetime(2026, 3, 13, 21), datetime(2026, 3, 13, 23)),))),
    (PROPOSE, "rosa's? friday evening", ctx(required=Required(day=FRI, place="Rosa's"), times=frozenset())),
    (Line("Ana", "propose"), "rosa's again? fri 8", ctx(timetable_places=frozenset({"Rosa's Trattoria"}),
                                                      places=("Rosa's Trattoria",),
                                                      required=Required(FRI, (20, 0), place="Rosa's Trattoria"))),
    (Line("Ana", "add_person"), "ben's coming too", ctx(required=Required(
        person="Ben Carter", person_forms=frozenset({"ben", "carter"})), days=None, times=None)),
    (ACCEPT, "👍", ACCEPTS),
    (ACCEPT, "yep", ACCEPTS),
    (ACCEPT, "8 works, see you fri", ACCEPTS),
    (ACCEPT, "can't wait!! see you then", ACCEPTS),
    (ACCEPT, "no worries, I'll see you there", ACCEPTS),
    (Line("Ana", "reject"), "can't, I'm at the dentist till 6:30 on thursday", ctx(required=Required(), days=None,
                                                                                times=None)),
    (Line("Ana", "cancel_implicit"), "ugh my shift got moved to friday night 😭", ctx(required=Required(), days=None,
                                                                                     times=None)),
])
def test_realistic_lines_pass(line, text, context):
    assert check_line(line, text, AT, context) is None


@pytest.mark.parametrize(("line", "text", "context", "reason"), [
    (ACCEPT, "sorry, can't make it", ACCEPTS, "refusal"),
    (ACCEPT, "count me out this time", ACCEPTS, "refusal"),
    (ACCEPT, "👎", ACCEPTS, "refusal"),
    (ACCEPT, "maybe! let me check", ACCEPTS, "hedge"),
    (ACCEPT, "not sure yet tbh", ACCEPTS, "hedge"),
    (Line("Bo", "pick"), "probably the 8 one", ACCEPTS, "hedge"),
    (ACCEPT, "sure, 7 works", ACCEPTS, "other_time"),  # the plan is 20:00: 7 is neither 07:00 nor 20:00
    (ACCEPT, "great, see you saturday", ACCEPTS, "other_day"),
    (ACCEPT, "yes! see you fri morning", ACCEPTS, "other_time"),
    (Line("Ana", "cancel_implicit"), "ugh work again. let's cancel", ctx(required=Required(), days=None,
                                                                         times=None), "says_cancel"),
    (Line("Ana", "cancel_implicit"), "we have to call it off, sorry", ctx(required=Required(), days=None,
                                                                          times=None), "says_cancel"),
    (PROPOSE, "fri 8 wait no, 9. rosa's", ctx(), "missing_start"),  # 20:00 taken back for 21:00
    (PROPOSE, "rosa's fri 8 for three hours?", ctx(), "other_time"),  # a duration the plan does not have
    (PROPOSE, "rosa's at 8?", ctx(), "missing_day"),
    (Line("Ana", "add_person"), "bea's coming too", ctx(required=Required(
        person="Ben Carter", person_forms=frozenset({"ben", "carter"})), days=None, times=None), "missing_person"),
    (PROPOSE, "rosa's friday evening?", ctx(), "missing_start"),  # a part of the day is no clock time
    (PROPOSE, "fri 8 at the usual spot?", ctx(), "missing_place"),  # the timetable gives no usual place
    (PROPOSE, "rosa's fri straight after the gym?", ctx(timetable=(  # the gym ends at 18:00
        TimetableEvent(frozenset({"gym"}), datetime(2026, 3, 13, 17), datetime(2026, 3, 13, 18)),)), "missing_start"),
    (PROPOSE, "rosa's fri straight after the gym?", ctx(timetable=(  # the gym that ends at 20:00 is on thursday
        TimetableEvent(frozenset({"gym"}), datetime(2026, 3, 12, 19), datetime(2026, 3, 12, 20)),)), "missing_start"),
])
def test_intent_and_value_changes_are_rejected(line, text, context, reason):
    problem = check_line(line, text, AT, context)
    assert problem is not None and problem.reason == reason, problem


def test_intent_kinds_follow_the_names():
    assert [intent_kind(i) for i in ("accept", "accept_later", "pick_option", "condition_met", "book_confirm",
                                     "reject", "decline_invite", "book_unavailable", "cancel", "relay_cancel",
                                     "cancel_implicit", "ack_cancel", "counter_time", "brand_new_intent")] == [
        "acceptance", "acceptance", "acceptance", "acceptance", "acceptance", "refusal", "refusal", "refusal",
        "cancellation", "cancellation", "implicit_cancellation", "other", "other", "other"]


def test_several_cases_are_in_flight_at_once(scripted_server):
    """The pipeline's loop keeps the llm realiser's requests of different cases concurrent."""
    scripted_server.delay = 0.05
    try:
        scripted_server.default = faithful
        result = generate(config(scripted_server, cases=6))
    finally:
        scripted_server.delay = 0.0
    assert len(result.cases) >= 5
    assert scripted_server.max_inflight >= 4


def test_the_usual_place_comes_from_the_timetable():
    """"The usual spot" names the one location the timetable's earlier events with the chat's
    people share; two different locations name none."""
    from proevent.generate.assemble import plan_case
    from proevent.generate.realize.llm_check import line_contexts
    from proevent.model import Event

    plan = plan_case(0, 0, GeneratorConfig(seed=11))
    pc = plan.chats[0]
    friend = next(m for m in pc.chat.members if m != plan.user)
    before = (pc.times[0].replace(hour=0, minute=0) - timedelta(days=7)).strftime("%Y-%m-%dT19:00")
    plan.initial = [Event(id="e1", start=before, end=None, location="Rosa's", participants=[plan.user, friend],
                          description="dinner")]
    own = {str(ln.slots["place"]) for ln in pc.lines if ln.slots.get("usual")}  # the plan's own "usual spot" lines
    usual = {c.usual_place for c in line_contexts(plan, pc)}
    assert "Rosa's" in usual and usual - own == {"Rosa's"}
    plan.initial.append(Event(id="e2", start=before, end=None, location="Casa Verde",
                              participants=[plan.user, friend], description="lunch"))
    assert {c.usual_place for c in line_contexts(plan, pc) if c.usual_place} <= own
