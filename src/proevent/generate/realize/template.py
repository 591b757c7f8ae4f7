"""The template realiser: paraphrases per intent and register, date and time surface forms,
names and nicknames, slang, discourse markers and emoticons at configurable rates."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import datetime

from proevent.generate.config import StyleConfig
from proevent.generate.contacts import lexicon, noise_content, templates
from proevent.generate.realize.surface import day_words, ref_words, time_words, when_words
from proevent.generate.skeleton import Line
from proevent.generate.trajectory import RefEvent

_SLOT = re.compile(r"\{(\w+)\}")


@dataclass
class ChatContext:
    """What the realiser knows about a chat: how each person writes and what they call each other."""

    user: str
    voices: dict[str, str]
    nicknames: dict[str, str]
    refs: list[RefEvent] = field(default_factory=list)
    style: StyleConfig = field(default_factory=StyleConfig)

    def voice(self, person: str) -> str:
        return self.voices.get(person, "casual")


def _first(name: str) -> str:
    parts = name.split()
    return parts[1] if parts[0].rstrip(".") in ("Dr", "Prof", "Mrs", "Mr", "Ms") and len(parts) > 2 else parts[0]


_SHORT_REPLIES = {"ack", "accept", "accept_later", "decline_invite"}
_RESPONSES = {"ack", "accept", "accept_later", "reject", "defer", "decline_invite"}


def _stylise(tpl: str, voice: str, style: StyleConfig, rng: random.Random, intent: str = "") -> str:
    """Conversational texture, applied to the template before the slots are filled."""
    lex = lexicon()
    if voice == "formal":
        if intent in _RESPONSES and rng.random() < style.discourse * 0.6:
            return f"{rng.choice(lex.formal_markers)} {tpl}"
        return tpl
    parts = re.split(r"(\{\w+\})", tpl)
    if rng.random() < style.slang:
        for k, v in lex.slang.items():
            if rng.random() < 0.6:
                parts = [p if p.startswith("{") else re.sub(rf"\b{k}\b", v, p) for p in parts]
    text = "".join(parts)
    if rng.random() < style.discourse and intent not in _SHORT_REPLIES:
        marker = rng.choice([m for m in lex.discourse_markers if "?" in tpl or not m.endswith(":")])
        text = f"{marker} {text[0].lower()}{text[1:]}" if not text.startswith("{") else f"{marker} {text}"
    if voice == "terse":
        text = text.rstrip(".!")
        text = text[0].lower() + text[1:] if not text.startswith("{") else text
    if rng.random() < style.slang * 0.5:
        text = f"{text} {rng.choice(lex.slang_tags)}"
    rate = style.emoticon * (2.0 if voice == "emoji" else 0.6)
    if rng.random() < rate:
        text = f"{text} {rng.choice(lex.emoticons.get(voice, lex.emoticons['casual']))}"
    return text


def _reason(kind: str, formal: bool, rng: random.Random) -> str:
    lex = lexicon()
    table = {"conflict": lex.conflict_reasons, "cancel": lex.cancel_reasons,
             "implicit": lex.implicit_cancel_reasons}[kind]
    return rng.choice(table["formal" if formal else "casual"])


def render_line(line: Line, at: datetime, ctx: ChatContext, rng: random.Random) -> str:
    """The text of one skeleton line sent at ``at``."""
    voice = ctx.voice(line.speaker)
    if line.intent == "interjection":
        if "text" in line.slots:
            text = str(line.slots["text"])
        else:
            pool = noise_content().interjections["formal" if voice == "formal" else "casual"]
            text = pool[int(float(line.slots["pick"]) * len(pool))]  # type: ignore[arg-type]
        return _stylise(text.replace("{", "(").replace("}", ")"), voice, ctx.style, rng)
    formal = voice == "formal"
    table = templates().formal if formal else templates().casual
    tpl = _stylise(rng.choice(table[line.intent]), voice, ctx.style, rng, line.intent)
    s = line.slots
    reason_kind = {"cancel": "cancel", "cancel_implicit": "implicit"}.get(line.intent, "conflict")
    values: dict[str, str] = {}
    for slot in dict.fromkeys(_SLOT.findall(tpl)):
        if slot == "act":
            act = str(s.get("act", "it"))
            # acts are written from the contact's side ("your cleaning"); the user says "my cleaning"
            values[slot] = act.replace("your ", "my ") if line.speaker == ctx.user else act
        elif slot == "when":
            start, end = s["when"]  # type: ignore[misc]
            values[slot] = when_words(start, end, at, formal, rng)
        elif slot == "day":
            values[slot] = day_words(str(s["day"]), at, formal, rng)
        elif slot == "time":
            start, end = s["time"]  # type: ignore[misc]
            values[slot] = time_words(start, end, formal, rng)
        elif slot == "place":
            values[slot] = str(s["place"])
        elif slot == "person":
            person = str(s["person"])
            relation = s.get("relation")
            if line.intent == "add_person" and relation and rng.random() < 0.6:
                values[slot] = f"{relation} {person}"
            elif line.intent in ("remove_person", "self_dropout") and rng.random() < 0.5:
                values[slot] = _first(person)
            else:
                values[slot] = person
        elif slot == "ref":
            ref = ctx.refs[int(s["ref"])]  # type: ignore[arg-type]
            values[slot] = ref_words(ref.state, ref.historical, ref.shared_with_contact, at, formal, rng)
        elif slot in ("reason", "reason_cap"):
            r = values.get("reason") or _reason(reason_kind, formal, rng)
            values["reason"] = r
            values["reason_cap"] = r[0].upper() + r[1:]
        elif slot == "name":
            values[slot] = ctx.nicknames.get(line.addressee or "", "")
    text = _SLOT.sub(lambda m: values.get(m.group(1), ""), tpl)
    if line.intent in ("accept", "accept_later"):
        text = _with_echo(text, line, at, formal, table, rng)
    if line.intent in ("ack", "accept", "reject") and line.addressee and rng.random() < 0.25:
        nick = ctx.nicknames.get(line.addressee, _first(line.addressee))
        if text.endswith("?") or rng.random() < 0.5:
            text = f"{nick}, {text[0].lower()}{text[1:]}"
        else:
            text = f"{text.rstrip('.!')}, {nick}"
    if line.intent in ("accept", "accept_later", "confirm") and rng.random() < 0.25:
        text = f"{text} {rng.choice(lexicon().closers['formal' if formal else 'casual'])}"
    return re.sub(r"\s{2,}", " ", text).strip()


def _with_echo(text: str, line: Line, at: datetime, formal: bool, table: dict[str, list[str]],
               rng: random.Random) -> str:
    """Accepting often repeats the value agreed on ("Friday it is")."""
    keys = [k for k in ("when", "place", "time") if k in line.slots]
    if not keys or rng.random() < 0.5:
        return text
    key = rng.choice(keys)
    if key == "place":
        value = str(line.slots["place"])
    else:
        start, end = line.slots[key]  # type: ignore[misc]
        value = when_words(start, end, at, formal, rng) if key == "when" else time_words(start, end, formal, rng)
    echo = rng.choice(table[f"echo_{key}"])
    echo = echo.replace(f"{{{key}_cap}}", value[0].upper() + value[1:]).replace(f"{{{key}}}", value)
    sep = " " if text[-1] in ".!?" else ", "
    return f"{text}{sep}{echo}"


def greeting(addressee: str | None, at: datetime, ctx: ChatContext, speaker: str, rng: random.Random) -> str:
    """An opening line for a session: the addressee's nickname in a direct chat, "hi all" in a group."""
    voice = ctx.voice(speaker)
    table = templates().formal if voice == "formal" else templates().casual
    if addressee is None:
        return rng.choice(table["greeting_group"])
    options = [g for g in table["greeting"]
               if not ("morning" in g and at.hour >= 12) and not ("afternoon" in g and not 12 <= at.hour < 18)]
    tpl = rng.choice(options)
    return tpl.replace("{name}", ctx.nicknames.get(addressee, _first(addressee)))


def realize_chat_template(lines: list[Line], times: list[datetime], ctx: ChatContext,
                          rng: random.Random) -> list[str]:
    """Texts for a whole chat; a session's opening line sometimes starts with a greeting."""
    out: list[str] = []
    for i, (line, at) in enumerate(zip(lines, times)):
        text = render_line(line, at, ctx, rng)
        opening = i == 0 or line.new_session
        if opening and line.intent not in ("interjection", "ack", "accept_later") and (
            rng.random() < ctx.style.greeting
        ):
            hello = greeting(line.addressee, at, ctx, line.speaker, rng)
            if hello[-1] in ",.!":
                text = f"{hello} {text}"
            else:
                text = f"{hello}! {text}" if rng.random() < 0.5 else f"{hello}, {text}"
        out.append(text)
    return out


__all__ = ["ChatContext", "greeting", "realize_chat_template", "render_line"]
