"""Places in a message: after "at", "@", "in the", "to", "over Zoom", in a short answer ("june's?",
"X it is"), or named by a booking service ("your table at The Lord Nelson").

The text given is already masked: its date and time phrases are blanked with ``\\0`` (see
:func:`mask`), so a place never swallows "on friday" or "7pm". Names are kept as written, lower
case included ("flat iron", "kofi's"): the gold conventions keep a place as the chat writes it.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

from proevent.agents.rules.cues import Cues
from proevent.timeexpr import Reading, read, vocabulary

_CALLS = {"zoom": "Zoom", "teams": "Teams", "google meet": "Google Meet", "meet": "Google Meet", "facetime": "FaceTime",
          "skype": "Skype", "whatsapp": "WhatsApp", "webex": "Webex", "discord": "Discord", "hangouts": "Hangouts"}
_RE_LEAD = re.compile(r"(?:(?<![\w'])(at|@|in|to|from|outside|near|by|use|booked|book)\s+)(?=\S)", re.I)
_RE_PAY_BEFORE = re.compile(r"(?<![\w'])(?:payable|pay|paid|payment|collect\w*)\s+$", re.I)
"""'payable at the station': where to pay, not the event's place."""
_RE_THE_NAME = re.compile(r"the\s+[A-Z]")
_RE_GO_TO = re.compile(r"(?:come|coming|head|heading|go|going|meet|over)\s+$", re.I)
"""'come to moremi hall': after a verb of going, "to" leads a place also in lower case."""
_RE_WORD = re.compile(r"[^\s,.!?;:()\0\"“”]+")
_RE_CALL = re.compile(r"(?<![\w'])(?<!instead of )(?<!not )(?:over|on|via|by|a|on a|quick|use|using)\s+"
                      r"(zoom|teams|google meet|meet|facetime|skype|webex|whatsapp|discord|hangouts)(?![\w'])", re.I)


_RE_FLOOR_NEXT = re.compile(r"\s+(?:level|floor|the\s+\w+\s+floor)\b", re.I)
_RE_INITIAL = re.compile(r"[A-Z][a-z]{0,2}")
_RE_ROOM_NAMED = re.compile(r"(?:room|rm|studio|hall|lab|court|suite)\s+\w", re.I)
_RE_DOTTED = re.compile(r"\.\d")
"""A dot inside a number ("room 4.1", "3.14"): part of the name, not the end of a sentence."""
_RE_HAS_WORD = re.compile(r"[\w&]")
_RE_CLOCKISH = re.compile(r"[\d:.]+(?:am|pm)?")
_RE_IN_PLACE = re.compile(r"(?:the|room|studio|hall|building|lab)\b"
                          r"|(?:[a-z]+\s){1,2}(?:room|studio|hall|lab|suite)\s+\w|[a-z]{1,4}[-.]?\d{1,4}[a-z]?\b", re.I)
"""After "in", a place names its room: "in the lobby", "in room 210", "in group room b", "in LT3", "in B204"
(not "in hamburg")."""
_RE_BE_BEFORE = re.compile(r"(?<![\w'])(?:we're|we are|it's|its|it is|class is|meeting is|will be)\s+(?:now\s+)?$",
                           re.I)
"""Where the event is, stated: after "we're"/"it's", "in" leads a place also in lower case ("we're in odra")."""
_RE_WHOSE = re.compile(r"\w+'s\b|mine\b|ours\b|the\b")
_RE_ANSWER_FILLER = re.compile(r"(?i)\b(instead|it is|then|maybe|perhaps|again|please|pls|for a change)\b")
_RE_ANSWER_LEAD = re.compile(r"(?i)^(?:how about|what about|or|maybe|let's do|lets do|let's go to|try)\s+")
_RE_ANSWER_END = re.compile(r"[?!,;\n]|\.(?!\d)|\s-\s")
_RE_LETTER = re.compile(r"[a-z]")


@lru_cache(maxsize=4)
def _activity_place(cues: Cues) -> re.Pattern[str]:
    """An activity said where a place would be ("at the match", "to the gym"): compiled once per cue set."""
    return re.compile(r"(?:the |a |an )?(?:" + "|".join(map(re.escape, cues.activities)) + r")s?")


_RE_WEEKDAY_BEFORE = re.compile(r"(?i)\b(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)[a-z]*\.?,?\s+(?=\0)")
_RE_LEAD_BEFORE = re.compile(r"(?i)\b(?:on|this|next|coming|from|till|until|by|around|about|at)\s+(?=\0)")


