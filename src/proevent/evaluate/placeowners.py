"""References the event's description resolves, for the ``places`` judge (:mod:`proevent.evaluate.places`): "her
place" is Priya's place when the event is with Priya alone ("movie night with Priya"), and "the doctor's office" is
Dr. Okafor's when the description names Dr. Okafor. A reference with no such name in the description stays
unresolved (a different place from any named one); so does one where the description only names the host ("dinner
at Sophie's": the labelled sets disagree there, the packaged one calling "her flat" another place).

A family word's home is resolved the same way (:func:`kin_resolved`): "nonna's" is "Nonna Lucia's house" when the
description names Nonna Lucia (a family word said of one person), and "mum's" is "Mum and Dad's house" when the
description names Mum (a home of two is each one's home); without the name in the description a family word may
be another person's ("nonna's" for a lunch: which grandmother?)."""

from __future__ import annotations

import re
from functools import lru_cache

from proevent.evaluate.normalize import normalize_location

OWNER = "#owner:"
DOCTOR = "#dr:"
_HOMES = r"(?:place|house|flat|apartment|home)"
_PRONOUN_HOME = re.compile(rf"^(?:his|her|their)\s+{_HOMES}$", re.IGNORECASE)
_THE_DOCTOR = re.compile(r"^(?:the\s+)?(?:doctor|gp)['’]?s(?:\s+(?:office|clinic|surgery|practice))?$", re.IGNORECASE)
_OWNER_HOME = re.compile(rf"^([A-Z][\w-]+)['’]s(?:\s+{_HOMES})?$")
_DOCTOR_PLACE = re.compile(r"^(?:Dr\.?|Doctor)\s+([A-Z][\w-]+)['’]s(?:\s+(?:office|clinic|surgery|practice))?$")
_NAMED = re.compile(r"(?:(?<=\bwith\s)|(?<=\band\s)|(?<=&\s))([A-Z][\w-]+)\b(?!\s+[A-Z]|['’]s)")
_NAMED_DOCTOR = re.compile(r"\b(?:Dr\.?|Doctor)\s+([A-Z][\w-]+)")


def unresolved(location: str) -> bool:
    """A place that names no one: "his place", "her flat", "the doctor's office"."""
    text = location.strip()
    return bool(_PRONOUN_HOME.match(text) or _THE_DOCTOR.match(text))


@lru_cache(maxsize=4096)
def owner_cues(description: str) -> frozenset[str]:
    """The one person the event is with ("movie night with Priya"; none for "with Tom and Ana"), and the
    doctors the description names ("check-up with Dr. Okafor"), as cues."""
    doctors = {normalize_location(m.group(1)) for m in _NAMED_DOCTOR.finditer(description)}
    people = {normalize_location(m.group(1)) for m in _NAMED.finditer(description)} - doctors
    people = {p for p in people if p not in ("dr", "doctor")}
    found = {DOCTOR + d for d in doctors}
    if len(people) == 1:
        found.add(OWNER + people.pop())
    return frozenset(found)


def resolved(a: str, b: str, cues: frozenset[str]) -> bool:
    """One side names no one ("her place", "the doctor's") and the other is the place of the one the
    description names so ("Priya's place" for movie night with Priya, "Dr. Okafor's clinic" for a check-up
    with Dr. Okafor), with nothing else said (no address: the reference does not tell it)."""
    for vague, named in ((a.strip(), b.strip()), (b.strip(), a.strip())):
        if _PRONOUN_HOME.match(vague):
            owner = _OWNER_HOME.match(named)
            if owner and OWNER + normalize_location(owner.group(1)) in cues:
                return True
        elif _THE_DOCTOR.match(vague):
            doctor = _DOCTOR_PLACE.match(named)
            if doctor and DOCTOR + normalize_location(doctor.group(1)) in cues:
                return True
    return False


NAMED = "#named:"
_KIN = frozenset("""mum mom mam mummy mommy mama mamma mother dad daddy papa father gran granny grandma grandmother
nan nana nanna grandpa grandad granddad grandfather gramps nonna nonno oma opa abuela abuelo abuelita abuelito avo
aunt auntie aunty tia tio tita tito zia zio tante onkel uncle babcia dziadek cousin""".split())
"""Family words people name a relative's home by ("mum's", "Nonna Lucia's", "Auntie Jo's")."""
_OWNED_HOME = re.compile(rf"^(?:my\s+)?(.+?)['’]s?(?:\s+{_HOMES})?$", re.IGNORECASE)
_TWO_OWNERS = re.compile(r"\s+(?:and|&)\s+", re.IGNORECASE)
_CAPITALISED = re.compile(r"(?<![\w'’])[A-Z][\w-]*")


def _owners(location: str) -> list[str] | None:
    """Who a home belongs to, each in normalised words ("Mum and Dad's house": mum, dad; "Nonna Lucia's": nonna
    lucia); ``None`` when the location is no one's home."""
    found = _OWNED_HOME.match(location.strip())
    if found is None or not re.search(r"['’]s?(?:\s+\w+)?$", location.strip()):
        return None
    owners = [normalize_location(o) for o in _TWO_OWNERS.split(found.group(1))]
    return owners if all(owners) and len(owners) <= 2 else None


