"""Places written after "at", "in" or "@" ("at the small boardroom", "@ Cafe Nero, 3rd Ave")."""

from __future__ import annotations

import re

_NOT_PLACES = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
               "february", "march", "april", "may", "june", "july", "august", "september", "october",
               "november", "december", "noon", "midday", "i", "the", "my", "our", "your", "least", "all",
               "first", "last", "like", "around", "about"}
_RE_PLACE = re.compile(r"(?=(\bat|\bin|@)\s+((?:the\s+)?[A-Za-z][^!?;:()\n]*))")
_WORD = re.compile(r"[\w'’&-]+")
_ABBREV = re.compile(r"^[A-Z][a-z]{0,2}\.$")  # St. Dr. Mt.
_NOT_AFTER_THE = {"moment", "weekend", "latest", "end", "same", "time", "start", "beginning", "least", "most",
                  "morning", "afternoon", "evening", "night", "day", "week", "month", "usual", "last", "next"}


def place_after_preposition(text: str, stops: frozenset[str]) -> str | None:
    """The place after "at"/"in"/"@".

    A run of words that starts with a capitalised word (a name), or with "the" after "at" ("at
    the small boardroom"), and ends before a stop word or punctuation; one comma-separated detail
    may follow ("SFO International, departures level", "Anytime Fitness, 3rd Ave"), and words
    after the first may hold digits ("room 12"). "on <Name>" continues ("the Shell station on
    Lombard").
    """
    for m in _RE_PLACE.finditer(text):
        raw = m.group(2).split()
        words: list[str] = []
        commas = 0
        for i, w in enumerate(raw):
            if _ABBREV.match(w):
                words.append(w)
                continue
            bare = w.strip("'’\"")
            comma = bare.endswith(",")
            last = bare.endswith(".")
            bare = bare.rstrip(".,")
            if not bare or not _WORD.fullmatch(bare) or (not words and bare[0].isdigit()):
                break
            low = bare.lower()
            nxt = raw[i + 1] if i + 1 < len(raw) else ""
            nxt2 = raw[i + 2] if i + 2 < len(raw) else ""
            named = (nxt[:1].isupper() and nxt.lower().strip(",.") not in _NOT_PLACES) or (
                nxt.lower() == "the" and nxt2[:1].isupper() and nxt2.lower().strip(",.") not in _NOT_PLACES)
            continues = (low == "on" and (named or nxt[:1].isdigit())) or (low == "at" and named)
            if words and low in stops and not continues:
                break
            words.append(bare)
            if last:
                break
            if comma:
                commas += 1
                follow = raw[i + 1].strip(",.").lower() if i + 1 < len(raw) else ""
                if commas > 1 or not follow or follow in stops or follow in _NOT_PLACES:
                    break
                words[-1] += ","
        while words and (words[-1].rstrip(",").lower() in stops or words[-1].lower() == "the"):
            words.pop()
        if words:
            words[-1] = words[-1].rstrip(",")
        if not words or len(words) > 7:
            continue
        first = words[0]
        if first.lower() == "the" and len(words) > 1:
            lowercase_ok = m.group(1) == "at" and words[1].lower() not in _NOT_AFTER_THE
            first = words[1] if words[1][0].isupper() else ("" if not lowercase_ok else words[1])
        if first and first[0].isupper() and first.lower().rstrip(".") in _NOT_PLACES:
            continue
        if first and (first[0].isupper() or words[0].lower() == "the"):
            return " ".join(words)
    return None