def mask(text: str, ref: datetime, reading: Reading | None = None) -> str:
    """``text`` with every date and time phrase :func:`proevent.timeexpr.read` finds blanked with
    ``\\0`` (the same length, so offsets stay those of the text); ``reading``: that reading, if
    the caller has it."""
    r = read(text, ref) if reading is None else reading
    if not (r.days or r.clocks or r.parts or r.durations or r.relatives or r.ranges) and "\0" not in text:
        return text  # nothing blanked: the two patterns below need a blank to match
    chars = list(text)
    for group in (r.days, r.clocks, r.parts, r.durations, r.relatives, r.ranges):
        for m in group:
            for i in range(m.start, min(m.end, len(chars))):
                chars[i] = "\0"
    masked = "".join(chars)
    blank = lambda m: "\0" * len(m.group(0))  # noqa: E731
    masked = _RE_WEEKDAY_BEFORE.sub(blank, masked)  # "Friday 8 May": the weekday goes with the date
    return _RE_LEAD_BEFORE.sub(blank, masked)


@lru_cache(maxsize=512)  # a message's texts are asked within its own reading (reading.MEMO's window)
def call_place(text: str) -> str | None:
    """ "over zoom", "on teams" -> the service's name ("Zoom")."""
    m = _RE_CALL.search(text)
    return _CALLS[m.group(1).lower()] if m else None


def phrase_at(masked: str, start: int, cues: Cues, *, max_words: int = 5) -> str | None:
    """The noun phrase that begins at ``start``: words up to a stop word, punctuation or a time;
    a capitalised run continues through "of"/"on"/"&" ("Museum of Science")."""
    words: list[str] = []
    pos = start
    limit = max_words
    while len(words) < limit:
        m = _RE_WORD.match(masked, pos)
        if not m:
            break
        word = m.group(0)
        if _RE_INITIAL.fullmatch(word) and masked[m.end():m.end() + 2] == ". ":
            word, m_end = word + ".", m.end() + 1  # St. Mary's, Dr. Patel
        elif word[-1:].isdigit() and _RE_DOTTED.match(masked, m.end()):
            more = _RE_WORD.match(masked, m.end() + 1)
            word, m_end = word + "." + more.group(0), more.end()  # room 4.1
        else:
            m_end = m.end()
        if not _RE_HAS_WORD.search(word):
            break  # an emoji or a mark after the name ("zinkensdamm track ✅")
        low = word.lower().strip("'")
        joins = low in ("of", "on", "&", "de", "la", "el", "le", "du") and words and (
            words[-1][:1].isupper() or low in ("de", "la", "el", "le", "du")) or low == "on" and bool(words) and (
            _RE_FLOOR_NEXT.match(masked, m_end) is not None)  # "the small meeting room on level 2"
        if joins and low == "on":
            limit = len(words) + 3  # the floor: "on level 2", "on the 3rd floor"
        if words and low in cues.place_stops and not joins:
            break
        if not words and (low in cues.place_stops - {"the", "la", "el", "le"} or low.isdigit()):
            return None
        if _RE_CLOCKISH.fullmatch(low) and not words:
            return None
        words.append(word)
        pos = m_end
        if pos < len(masked) and masked[pos] != " ":
            break
        pos += 1
    while words and (words[-1].lower() in cues.place_stops or words[-1].lower() in ("of", "&")):
        words.pop()
    if not words or all(w.lower() in ("the", "a", "an") for w in words):
        return None
    place = " ".join(words).strip("'\"")
    if not any(ch.isalpha() for ch in place):
        return None  # "at -20" (a temperature), "at 3/4": no name
    low = place.lower()
    if {low, low.removeprefix("the "), low.removeprefix("my ")} & cues.not_places:
        return None
    if _activity_place(cues).fullmatch(low):
        return None  # "at the match", "to the gym": an event, not where it is
    if low.split()[-1] in _time_words():
        return None  # "push to the anzac weekend", "in the easter holidays": a time, not a place
    if low.split()[0] in ("my", "your", "his", "her", "their") and len(low.split()) > 1 and low.split()[1] not in (
            "place", "flat", "house", "office", "desk", "room"):
        return None
    return place


