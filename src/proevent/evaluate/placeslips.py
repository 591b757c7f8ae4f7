"""Slips of the pen the ``places`` judge reads as typos of one word (see :func:`proevent.evaluate.places.word_match`):
letters written twice, one more or less, umlauts written out, neighbours swapped."""

from __future__ import annotations


def transcribed(x: str, y: str) -> bool:
    """One is the other with an umlaut written out ("Koeln" / "Köln", folded "koln"; 4 letters or more)."""
    short, long = sorted((x, y), key=len)
    return len(short) >= 4 and len(long) == len(short) + 1 and any(
        long[i:i + 2] in ("ae", "oe", "ue") and long[:i + 1] + long[i + 2:] == short for i in range(len(long) - 1))


def doubling(x: str, y: str) -> bool:
    """``y`` is ``x`` with one letter written twice, or the other way round ("Hil" / "Hill")."""
    short, long = sorted((x, y), key=len)
    return len(long) == len(short) + 1 and any(
        long[i] == long[i - 1] and long[:i] + long[i + 1:] == short for i in range(1, len(long)))


def one_more(x: str, y: str) -> bool:
    """``y`` is ``x`` with one letter more or less, not the first ("Shine" / "Shrine")."""
    short, long = sorted((x, y), key=len)
    return len(long) == len(short) + 1 and any(long[:i] + long[i + 1:] == short for i in range(1, len(long)))


def vowel_slip(x: str, y: str) -> bool:
    """``y`` is ``x`` with one vowel or "h" more or less ("Staton" / "Station", "Vinchi" / "Vinci")."""
    short, long = sorted((x, y), key=len)
    return len(long) == len(short) + 1 and any(
        long[i] in "aeiouyh" and long[:i] + long[i + 1:] == short for i in range(len(long)))


def slip(x: str, y: str) -> bool:
    """Slips a writer makes in a word of 5 letters or more whatever its letters: two neighbours
    swapped ("Farnce"), a doubled letter moved ("Colloseum" / "Colosseum"), "sch" written "sh"
    ("Shiphol"); the first letter kept."""
    if min(len(x), len(y)) < 5 or x[0] != y[0]:
        return False
    if len(x) == len(y):
        if neighbours_swapped(x, y):
            return True
        undoubled = {x[:i] + x[i + 1:] for i in range(1, len(x)) if x[i] == x[i - 1]}
        return any(y[:i] + y[i + 1:] in undoubled for i in range(1, len(y)) if y[i] == y[i - 1])
    return "sch" in x + y and x.replace("sch", "sh") == y.replace("sch", "sh")


def neighbours_swapped(x: str, y: str) -> bool:
    """``y`` is ``x`` with two neighbouring letters, not the first, swapped ("Farnce", "Loin" / "Lion")."""
    if len(x) != len(y) or x[:1] != y[:1]:
        return False
    diff = [i for i in range(len(x)) if x[i] != y[i]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and x[diff[0]] == y[diff[1]] and x[diff[1]] == y[diff[0]]


_SOUND_ALIKE = frozenset({frozenset("sz"), frozenset("ck"), frozenset("kq"), frozenset("iy"), frozenset("vw"),
                          frozenset("gj")})
"""Letters that sound alike, so that one is written for the other by ear ("Enso" for "Enzo"; "Jorje" for
"Jorge", as a soft g and a j sound in Spanish and Portuguese names)."""


def sound_alike(x: str, y: str) -> bool:
    """``y`` is ``x`` with one letter, not the first, put for one that sounds like it (s/z, c/k, k/q, i/y,
    v/w, g/j): "Enzo" / "Enso"."""
    if len(x) != len(y) or x[0] != y[0]:
        return False
    diff = [(c, d) for c, d in zip(x, y) if c != d]
    return len(diff) == 1 and frozenset(diff[0]) in _SOUND_ALIKE


_VOWEL = frozenset("aeiou")


def cut_short(x: str, y: str) -> bool:
    """``x`` is ``y`` cut short as abbreviations are: its first 4 letters or more, ending in a consonant where
    ``y`` goes on with a vowel and 3 letters or more ("Melb" / "Melbourne", "Birm" / "Birmingham"; not "Rose" /
    "Rosemary", a word of its own, nor "Port" / "Portland")."""
    return len(x) >= 4 and len(y) >= len(x) + 3 and y.startswith(x) and x.isalpha() and x[-1] not in _VOWEL \
        and y[len(x)] in _VOWEL


def glued(long: tuple[str, ...], short: tuple[str, ...]) -> tuple[str, ...] | None:
    """``long`` with neighbouring words written together where ``short`` writes them as one word of its own
    ("Hair Salon Bella Vita" read against "Hairsalon Bela Vita" as "Hairsalon Bella Vita"; words of 2 letters
    or more, letters only), as many times as ``long`` has words more; ``None`` when no such pair is found."""
    out = list(long)
    i = 0
    while i < len(out) - 1 and len(out) > len(short):
        x, y = out[i], out[i + 1]
        if x.isalpha() and y.isalpha() and min(len(x), len(y)) >= 2 and x + y in short and x + y not in out:
            out[i:i + 2] = [x + y]
        else:
            i += 1
    return tuple(out) if len(out) < len(long) else None


def dropped(x: str, y: str) -> bool:
    """``y`` is ``x`` with one letter more or less, not the first, in a word of 6 letters or more ("Medial" /
    "Medical"): a slip where the rest of a longer name holds."""
    return min(len(x), len(y)) >= 6 and x.isalpha() and y.isalpha() and one_more(x, y)
