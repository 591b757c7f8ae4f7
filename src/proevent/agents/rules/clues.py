"""What one message says about the events around it, for the ``rules`` agent (:mod:`agent` plays
it on a chat's state): "straight after X" and "where?", whether an event is held where the chat's
service is, an event named only as another plan's time ("lunch before the workshop"), a plan of its
own, a person a drop-out is relayed for, a place said back before a yes, whether an event is over.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache

from proevent.agents.rules.cues import Cues, fold
from proevent.agents.rules.reading import MEMO, Features, activity_of
from proevent.agents.rules.state import Slot, content_words
from proevent.model import Chat

_RE_AFTER = re.compile(r"(?<![\w'])(?:straight|right|just|directly|immediately)\s+after"
                       r"(?:\s+(?:my|the|our|your|his|her))?(?:\s+([a-z][\w']+))?")
"""A start given by another event's end ("right after my dentist", "straight after the match")."""
_RE_WHERE = re.compile(r"(?<![\w'])(?:where|which place|what place|which spot|any ideas for a place|somewhere else"
                       r"|elsewhere|another place|a different place)(?![\w'])")


@lru_cache(maxsize=MEMO)
def marks(f: Features) -> tuple[re.Match[str] | None, bool]:
    """The message's "straight after X" and whether it asks where (both modes play every message)."""
    text = f.folded
    after = _RE_AFTER.search(text) if "after" in text else None  # each pattern needs its words
    where = ("where" in text or "place" in text or "spot" in text) and _RE_WHERE.search(text) is not None
    return after, where


def at_service(slot: Slot, chat: Chat) -> bool:
    """The event is held at the service the chat is with ("Haircut" at "Snip Happens" in the chat
    with Snip Happens): the service's confirmation on its day is about that event."""
    return bool(slot.location) and not content_words(slot.location or "").isdisjoint(content_words(chat.name))


RE_AFTER_ANY = re.compile(r"(?<![\w'])after(?![\w'])")
_RE_ANCHOR = re.compile(r"(?<![\w'])(?:before|after)\s+(?:the\s+|my\s+|our\s+|your\s+|ur\s+|yr\s+|his\s+|her\s+)?"
                        r"([a-z][\w']+)")


def anchor_only(f: Features, slot: Slot, cues: Cues) -> bool:
    """The event is named only as the time of another plan ("lunch before the workshop?", "beers
    after your haircut"): its words stand right after "before"/"after" and nowhere else, and the
    message names an activity of its own that the event's description does not (or asks for a time
    and a place of its own)."""
    if "before" not in f.folded and "after" not in f.folded:
        return False
    own = content_words(slot.description)
    anchors = [m for m in _RE_ANCHOR.finditer(f.folded) if not content_words(m.group(1)).isdisjoint(own)]
    if not anchors:
        return False
    rest = "".join(f.folded[a:b] for a, b in zip([0, *(m.end() for m in anchors)],
                                                   [*(m.start() for m in anchors), len(f.folded)], strict=True))
    activity = activity_of(rest, cues)
    if activity is not None and activity[:4] not in fold(slot.description):
        return True  # ("we're in split by 3 anyway, late lunch at fetivi before the ferry?" for the Split ferry)
    if not content_words(rest).isdisjoint(own) or activity is not None:
        return False
    # no activity word: a time and a place of its own, asked ("after the exam monday, cañas? 1pm at la vía láctea?")
    return f.question and bool(f.reading.clocks) and _RE_AT_OWN_PLACE.search(rest) is not None


RE_PLACE_AGAIN = re.compile(r"(?<![\w'])again\s*\?")
RE_BARE_ANCHOR = re.compile(r"(?<![\w'])(?:before|after)(?=\s*(?:[?!.,;]|$))")
"""'dinner before?', "eat before? 4pm": before or after the event being discussed, named by nothing."""


def plan_of_its_own(f: Features, slot: Slot, cues: Cues) -> bool:
    """The message plans something else than the event: an activity its description does not name,
    or a time and a place of its own."""
    activity = activity_of(f.folded, cues)
    if activity is not None:
        return activity[:4] not in fold(slot.description)
    place = _RE_AT_OWN_PLACE.search(f.folded)
    if place is None or not f.reading.clocks:
        return False
    named = f.folded[place.end() - 1:place.end() + 3]  # the first letters of the place after "at"
    return not (slot.location and fold(slot.location).startswith(named))  # not the event's own place


_RE_AT_OWN_PLACE = re.compile(r"(?<![\w'])(?:at|@)\s+[a-z]")
RE_BOOKED_LEAD = re.compile(r"(?:booked|confirmed|reserved|done|all done|you're booked|you are booked|"
                             r"you're all set)(?![\w'])")
"""A confirmation that opens with its verb (matched at the start of the message)."""
RE_YOUR_BOOKING = re.compile(r"(?<![\w'])(?:your|the)\s+(?:booking|reservation|appointment|table|room)")
RE_YOU_BOOKED = re.compile(r"(?<![\w'])(?:(?:you're|youre|you are|that's you|thats you)\s+(?:now\s+)?(?:booked|all set)"
                           r"|(?:i've|ive|we've|weve|i have|we have)\s+booked\s+you|booked\s+you\s+in)(?![\w'])")