def kin_home(location: str) -> bool:
    """A home named by a family word ("mum's", "Nonna Lucia's house", "Mum and Dad's")."""
    owners = _owners(location)
    return owners is not None and any(o.split()[0] in _KIN for o in owners)


@lru_cache(maxsize=4096)
def named_cues(description: str) -> frozenset[str]:
    """The people a description names, as cues: each capitalised word and each family word ("Mum", "Lucia"),
    and each family word with the name after it ("Nonna Lucia")."""
    text = re.sub(r"['’]s(?!\w)", "", description)  # "at Nonna Lucia's" names Nonna Lucia
    words = normalize_location(text).split()
    names = {normalize_location(m.group(0)) for m in _CAPITALISED.finditer(text)}
    names |= {w for w in words if w in _KIN}
    names |= {f"{w} {v}" for w, v in zip(words, words[1:]) if w in _KIN}
    return frozenset(NAMED + n for n in names if n)


def kin_resolved(a: str, b: str, cues: frozenset[str]) -> bool:
    """One side a home of one owner said in one word ("nonna's", "mum's"), the other a home of which that is an
    owner, named by the description: a home of two ("Mum and Dad's house") when the one word is a family word the
    description says ("lunch at Mum's"; a bare name's "Ana's" may be a business), or the home of a relative named
    by a family word and a name ("Nonna Lucia's house", against "nonna's" or "Lucia's") when the description names
    the relative so ("lunch at Nonna Lucia's")."""
    oa, ob = _owners(a), _owners(b)
    if oa is None or ob is None:
        return False
    for short, long in ((oa, ob), (ob, oa)):
        if len(short) != 1 or len(short[0].split()) != 1:
            continue
        who = short[0]
        if len(long) == 2 and who in _KIN and who in long and NAMED + who in cues:
            return True  # "mum's" / "Mum and Dad's house" for lunch at Mum's
        titled = long[0].split() if len(long) == 1 else []
        if len(titled) == 2 and titled[0] in _KIN and who in titled and NAMED + long[0] in cues:
            return True  # "nonna's" / "Nonna Lucia's house" for lunch at Nonna Lucia's
    return False


_COUPLES = {
    "parents": (frozenset("mum mom mam mummy mommy mama mamma mother ma".split()),
                frozenset("dad daddy papa father pa pop".split())),
    "grandparents": (frozenset("gran granny grandma grandmother nan nana nanna oma nonna abuela".split()),
                     frozenset("grandpa grandad granddad grandfather gramps opa nonno abuelo".split())),
}
"""Family words for two people, and the words for each of the two ("parents'" is "Mum and Dad's")."""


def couple_home(a: str, b: str) -> bool:
    """One side the home of "parents" or "grandparents" ("parents' house", "my grandparents' place"), the other
    the home of the two said each by a family word ("Mum and Dad's", "Nana and Grandad's house"): one home, with
    no description needed, as the word names exactly those two. "Mum's" alone, or "Tom's parents' house", is
    left (one of the two, or someone else's parents)."""
    oa, ob = _owners(a), _owners(b)
    if oa is None or ob is None:
        return False
    for group, pair in ((oa, ob), (ob, oa)):
        if len(group) == 1 and group[0] in _COUPLES and len(pair) == 2:
            first, second = _COUPLES[group[0]]
            words = {o.split()[0] for o in pair if len(o.split()) == 1}
            if any(w in first for w in words) and any(w in second for w in words):
                return True
    return False


_USUAL = re.compile(r"^(?:(?:the|our|my)\s+)?usual(?:\s+(?:spot|place|haunt|hangout))?$", re.IGNORECASE)
"""A habitual place named by no one's name: "the usual", "our usual spot"."""


def usual(location: str) -> bool:
    """"The usual" however said ("the usual spot", "our usual place"): one reference, resolved by whoever made
    it, so two such are the same and any named place is another."""
    return bool(_USUAL.match(location.strip()))


_OWN_PLACE = re.compile(r"^(?:(?:the|my|our|at)\s+)?(?:(?:kids|kids'|kid's|children's|childrens|son's|sons|"
                        r"daughter's|daughters)\s+)?(work|office|workplace|school|nursery|daycare|creche)$",
                        re.IGNORECASE)
"""One's own workplace or one's children's school, said without a name: "work", "the office", "the kids' school"."""
_OWN_SAME = {"office": "work", "workplace": "work"}


def own_place(location: str) -> str | None:
    """The place of one's own a location refers to without naming it ("work", "the office", "my office" are one's
    workplace; "school", "the kids' school" the children's school), ``None`` for anything else: two such of one
    kind are one reference, as "the usual" is (:func:`usual`); someone else's ("Dad's office") or a named one is
    not."""
    found = _OWN_PLACE.match(location.strip())
    if found is None:
        return None
    kind = found.group(1).lower()
    return _OWN_SAME.get(kind, kind)