@lru_cache(maxsize=1)
def _time_words() -> frozenset[str]:
    """Words that end a phrase naming a time ("the bank holiday weekend"), from the shared vocabulary."""
    v = vocabulary()
    return frozenset([*v.weekend_words, *v.weekdays, *v.months, *(w for w in v.part_words if len(w) > 2),
                      "week", "weeks", "weekends", "holiday", "holidays", "hols", "break"])


_STREET_BEFORE = (r"calle|c/|avenida|avda\.?|av\.?|rua|r\.|rue|via|viale|ul\.?|ulica|ulitsa|ulice|jalan|jl\.?|"
                  r"carrera|cra\.?|plaza|praça|praca|pasaje|camino|paseo|boulevard|blvd\.?|rruga|strada|sokak|"
                  r"cadde|caddesi|iela|gatve|tänav|utca|odos|odós")
_STREET_AFTER = (r"st|street|rd|road|ave|avenue|lane|ln|drive|dr|way|close|crescent|terrace|"
                 r"str\.?|straße|strasse|weg|gasse|platz|allee|laan|gatan|gata|vej|katu|utca")
_NAME_WORD = (r"(?!(?:with|is|the|a|an|to|at|for|and|or|on|in|of|my|your|our|min|mins|people|pax|guests)\b)"
              r"[^\W\d][\w'’-]*")
_RE_ADDRESS = re.compile(
    rf"(?<![\w'])(?:(?:{_STREET_BEFORE})\s+[^\W\d][\w'’.-]*(?:\s+[^\W\d][\w'’.-]*){{0,3}}\s+\d{{1,5}}[a-z]?"
    rf"|(?<![\d:.])\d{{1,5}}[a-z]?\s+{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,2}}\s+(?:{_STREET_AFTER})"
    rf"|[^\W\d]+(?:str\.?|straße|strasse|weg|gasse|platz|allee)\s+\d{{1,5}}[a-z]?)"
    rf"(?![\w'])(?:,\s*(?:(?:room|rm|floor|flat|apt|unit|suite|piso|sala)\s*\w+|\d{{1,2}}[º°ª]?\s*[a-z]+\.?"
    rf"|[^\W\d][\w'’-]*)(?=\s*(?:[.!?;]|$)))?", re.I)
"""A street address as chats write them ("calle argumosa 18, 2º izq", "av. copilco 300", "12 mill road",
"weserstr 41"), with one part after a comma that ends the sentence (a room, a floor, a district)."""


_RE_ROOM_PART = re.compile(r"(?:^|[,.;:]\s*)((?:[^\W\d][\w'’-]*\s+){0,2}(?:room|rm|court|studio|hall|lab|suite|pitch)"
                           r"\s+[\w.-]{1,12})\s*(?=[,.;!]?\s*(?:$|[A-Z])|[,;])", re.I)
"""A part of a booking's confirmation that names its room ("…, 16:30–17:30, meeting room Verdi.",
"…, court 4.", "…, room M3.")."""


def room_part(text: str) -> str | None:
    """The room a service's message names as a part of its own, as written."""
    m = _RE_ROOM_PART.search(text)
    return m.group(1).strip().rstrip(".") if m is not None else None


def address_place(text: str) -> str | None:
    """The street address ``text`` gives, as written: the most specific place a message can name."""
    m = _RE_ADDRESS.search(text) if any(ch.isdigit() for ch in text) else None
    return m.group(0).strip() if m is not None else None


_VENUE_KINDS = (r"restaurant|hotel|guest\s?house|hostel|b&b|inn|lodge|bar|pub|caf[eé]|bistro|brasserie|pizzeria|"
                r"steakhouse|diner|museum|gallery|theat(?:re|er)|cinema|park|college|church|pool|gym|spa|salon|"
                r"clinic|attraction|nightclub|club|venue|campsite")
_RE_VENUE_IS = re.compile(rf"^([A-Z][\w'&.-]*(?:\s+(?:[A-Z0-9][\w'&.-]*|of|the|and|&|de|la)){{0,5}})\s+"
                          rf"(?:is|would be)\s+(?:a|an|the)\b[^.!?]{{0,50}}?\b(?:{_VENUE_KINDS})s?\b")
"""A venue a service offers, named first ("Pizza Hut City Centre is a cheap Italian restaurant in the centre")."""
_RE_RECOMMEND = re.compile(r"(?<![\w'])(?i:i\s+(?:would\s+|'d\s+)?recommend|i\s+suggest|how\s+about|"
                           r"may\s+i\s+suggest)\s+(?=(?:the\s+)?[A-Z])")
