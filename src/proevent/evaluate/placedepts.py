"""A hospital's department for the ``places`` judge (:mod:`proevent.evaluate.places`): "the Royal London, fracture
clinic", "Outpatients, City General", "UCH A&E" name a department of a hospital in whatever order and wording, and
the department, named, makes its place a hospital, so the name may leave the word "hospital" out ("the Royal
London" / "Royal London Hospital"). Deciding stays in ``places``; "A&E" is read as "emergency" when parsed
(:mod:`proevent.evaluate.placeparse`)."""

from __future__ import annotations

from proevent.evaluate.placeparse import _BIND, Parsed

DEPARTMENTS = {"emergency": "emergency", "er": "emergency", "casualty": "emergency", "outpatients": "outpatients",
               "outpatient": "outpatients", "fracture": "fracture", "radiology": "radiology",
               "maternity": "maternity", "antenatal": "antenatal", "physiotherapy": "physiotherapy",
               "physio": "physiotherapy", "oncology": "oncology", "cardiology": "cardiology",
               "orthopaedics": "orthopaedics", "orthopedics": "orthopaedics", "dermatology": "dermatology",
               "audiology": "audiology", "ophthalmology": "ophthalmology"}
"""Departments of a hospital, each read as one word whatever its form ("ER", "A&E" and "casualty" are its emergency
department; "outpatient" and "outpatients")."""
_DEPARTMENT_KINDS = frozenset({"department", "unit", "clinic", "services"})
"""Words that may follow a department's word and add nothing ("Outpatients Dept", "Fracture Clinic")."""


def _department(part: tuple[str, ...]) -> tuple[str, tuple[str, ...]] | None:
    """The department a part starts or ends with, and the part's other words; ``None`` without one."""
    if part and part[0] in DEPARTMENTS:
        end = 1
        while end < len(part) and part[end] in _DEPARTMENT_KINDS:
            end += 1
        return DEPARTMENTS[part[0]], part[end:]
    end = len(part)
    while end > 0 and part[end - 1] in _DEPARTMENT_KINDS:
        end -= 1
    if end and part[end - 1] in DEPARTMENTS:
        return DEPARTMENTS[part[end - 1]], part[:end - 1]
    return None


def _split(parsed: Parsed) -> tuple[tuple[str, ...], str, tuple[tuple[str, ...], ...]] | None:
    """A location's hospital (its name), department and other parts, when one part names a department (in the
    head with the name, or alone beside the name's part); ``None`` otherwise."""
    parts = parsed.parts
    for i, part in enumerate(parts):
        if any(_BIND in w for w in part):
            continue
        found = _department(part)
        if found is None:
            continue
        department, left = found
        if left:
            return left, department, parts[:i] + parts[i + 1:]
        others = parts[:i] + parts[i + 1:]
        if others:
            return others[0], department, others[1:]
        return None
    return None


def department_apart(parsed: Parsed, other: Parsed) -> Parsed:
    """``parsed`` read as its hospital, then its department as a qualifier, when both sides name a department
    ("ROYAL LONDON HOSPITAL fracture clinic" is "Royal London Hospital, Fracture"); the word "hospital" is added to a
    name of two words or more that lacks it where the other side's hospital has it (a department makes its place a
    hospital: "Outpatients, City General" / "City General Hospital Outpatients Dept"); a name of initials keeps its
    form ("UCH A&E"), read as initials. ``parsed`` itself when a side names no department."""
    mine, theirs = _split(parsed), _split(other)
    if mine is None or theirs is None:
        return parsed
    name, department, rest = mine
    if "hospital" not in name and len(name) >= 2 and "hospital" in theirs[0]:
        name = (*name, "hospital")
    parts = (name, (department,), *rest)
    return parsed._replace(parts=parts, flat=tuple(w for p in parts for w in p), free_order=True)