"""A confirmation in the second person ("that's you booked in", "we've booked you"): a business's voice."""
RE_REFERENCE = re.compile(r"(?<![\w'])(?i:reference|ref|booking|order|confirmation|reservation)"
                          r"(?i:\s+(?:number|no|code|id))?\s*(?i:is\s*)?[:#.]?\s*#?\s*(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{3,}(?![\w'])")
"""A booking's code ("Reference: 7GR22K0", "Booking #MS-55120", "Ref VLW-2291"): a booking system's reply."""


RE_THIRD_LEAD = re.compile(r"(?:he|she|they|he's|she's|they're|hes|shes|theyre|he'll|she'll|they'll)(?![\w'])")
"""A message that opens by speaking of someone else ("she's posting it tmrw")."""
_RE_THIRD = re.compile(r"(?<![\w'])(?:he|she|they|he's|she's|they're|hes|shes|theyre)(?![\w'])")


def relayed_person(folded: str, participants: list[str], sender: str, user: str) -> str | None:
    """The one participant (not the sender, not the user) a drop-out names by first name and speaks of
    in the third person: news relayed from another chat, whose members this chat may not have."""
    if _RE_THIRD.search(folded) is None:
        return None
    named = [p for p in participants if p not in (sender, user) and re.search(
        rf"(?<![\w']){re.escape(fold(p.split()[0]))}(?![\w])", folded)]
    return named[0] if len(named) == 1 else None


RECENT_SAID = 6
_RE_LEAD_WORDS = re.compile(r"^[^\W\d][\w'’&.-]*(?:\s+[^\W\d][\w'’&.-]*){0,3}")


def said_back(f: Features, recent: list[str], cues: Cues) -> str | None:
    """The place a yes names first by words of an earlier message of the chat ("zeret yes. 7 good"
    after "that ethiopian place near you, zeret"; "the local 6 👍" after "fri 6? the local"): the
    words before the yes (a time after them aside), said back. Not words the cue lists know (a day,
    "ok", "sure", "so")."""
    m = cues.phrases["agree"].search(f.folded)
    if m is None or m.start() == 0:
        return None
    head = f.folded[:m.start()].strip(" ,.!").rstrip("0123456789: apm").rstrip(" ,.")
    lead = _RE_LEAD_WORDS.fullmatch(head)
    if lead is None or " or " in head or any(d.start < len(head) for d in (*f.reading.days, *f.reading.clocks)) or any(
            cues.has(kind, head) for kind in ("agree", "decline", "hedge", "ask", "change", "self", "remind")):
        return None
    pattern = re.compile(rf"(?<![\w']){re.escape(head)}(?![\w'])")
    return f.text[:len(head)].strip() if any(pattern.search(text) for text in recent) else None


_RE_NAME_RUN = re.compile(r"(?<![\w'])[A-Z][\w'&.-]*(?:\s+(?:[A-Z0-9][\w'&.-]*|of|the|and|&|de|la))*")
_NOT_NAMES = frozenset({"yes", "no", "i", "ok", "okay", "thanks", "thank", "please", "sure", "great", "hi", "hello",
                        "perfect", "fine", "good", "the", "let's", "lets", "can", "could", "would", "book", "that",
                        "this", "actually", "also", "i'll", "i'm", "i'd", "i've"})
_TITLES = frozenset({"dr", "dr.", "mr", "mr.", "mrs", "mrs.", "ms", "ms.", "miss", "prof", "prof.", "doctor"})
_DATE_WORD = re.compile(r"(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?")


def chosen_option(text: str, recent: list[str]) -> str | None:
    """A name the user picks among those the service listed ("Zizzi Cambridge sounds good", "Let's try
    University Arms Hotel for 2 nights"): the longest run of capitalised words of the message that an
    earlier message of the chat holds as whole words (not a yes, a day or a month)."""
    best: str | None = None
    best_len = 0
    for m in _RE_NAME_RUN.finditer(text):
        name = m.group(0).strip(" .")
        words = name.lower().split()
        while words and words[0] in _NOT_NAMES:
            words = words[1:]
        if not words or len(" ".join(words)) < 4 or any(c.isdigit() for c in name) or words[0] in _TITLES or all(
                _DATE_WORD.fullmatch(w) for w in words):
            continue  # not a code, a date or a person ("VL-88213", "Thursday 18", "Dr Pillay")
        folded = fold(" ".join(words))
        pattern = re.compile(rf"(?<![\w']){re.escape(folded)}(?![\w'])")
        if len(folded) > best_len and any(pattern.search(said) for said in recent):
            best, best_len = " ".join(name.split()[len(name.split()) - len(words):]), len(folded)
    return best



_OVER_AFTER = timedelta(hours=3)
"""An event without an end is over this long after its start."""


def over(slot: Slot | None, at: datetime) -> bool:
    """Whether the event has ended by ``at`` (its end, else its start plus three hours; a day without a
    clock time, by the end of that day)."""
    if slot is None or slot.start is None:
        return False
    if "T" not in slot.start:
        return date.fromisoformat(slot.start[:10]) < at.date()
    end = datetime.fromisoformat(slot.end) if slot.end and "T" in slot.end else (
        datetime.fromisoformat(slot.start) + _OVER_AFTER)
    return end < at