"""A venue recommended by name ("I recommend The Copper Kettle")."""


def offered_venue(masked: str, cues: Cues) -> str | None:
    """The venue a booking assistant offers by name: "X is a … restaurant", "I recommend X"."""
    m = _RE_VENUE_IS.match(masked)
    if m is not None:
        return m.group(1)
    r = _RE_RECOMMEND.search(masked)
    return phrase_at(masked, r.end(), cues) if r is not None else None


_RE_PLACE_LABEL = re.compile(
    r"(?<![\w'])(?:meeting point|meeting place|meet(?:ing)? at|venue|location|where)\s*:\s*(?=\S)", re.I)
"""A place given under a label ("Meeting point: Place Saint-Jean", "Venue: The Crypt")."""
_RE_DEPARTS = re.compile(r"(?<![\w'])(?i:leaves|departs|departing|leaving)(?i:\s+at\s+\S+(?:\s*[ap]\.?m\.?)?\s+from"
                         r"|\s+from)?\s+(?=[A-Z])")
"""Where a journey leaves from ("TR4125 leaves Cambridge at 08:40 and arrives at ..."): its place."""


def find_place(masked: str, cues: Cues) -> str | None:
    """The first place after a locative preposition or a label, or a video call."""
    called = call_place(masked)
    if called is not None:
        return called
    low = masked.lower()
    for lead in (_RE_PLACE_LABEL.search(masked) if ":" in masked else None,
                 _RE_DEPARTS.search(masked) if "lea" in low or "depart" in low else None):
        if lead is not None and (place := phrase_at(masked, lead.end(), cues)) is not None:
            return place  # "Meeting point: Place Saint-Jean"; "leaves Cambridge at 08:40" (not where it arrives)
    for m in _RE_LEAD.finditer(masked):
        lead = m.group(1).lower()
        nxt = masked[m.end():m.end() + 40]
        if lead == "in" and not _RE_IN_PLACE.match(nxt) and not _RE_BE_BEFORE.search(masked, 0, m.start()):
            continue  # "in hamburg", "in a bit": only "in the lobby", "in room 210", "we're in odra instead"
        if lead == "use" and not (nxt.lower().startswith("the ") or _RE_ROOM_NAMED.match(nxt)):
            continue  # "let's use the terrace", "can we use room 4.1?", not "use a pen"
        if lead == "book" and not (nxt[:1].isupper() or _RE_THE_NAME.match(nxt)):
            continue  # "book the Acorn Guest House", "book Zizzi"; not "book it", "book a table", "book the room"
        if lead in ("to", "from", "by", "near", "outside", "booked") and not (
                nxt[:1].isupper() or _RE_WHOSE.match(nxt)) and not (
                lead == "to" and _RE_GO_TO.search(masked, max(0, m.start() - 10), m.start())):
            continue  # "booked LT3", "booked the big room"; "come to moremi hall"
        if lead in ("at", "@") and _RE_PAY_BEFORE.search(masked, max(0, m.start() - 16), m.start()):
            continue
        if lead == "from" or lead == "by":
            continue
        place = phrase_at(masked, m.end(), cues)
        if place is None:
            continue
        if place.lower() in ("mine", "ours"):
            continue  # whose place: the reader resolves "mine" to a person's place elsewhere
        return place
    return None


def short_answer_place(masked: str, cues: Cues, *, words: int = 3) -> str | None:
    """A message that is only a name of at most ``words`` words, asked or agreed: "june's?", "flat
    iron instead?", "X it is"."""
    body = _RE_ANSWER_FILLER.sub(" ", masked)
    body = _RE_ANSWER_LEAD.sub("", body.strip())
    body = _RE_ANSWER_END.split(body.strip())[0].strip()
    if not body or "\0" in body or len(body.split()) > words:
        return None
    low = body.lower()
    if any(w in cues.place_stops - {"the"} for w in low.split()) or low in cues.not_places:
        return None
    if any(cues.has(k, low) for k in ("agree", "decline", "hedge", "cancel", "late", "remind", "self", "others")):
        return None
    if not _RE_LETTER.search(low) or any(ch.isdigit() for ch in low) and not _RE_ROOM_NAMED.match(low):
        return None  # (a number only in a room's name: "room 4.1 then")
    return body
