"""Initials of a name for the ``places`` judge (:mod:`proevent.evaluate.places`): "MSG" for Madison Square
Garden, "IIT Bombay", "H.U. La Paz" for Hospital Universitario La Paz, "KES" for King Edward VII School.

Initials are written of a name's words, and people leave out of them the words that carry no initial of
their own: articles and "of" ("BOI" or "BI" for Bank of Ireland), a person's title and suffix ("MLK" for Dr.
Martin Luther King Jr.) and a regnal number ("KES": King Edward VII School). A name's initials are read with
every such word or with none of them."""

from __future__ import annotations

import re

from proevent.evaluate.placeparse import _ACRONYM_SKIP

_TITLES = frozenset({"dr", "jr", "sr", "mr", "mrs", "ms"})
"""A person's title or suffix in a name ("Dr. Martin Luther King Jr.")."""
_REGNAL = re.compile(r"^(?:i{2,3}|iv|vi{0,3}|ix|xi{0,3}|xiv|xvi{0,3})$")
"""A regnal number of two letters or more ("II", "VII", "XIV"); "I", "V" and "X" alone may be initials."""


def _silent(word: str) -> bool:
    """A word that may carry no initial: an article or "of", a title, a regnal number."""
    return word in _ACRONYM_SKIP or word in _TITLES or bool(_REGNAL.match(word))


def _joined_letters(words: list[str]) -> list[str]:
    """Leading one-letter words written as initials with stops ("H.U. La Paz": "h u la paz") joined as one
    word ("hu la paz") when a word of more letters follows them."""
    n = next((i for i, w in enumerate(words) if not (len(w) == 1 and w.isalpha())), len(words))
    return [("".join(words[:n])), *words[n:]] if 2 <= n < len(words) else words


def acronym(a: str, b: str) -> bool:
    """``a`` is one word of 2-5 letters (or all one-letter words) spelling the initials of ``b``'s
    words, with or without its articles, titles and regnal numbers ("MSG", "MoMA", "M&S", "KES"), or such
    a word (or letters with stops) followed by the initial of ``b``'s last word or by ``b``'s last words
    themselves ("IIT-B", "IIT Bombay", "H.U. La Paz", "MLK Library")."""
    short_words, long_words = _joined_letters(a.split()), b.split()
    if len(short_words) == 1 and short_words[0].isalpha() and 2 <= len(short_words[0]) <= 5:
        short = short_words[0]
    elif len(short_words) > 1 and all(len(w) == 1 and w.isalpha() for w in short_words):
        short = "".join(short_words)
    elif len(short_words) >= 2 and short_words[0].isalpha() and 2 <= len(short_words[0]) <= 5 \
            and short_words[0] not in _ACRONYM_SKIP:
        rest = short_words[1:]  # "IIT-B", "IIT Bombay", "UC Berkeley": initials, then a letter or the last words
        if len(rest) == 1 and len(rest[0]) == 1 and rest[0].isalpha():
            return acronym(short_words[0] + rest[0], b)
        n = len(rest)
        return len(long_words) > n + 1 and long_words[-n:] == rest and acronym(short_words[0], " ".join(
            long_words[:-n]))
    else:
        return False
    content = [w for w in long_words if not _silent(w)]
    return len(long_words) > 1 and short in {"".join(w[0] for w in long_words), "".join(w[0] for w in content)}


__all__ = ["acronym"]
