"""The template realiser: paraphrases per intent and register, date and time surface forms,
names and nicknames, slang, discourse markers and emoticons at configurable rates."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import lru_cache

from proevent.generate.config import StyleConfig
from proevent.generate.contacts import lexicon, noise_content, templates
from proevent.generate.realize.grammar import Rules, expand, tidy
from proevent.generate.realize.surface import (
    day_words,
    part_of_day,
    ref_words,
    shift_words,
    time_words,
    when_words,
)
from proevent.generate.skeleton import Line
from proevent.generate.trajectory import RefEvent
from proevent.timeexpr import MONTHS, WEEKDAYS

_SLOT = re.compile(r"\{(\w+)\}")
_WORD = re.compile(r"\b[a-z]{4,}\b")
_SENTENCE = re.compile(r"((?:^|[.!?])\s*)([a-z])")


@dataclass
class ChatContext:
    """What the realiser knows about a chat: how each person writes, what they call each other,
    and what the chat is about (the contact's category and the activities it plans)."""

    user: str
    voices: dict[str, str]
    nicknames: dict[str, str]
    refs: list[RefEvent] = field(default_factory=list)
    style: StyleConfig = field(default_factory=StyleConfig)
    category: str | None = None
    acts: list[str] = field(default_factory=list)
    hours: tuple[int, int] | None = None
    """The hours the chat's activity happens at (a bare "8" is read from them)."""
    used: set[str] = field(default_factory=set)
    """Surface phenomena the realiser wrote into this chat (``bare_hour``, ``burst``...)."""
    named_days: frozenset[str] = frozenset()
    """Days (ISO) the chat's lines and references name: an off-topic line never names one of them
    (it would fake evidence of an event's day)."""
    direct: bool = False
    """Render every implicit reference with its explicit value (the ``direct`` paired variant:
    :func:`explicit_line`)."""

    def voice(self, person: str) -> str:
        return self.voices.get(person, "casual")


def _first(name: str) -> str:
    parts = name.split()
    return parts[1] if parts[0].rstrip(".") in ("Dr", "Prof", "Mrs", "Mr", "Ms") and len(parts) > 2 else parts[0]


_SHORT_REPLIES = {"ack", "accept", "accept_later", "decline_invite", "react", "pick_option", "late", "self_correct",
                  "self_correct_day", "accept_conditional", "condition_met"}
_BARE = {"react", "pick_option", "self_correct", "self_correct_day"}
"""Lines that are a reaction or a value alone: no slang tag or emoticon is added ("👍 haha")."""
_RESPONSES = {"ack", "accept", "accept_later", "reject", "defer", "decline_invite"}
_ACK_AFTER = {  # what an acknowledgement answers: its template family
    "cancel": "ack_cancel", "cancel_implicit": "ack_cancel", "user_dropout": "ack_cancel",
    "self_dropout": "ack_cancel", "abandon": "ack_cancel", "reject": "ack_reject",
    "remove_person": "ack_info", "decline_invite": "ack_info", "narrate_plan": "ack_narrate",
}


@lru_cache(maxsize=8)
def rule_tables(voice: str) -> tuple[Rules, ...]:
    """Rule tables for a voice, most specific first: voice, register, shared (templates, then small talk)."""
    register = "formal" if voice == "formal" else "casual"
    levels = ([voice] if voice not in ("formal", "casual") else []) + [register, "shared"]
    sources = (templates().rules, noise_content().rules)
    return tuple(src.get(level, {}) for level in levels for src in sources)


@lru_cache(maxsize=1)
def _date_words() -> frozenset[str]:
    return frozenset([*WEEKDAYS, *(m for m in MONTHS), *(m[:3] for m in MONTHS), "mon", "tue", "tues", "wed",
                      "thu", "thur", "thurs", "fri", "sat", "sun", "tmr", "tmrw", "today", "tonight", "noon"])


@lru_cache(maxsize=64)
def _slang_pattern(word: str) -> re.Pattern[str]:
    return re.compile(rf"\b{word}\b")


def _next_to_slot(parts: list[str], i: int, m: re.Match[str]) -> bool:
    """The word touches a value ("7 then", "at Rosa's"): it is what makes the value readable."""
    before = parts[i][:m.start()].strip() == "" and i > 0 and parts[i - 1].startswith("{")
    after = parts[i][m.end():].strip() == "" and i + 1 < len(parts) and parts[i + 1].startswith("{")
    return before or after


def _typo(text: str, rng: random.Random) -> str:
    """One slip of the thumb (swap, drop or double a letter) in a template word, never in a slot."""
    parts = re.split(r"(\{\w+\})", text)
    spots = [(i, m) for i, p in enumerate(parts) if not p.startswith("{") for m in _WORD.finditer(p)
             if not _next_to_slot(parts, i, m)]
    if not spots:
        return text
    i, m = rng.choice(spots)
    w = m.group(0)
    k = rng.randrange(1, len(w) - 1)
    op = rng.randrange(3)
    new = (w[:k] + w[k + 1] + w[k] + w[k + 2:]) if op == 0 else (w[:k] + w[k + 1:]) if op == 1 else (
        w[:k] + w[k] + w[k:])
    if new in _date_words():
        return text
    parts[i] = parts[i][: m.start()] + new + parts[i][m.end():]
    return "".join(parts)


_YOU = re.compile(r"\b(?:u|ur|r u)\b")
STOP = "\ue000"
"""Stands for a full stop that a chat writer puts between two clauses ("ok. sat then"); it becomes
"." once the message is split into a burst, so that it does not split the message itself."""
_CLAUSE_COMMA = re.compile(r"(?<=[a-z']), (?=[a-z])")
_SORRY = re.compile(r"\b(?:so |so so )?(?:sorry|sry)\b,? ?")
_STOP_RATE = 0.4
"""Share of casual messages whose clauses are cut with a full stop instead of a comma."""
_SORRY_DROP = 0.5
"""Share of casual messages that lose the template's "sorry" (texts apologise less than letters)."""
_YOU_FULL = {"u": "you", "ur": "your", "r u": "are you"}
_NEGATIVE = frozenset({"decline", "reject", "reject_place", "reject_person", "decline_invite", "cancel",
                       "cancel_implicit", "user_dropout", "self_dropout", "abandon", "late", "book_unavailable",
                       "ack_cancel", "ack_reject"})
_POSITIVE = frozenset({"accept", "accept_later", "react", "confirm", "condition_met", "join", "pick_option",
                       "volunteer", "report_done", "ack_narrate"})
"""An emoji added to a refusal is a sad or awkward face, to a yes a happy one: "so no 🎉" muddles what
the message says (the voice's own mix stays for everything else)."""
_GUYS = re.compile(r"(?:,? guys\b(?=[,.!?]|$)|\bguys, )")
"""A vocative "guys" ("ok guys!", "sorry guys, ..."): group chats say it far less than templates do."""
_GUYS_DROP = 0.6
_DROPPED = re.compile(r"\b(?:I'm|I'll|I've|I'd|can't|don't|won't|didn't|isn't|it's|that's|what's|let's|"
                      r"doesn't|wasn't|couldn't|shouldn't|you're|we're|they're)\b", re.IGNORECASE)


def _stylise(tpl: str, voice: str, style: StyleConfig, rng: random.Random, intent: str = "", key: str = "") -> str:
    """Conversational texture, applied to the expanded template before the slots are filled (``key``:
    the template family, when it says more than the intent: ``ack_cancel``, ``ack_narrate``)."""
    lex = lexicon()
    if voice == "formal":
        tpl = _SENTENCE.sub(lambda m: m.group(1) + m.group(2).upper(), tpl)
        if rng.random() < style.typo * 0.3:
            tpl = _typo(tpl, rng)
        if intent in _RESPONSES and rng.random() < style.discourse * 0.6:
            return f"{rng.choice(lex.formal_markers)} {tpl}"
        return tpl
    parts = re.split(r"(\{\w+\})", tpl)
    if rng.random() < _STOP_RATE:  # "noo. sat then" rather than "noo, sat then"; never next to a value
        parts = [p if p.startswith("{") else _CLAUSE_COMMA.sub(STOP + " ", p) for p in parts]
    if rng.random() < _SORRY_DROP:
        kept = [p if p.startswith("{") else _SORRY.sub("", p) for p in parts]
        if len(re.findall(r"\w\w", "".join(kept))) > 1:  # something is left to say ("sorry" alone stays)
            parts = kept
    if rng.random() < 0.35:  # thumbs skip apostrophes and capitals: "im", "cant", "i'll"
        parts = [p if p.startswith("{") else _DROPPED.sub(lambda m: m.group(0).replace("'", "").lower(), p)
                 for p in parts]
    if rng.random() < 0.3:
        parts = [p if p.startswith("{") else re.sub(r"\bI\b", "i", p) for p in parts]
    if rng.random() < _GUYS_DROP:
        parts = [p if p.startswith("{") else _GUYS.sub("", p)
                 for p in parts]
    if voice == "casual":  # a habit of the writer: "you" here, "u" in the terse and emoji voices
        parts = [p if p.startswith("{") else _YOU.sub(lambda m: _YOU_FULL[m.group(0)], p) for p in parts]
    if rng.random() < style.slang:
        for k, v in lex.slang.items():
            if rng.random() < 0.6:
                pattern = _slang_pattern(k)
                parts = [p if p.startswith("{") else pattern.sub(v, p) for p in parts]
    text = "".join(parts)
    if rng.random() < style.typo:
        text = _typo(text, rng)
    if rng.random() < style.discourse and intent not in _SHORT_REPLIES:
        marker = rng.choice([m for m in lex.discourse_markers if "?" in tpl or not m.endswith(":")])
        text = f"{marker} {text[0].lower()}{text[1:]}" if not text.startswith("{") else f"{marker} {text}"
    if voice == "terse":
        text = text.rstrip(".!")
        text = text[0].lower() + text[1:] if not text.startswith("{") else text
    if intent in _BARE:
        return text
    if rng.random() < style.slang * 0.5:
        text = f"{text} {rng.choice(lex.slang_tags)}"
    rate = style.emoticon * (2.0 if voice == "emoji" else 0.6)
    if rng.random() < rate:
        mood = "negative" if {intent, key} & _NEGATIVE else "positive" if {intent, key} & _POSITIVE else voice
        text = f"{text} {rng.choice(lex.emoticons.get(mood) or lex.emoticons['casual'])}"
    return text


def _reason(kind: str, voice: str, category: str | None, rng: random.Random) -> str:
    """A reason for a change or a cancellation, often one that fits the contact's category."""
    lex = lexicon()
    table = {"conflict": lex.conflict_reasons, "cancel": lex.cancel_reasons,
             "implicit": lex.implicit_cancel_reasons}[kind]
    register = "formal" if voice == "formal" else "casual"
    specific = table.get(f"{register}/{category}") if category else None
    pool = specific if specific and rng.random() < 0.5 else table[register]
    reason = expand(rng.choice(pool), rule_tables(voice), rng, clean=False)
    if register == "casual" and rng.random() < 0.4:
        reason = _drop_subject(reason)
    return reason


_SUBJECT = re.compile(r"^(?:i've got|ive got|i have got|i have|i've|ive|i'm|im) (?=\w)", re.IGNORECASE)


def _drop_subject(reason: str) -> str:
    """Texts drop the subject: "i've got work" -> "got work", "i'm at my mum's" -> "at my mum's"."""
    m = _SUBJECT.match(reason)
    if not m:
        return reason
    rest = reason[m.end():]
    return ("got " + rest) if m.group(0).lower().startswith(("i've", "ive", "i have")) else rest


def address(person: str | None, ctx: ChatContext, voice: str, rng: random.Random) -> str:
    """What a speaker calls ``person``: a nickname, the first name, or a casual term ("mate")."""
    if person is None:
        return ""
    nick = ctx.nicknames.get(person, _first(person))
    roll = rng.random()
    if voice != "formal" and roll < 0.12 and lexicon().address_terms:
        return rng.choice(lexicon().address_terms)
    return _first(person) if roll > 0.8 else nick


_CALLED_OFF = re.compile(r"\b(?:off|cancel\w*|can't go ahead|has to go)\b", re.IGNORECASE)
"""What a cancellation for everyone says (a member's "can't do it anymore" only drops them out)."""
_DATA_SLOTS = frozenset({"when", "day", "time", "place", "person", "ref", "options", "choice", "other", "shift"})
"""Slots whose value comes from the line (the others are drawn: act, reason, name)."""
_SAME_AS = {"join": "condition_met"}  # a member who now comes says so like a condition met
_WITH_PLACE = {"book_request": "book_request_place"}
"""Intents with a variant that names the place, used when the line has one (it must be said)."""


_LONE_REACTION = {"accept": 0.12, "react": 0.2, "ack": 0.1}
"""How often a casual agreement, reaction or acknowledgement is a thumbs-up alone: the proposal it
answers holds the values, and chats answer with the emoji far more than with "ok 👍"."""
_LONE_THUMBS = ("👍",) * 8 + ("👍🏻", "👍🏽", "👍👍")
_BARE_COUNTER = 0.25
"""How often a casual counter-proposal is its value alone, with no reason or question around it."""
_BARE_COUNTER_FORMS = {"counter_time": ["{when}?", "{when}?", "{when}?", "{when} instead?", "or {when}?", "{when} ok?"],
                       "counter_place": ["{place}?", "{place}?", "{place} instead?", "or {place}?"]}
_GROUP_IN = 0.2
"""How often a yes in a group chat is the group's short "in" (a plan put to several people is
answered "in", "im in", "count me in" far more than "yes, that works")."""
_GROUP_IN_FORMS = ("in", "in", "in!", "im in", "i'm in", "count me in", "in 🙋", "in 🙋‍♀️", "in 🙋‍♂️", "yes in")


_DAY_FORMS = {"react": 0.75, "decline": 0.6, "reject": 0.6}
"""How often a reaction or a refusal that knows its day names it (``<intent>_day``): people answer
"sat works", "see you sat", "cant do thu" as often as "👍" or "cant, got work"."""


_REASON_OPTIONAL = frozenset({"reject", "decline", "counter_time", "counter_place", "reject_place", "reject_person"})
"""Refusals and counter-proposals that a casual writer often sends without a reason ("cant do sat. sun?");
an implicit cancellation never loses its reason (the reason is what cancels)."""
_NO_REASON = 0.5
_REASON_SLOT = re.compile(r"[,:;]?\s*\{reason\}")


_SAME_TIME_FORM = 0.75
"""How often a move to another day at the same clock time says only the day and "same time"."""


def _intent_key(line: Line, table: dict[str, list[str]]) -> str:
    if line.intent == "ack":
        key = _ACK_AFTER.get(str(line.slots.get("after", "")))
        if key and key in table:
            return key
    if line.intent not in table and line.intent in _SAME_AS:
        return _SAME_AS[line.intent]
    if line.intent in _WITH_PLACE and "place" in line.slots and _WITH_PLACE[line.intent] in table:
        return _WITH_PLACE[line.intent]
    return line.intent


def _about(value: tuple[str, str], at: datetime, speaker_is_user: bool, formal: bool, rng: random.Random) -> str:
    """Which timetable event a message is about: "dinner fri: ", "re the 14th - "."""
    act, day = value
    act = act.replace("your ", "my ") if speaker_is_user else act
    d = day_words(day, at, formal, rng)
    if not act:  # the message names the activity itself: only the day tells the event
        return rng.choice((f"Regarding {d}: ", f"For {d}: ")) if formal else rng.choice(
            (f"{d}: ", f"{d} - ", f"for {d}, ", f"{d}, ", f"also {d}, ", f"and {d}, "))
    if formal:
        return rng.choice((f"Regarding {act} {d}: ", f"About {act} {d}: ", f"Re {act} {d}: "))
    return rng.choice((f"{act} {d}: ", f"{act} {d}, ", f"{d} {act} - ", f"so {act} {d}, ",
                       f"also {act} {d}, ", f"and {d}, "))


_EXPLICIT = {"link_time": "counter_time", "link_place": "counter_place", "link_people": "add_person",
             "shift_time": "counter_time", "cancel_implicit": "cancel"}
"""What an implicit line says instead in the ``direct`` variant: the value itself ("8pm" for "right
after my dentist", "Ana and Ben" for "same crew as last time", "cancel dinner" for "noo, my
shift got moved")."""
IMPLICIT_INTENTS = frozenset([*_EXPLICIT, "relay_time", "relay_place", "relay_cancel"])


def is_implicit(line: Line) -> bool:
    """A line whose value a reader must work out (a timetable link, "the usual spot", an hour
    later, an implicit cancellation, news relayed without naming the event)."""
    return line.intent in IMPLICIT_INTENTS or bool(line.slots.get("usual"))


def explicit_line(line: Line) -> Line:
    """The line with its explicit value: the intent that states the value, ``usual`` dropped.

    A ``link_people`` line must carry ``people`` (the names it adds, as said: "Ana and Ben"),
    which the variant builder works out from the trajectory; relayed news names the event.
    """
    slots = {k: v for k, v in line.slots.items() if k not in ("usual", "ref", "shift")}
    intent = _EXPLICIT.get(line.intent, line.intent)
    if line.intent == "link_people":
        slots["person"] = slots["people"]
    if line.intent.startswith("relay_") and "about" not in slots and "act" in slots and "day" in slots:
        slots["about"] = (slots["act"], slots["day"])
    return replace(line, intent=intent, slots=slots)


def _hours(line: Line, ctx: ChatContext) -> tuple[int, int] | None:
    """The hours of the line's activity: the chat's, or those a noise chat's line carries (``hours``)."""
    own = line.slots.get("hours")
    return ctx.hours if ctx.hours is not None or not isinstance(own, tuple) else (int(own[0]), int(own[1]))


def render_line(line: Line, at: datetime, ctx: ChatContext, rng: random.Random) -> str:
    """The text of one skeleton line sent at ``at``."""
    return _render(line, at, ctx, rng).replace(STOP, ".")


def _render(line: Line, at: datetime, ctx: ChatContext, rng: random.Random) -> str:
    """:func:`render_line`, with the full stops between clauses still as :data:`STOP`."""
    if ctx.direct and is_implicit(line):
        line = explicit_line(line)
    voice = ctx.voice(line.speaker)
    formal = voice == "formal"
    if not formal and line.intent in _LONE_REACTION and rng.random() < _LONE_REACTION[line.intent]:
        if line.intent != "ack":
            ctx.used.add("reaction_agreement")
        return rng.choice(_LONE_THUMBS)
    if not formal and line.intent == "accept" and len(ctx.voices) > 2 and rng.random() < _GROUP_IN:
        return rng.choice(_GROUP_IN_FORMS)
    tables = rule_tables(voice)
    if line.intent == "interjection":
        if "text" in line.slots:
            src = str(line.slots["text"])
        else:
            pool = noise_content().interjections["formal" if formal else "casual"]
            src = pool[int(float(line.slots["pick"]) * len(pool))]  # type: ignore[arg-type]
        text = expand(src, tables, rng).replace("{name}", address(line.addressee, ctx, voice, rng))
        if "{nday}" in text:
            text = text.replace("{nday}", _other_day(at, ctx, rng))
        text = _stylise(text.replace("{", "(").replace("}", ")"), voice, ctx.style, rng)
        return tidy(text[0].upper() + text[1:] if formal else text)
    table = templates().formal if formal else templates().casual
    s = line.slots
    hours = _hours(line, ctx)
    key = _intent_key(line, table)
    if "day" in s and f"{key}_day" in table and rng.random() < _DAY_FORMS.get(key, 0.0):
        key = f"{key}_day"  # "see you sat", "cant do thu, got work"
    elif s.get("same_time") and f"{key}_same" in table and rng.random() < _SAME_TIME_FORM:
        key = f"{key}_same"  # a move of the day alone: "thu instead? same time" (the start is known)
    pool = table[key]
    if not formal and key in _BARE_COUNTER_FORMS and all(
            slot in s for slot in _SLOT.findall(_BARE_COUNTER_FORMS[key][0])) and rng.random() < _BARE_COUNTER:
        pool = _BARE_COUNTER_FORMS[key]  # "sat 3?": the counter-proposal is the value alone
    for _ in range(32):  # an optional part may name a value this line does not have ("[ {day}|]")
        tpl = expand(rng.choice(pool), tables, rng)
        if all(slot in s or slot not in _DATA_SLOTS for slot in _SLOT.findall(tpl)) and (
                not s.get("for_all") or _CALLED_OFF.search(tpl)):
            break
    else:
        raise ValueError(f"no template of {line.intent!r} fits the slots {sorted(s)}")
    if not formal and line.intent in _REASON_OPTIONAL and "{reason}" in tpl and rng.random() < _NO_REASON:
        bare = _REASON_SLOT.sub("", tpl)  # "cant do {day}" where a letter would give the reason too
        if len(re.findall(r"\w+|\{\w+\}", bare)) >= 2:
            tpl = bare
    tpl = _stylise(tpl, voice, ctx.style, rng, line.intent, key)
    reason_kind = {"cancel": "cancel", "cancel_implicit": "implicit"}.get(line.intent, "conflict")
    category = "service" if line.intent == "book_unavailable" else ctx.category
    values: dict[str, str] = {}
    for slot in dict.fromkeys(_SLOT.findall(tpl)):
        if slot == "act":
            act = str(s["act"]) if "act" in s else (rng.choice(ctx.acts) if ctx.acts else "it")
            # acts are written from the contact's side ("your cleaning"); the user says "my cleaning",
            # and someone telling of their own plans "a cleaning"
            own = "a " if line.intent in ("narrate_plan", "invite_others") else "my "
            values[slot] = act.replace("your ", own) if line.speaker == ctx.user or own == "a " else act
        elif slot == "when":
            start, end = s["when"]  # type: ignore[misc]
            values[slot] = when_words(start, end, at, formal, rng, hours, ctx.used)
        elif slot == "day":
            values[slot] = day_words(str(s["day"]), at, formal, rng)
            part = part_of_day(hours, rng) if "when" not in s and not formal else None
            if part and rng.random() < 0.45:
                values[slot] = f"{values[slot]} {part}"
                ctx.used.add("part_of_day")
        elif slot == "time":
            start, end = s["time"]  # type: ignore[misc]
            values[slot] = time_words(start, end, formal, rng, hours, ctx.used)
        elif slot in ("choice", "other"):
            start = str(s[slot][0] if isinstance(s[slot], tuple) else s[slot])  # type: ignore[index]
            values[slot] = time_words(start, None, formal, rng, hours, ctx.used) if len(start) == 16 else (
                day_words(start, at, formal, rng))
        elif slot == "shift":
            values[slot] = shift_words(int(s["shift"]), formal, rng)  # type: ignore[call-overload]
            ctx.used.add("relative_time")
        elif slot == "options":
            a, b = s["options"]  # type: ignore[misc]
            day = day_words(str(a[0]), at, formal, rng)
            ta = time_words(str(a[0]), None, formal, rng, hours, ctx.used)
            tb = time_words(str(b[0]), None, formal, rng, hours, ctx.used)
            # "5 or 7 wed" reads as 7 alone (timeexpr takes a bare hour before a day with that day): day first then
            values[slot] = f"{day} {ta} or {tb}" if rng.random() < 0.6 or ta.isdigit() else f"{ta} or {tb} {day}"
        elif slot == "place":
            place = str(s["place"])
            if s.get("usual"):
                place = rng.choice(("the usual spot", "the usual place", "our usual spot", "the usual"))
                ctx.used.add("usual_spot")
            elif place.islower():
                ctx.used.add("short_place")
            values[slot] = place
        elif slot == "person":
            person = str(s["person"])
            relation = s.get("relation")
            if "people" in s:
                values[slot] = str(s["people"])  # several names, already as said ("Ana and Ben")
            elif line.intent == "add_person" and relation and rng.random() < 0.6:
                values[slot] = f"{relation} {person}"
            elif line.intent.startswith("relay_"):
                values[slot] = person  # already as the relayer says it ("May", "Brightsmile Dental")
            else:
                values[slot] = _first(person) if rng.random() < 0.85 else person  # people say first names
        elif slot == "ref":
            ref = ctx.refs[int(s["ref"])]  # type: ignore[arg-type]
            # "last time" only points somewhere when one earlier event with the contact is on record
            shared = ref.shared_with_contact and sum(1 for r in ctx.refs if r.historical and r.shared_with_contact) == 1
            month = (ref.state.start or "")[:7]
            precise = any(r is not ref and r.historical and r.state.description == ref.state.description
                          and (r.state.start or "")[:7] == month for r in ctx.refs)
            values[slot] = ref_words(ref.state, ref.historical, shared, at, formal, rng, precise)
        elif slot in ("reason", "reason_cap"):
            r = values.get("reason") or _reason(reason_kind, voice, category, rng)
            values["reason"] = r
            values["reason_cap"] = r[0].upper() + r[1:]
        elif slot == "name":
            values[slot] = address(line.addressee, ctx, voice, rng)
    text = _SLOT.sub(lambda m: values.get(m.group(1), ""), tpl)
    if s.get("another"):  # a second event with the same people: not a move of the first one
        head = rng.choice(("Separately, another booking: ", "One more appointment: ")) if formal else rng.choice(
            ("another one: ", "separate thing, ", "new plan: ", "one more plan: "))
        text = head + (text if formal else text[0].lower() + text[1:])
    if "about" in s and "{day}" not in tpl and "{ref}" not in tpl:
        act, day = s["about"]  # type: ignore[misc]
        head = _about((act if "{act}" not in tpl else "", day), at, line.speaker == ctx.user, formal, rng)
        text = head + (text if formal else text[0].lower() + text[1:])
    if line.intent in ("accept", "accept_later"):
        text = _with_echo(text, line, at, formal, table, tables, rng, ctx)
    if line.intent in ("ack", "accept", "reject") and line.addressee and "{name}" not in tpl and (
        rng.random() < 0.25
    ):
        nick = address(line.addressee, ctx, voice, rng)
        if text.endswith("?") or rng.random() < 0.5:
            text = f"{nick}, {text[0].lower()}{text[1:]}"
        else:
            text = f"{text.rstrip('.!')}, {nick}"
    if line.intent in ("accept", "accept_later", "confirm") and rng.random() < 0.12:
        closer = rng.choice(lexicon().closers["formal" if formal else "casual"])
        text = f"{text} {expand(closer, tables, rng, clean=False)}"
    return tidy(text)


def _with_echo(text: str, line: Line, at: datetime, formal: bool, table: dict[str, list[str]],
               tables: tuple[Rules, ...], rng: random.Random, ctx: ChatContext) -> str:
    """Accepting often repeats the value agreed on ("Friday it is")."""
    keys = [k for k in ("when", "place", "time") if k in line.slots]
    if not keys or rng.random() < (0.5 if formal else 0.35):
        return text
    key = rng.choice(keys)
    if key == "place":
        value = str(line.slots["place"])
    else:
        start, end = line.slots[key]  # type: ignore[misc]
        if key == "when" and not formal and rng.random() < 0.4:
            value = day_words(start, at, formal, rng)  # the day alone: "sat it is"
        else:
            hours = _hours(line, ctx)
            value = when_words(start, end, at, formal, rng, hours, ctx.used) if key == "when" else time_words(
                start, end, formal, rng, hours, ctx.used)
    echo = expand(rng.choice(table[f"echo_{key}"]), tables, rng, clean=False)
    echo = echo.replace(f"{{{key}_cap}}", value[0].upper() + value[1:]).replace(f"{{{key}}}", value)
    sep = " " if text[-1] in ".!?" else ", "
    return f"{text}{sep}{echo}"


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _named_days(lines: list[Line], ctx: ChatContext) -> frozenset[str]:
    said = [repr(line.slots) + repr(line.state) for line in lines] + [repr(r.state) for r in ctx.refs]
    return frozenset(d for text in said for d in _ISO_DAY.findall(text))


def _other_day(at: datetime, ctx: ChatContext, rng: random.Random) -> str:
    """A day of the coming week that no event of the chat is on, as said in a chat ("sat", "tmrw"):
    small talk about someone's week ("my sister's coming sat")."""
    days = [(at + timedelta(days=k)).date().isoformat() for k in range(1, 7)]
    free = [d for d in days if d not in ctx.named_days] or ["later"]
    day = rng.choice(free)
    return "later" if day == "later" else day_words(day, at, False, rng)


def greeting(addressee: str | None, at: datetime, ctx: ChatContext, speaker: str, rng: random.Random) -> str:
    """An opening line for a session: the addressee's nickname in a direct chat, "hi all" in a group."""
    voice = ctx.voice(speaker)
    table = templates().formal if voice == "formal" else templates().casual
    tables = rule_tables(voice)
    if addressee is None:
        return expand(rng.choice(table["greeting_group"]), tables, rng)
    options = [g for g in table["greeting"]
               if not ("morning" in g and at.hour >= 12) and not ("afternoon" in g and not 12 <= at.hour < 18)]
    tpl = expand(rng.choice(options), tables, rng)
    return tpl.replace("{name}", address(addressee, ctx, voice, rng))


_BREAK = re.compile(r"(?<=[.!?])\s+(?=\S)")
_ABBREV = re.compile(r"(?:\b(?:Dr|Mr|Mrs|Ms|Prof|St|Mt|Ave|Rd|No|vs|approx|[a-zA-Z])\.|\d)$")


def burst(text: str, voice: str, rng: random.Random) -> list[str]:
    """People send several short messages where a letter would write one sentence after another."""
    if voice == "formal":
        return [text]
    parts: list[str] = []
    for p in _BREAK.split(text):
        if parts and _ABBREV.search(parts[-1]):
            parts[-1] = f"{parts[-1]} {p}"  # "Dr. Okafor", "5 p.m. Friday": not a sentence end
        elif p:
            parts.append(p)
    if len(parts) < 2:
        return [text]
    # the full stop goes; the case stays (a part may start with a name: "Sur La Table is good")
    return [p[:-1] if p.endswith(".") and not p.endswith("..") else p for p in parts]


def realize_chat_template(lines: list[Line], times: list[datetime], ctx: ChatContext,
                          rng: random.Random) -> list[str]:
    """Texts for a whole chat; a session's opening line sometimes starts with a greeting.

    A text holding several messages (a burst) joins them with a newline; assembly splits them.
    """
    ctx.named_days = _named_days(lines, ctx)
    return [realize_line(line, at, ctx, rng, opening=i == 0 or line.new_session)
            for i, (line, at) in enumerate(zip(lines, times))]


def realize_line(line: Line, at: datetime, ctx: ChatContext, rng: random.Random, *, opening: bool) -> str:
    """The text of one line of a chat as the chat realiser writes it (``opening``: the line opens a
    session, so it may start with a greeting); a burst joins its messages with a newline."""
    text = _render(line, at, ctx, rng)
    if opening and line.intent not in ("interjection", "ack", "accept_later") and (
        rng.random() < ctx.style.greeting
    ):
        hello = greeting(line.addressee, at, ctx, line.speaker, rng)
        if hello[-1] in ",.!":
            text = f"{hello} {text}"
        else:
            text = f"{hello}! {text}" if rng.random() < 0.5 else f"{hello}, {text}"
    text = text.replace("\n", " ")
    casual = ctx.voice(line.speaker) != "formal"
    if text.endswith(".") and not text.endswith("..") and rng.random() < (0.85 if casual else 0.7):
        text = text[:-1]  # a chat message rarely ends with a full stop, even a polite one
    if casual and text.endswith("!") and not text.endswith("!!") and rng.random() < 0.3:
        text += "!"  # "yes!!"
    if rng.random() < 0.6:
        parts = burst(text, ctx.voice(line.speaker), rng)
        if len(parts) > 1:
            ctx.used.add("burst")
            text = "\n".join(parts)
    return text.replace(STOP, ".")


__all__ = ["IMPLICIT_INTENTS", "ChatContext", "address", "explicit_line", "greeting", "is_implicit",
           "realize_chat_template", "realize_line", "render_line", "rule_tables"]
