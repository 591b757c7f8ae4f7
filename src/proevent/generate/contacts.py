"""The contact pool and the other content files of the generator, validated on load.

Content lives in ``generate/data/*.json``; this module only describes and checks its shape.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

Voice = Literal["formal", "casual", "emoji", "terse"]


class GroupSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    size: tuple[int, int] = Field(description="other members besides the user and the contact")


class Profile(BaseModel):
    """One contact: who they are, how they write, and the event they plan with the user."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    category: str
    subcategory: str
    name: str
    nickname: str
    relation: str
    voice: Voice
    description: str
    acts: list[str] = Field(min_length=1)
    places: list[str] = Field(min_length=3)
    hours: tuple[int, int]
    duration: tuple[int, int]
    days: Literal["any", "weekday", "weekend"]
    group: GroupSpec | None = None
    attendees: list[str] = Field(default_factory=list, description="people attending who are not in the chat")
    contact_attends: bool = True

    @model_validator(mode="after")
    def _ranges(self) -> Profile:
        if not (0 <= self.hours[0] <= self.hours[1] <= 22):
            raise ValueError(f"hours {self.hours} must be within 0..22 and ordered")
        if not (15 <= self.duration[0] <= self.duration[1]):
            raise ValueError(f"duration {self.duration} must be ordered minutes >= 15")
        for person in self.attendees:
            surname = person.split()[-1]
            for act in self.acts:
                if surname not in act and person.split()[-2] not in act:
                    raise ValueError(f"act {act!r} must name the attendee {person!r}")
        return self

    @property
    def register(self) -> str:
        return "formal" if self.voice == "formal" else "casual"


class ContactPool(BaseModel):
    model_config = ConfigDict(extra="forbid")
    categories: dict[str, str]
    profiles: list[Profile]

    @model_validator(mode="after")
    def _consistent(self) -> ContactPool:
        ids = [p.id for p in self.profiles]
        if len(set(ids)) != len(ids):
            raise ValueError("duplicate profile id")
        for p in self.profiles:
            if p.category not in self.categories:
                raise ValueError(f"profile {p.id}: unknown category {p.category!r}")
        return self

    def subcategories(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {c: [] for c in self.categories}
        for p in self.profiles:
            out[p.category].append(p.subcategory)
        return out


class Names(BaseModel):
    model_config = ConfigDict(extra="forbid")
    users: list[str] = Field(min_length=2)
    people: list[str] = Field(min_length=8)
    relations_for_added: list[str] = Field(min_length=1)
    timezones: list[str] = Field(min_length=1)


class Templates(BaseModel):
    """``register -> intent -> [template]`` plus the phrase rules the templates refer to.

    Templates use the markup of :mod:`proevent.generate.realize.grammar`. Every template holds
    its intent's required slots in every expansion (checked on load).
    ``rules`` holds ``shared``, ``formal`` and ``casual`` tables, and optional per-voice tables
    (``emoji``, ``terse``) that override rules of the casual register.
    """

    model_config = ConfigDict(extra="ignore")
    required: dict[str, list[str]]
    formal: dict[str, list[str]]
    casual: dict[str, list[str]]
    rules: dict[str, dict[str, list[str]]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _complete(self) -> Templates:
        from proevent.generate.realize.grammar import check, guaranteed

        shared = self.rules.get("shared", {})
        for register in ("formal", "casual"):
            table = getattr(self, register)
            tables = [self.rules.get(register, {}), shared]
            for intent, slots in self.required.items():
                if not table.get(intent):
                    raise ValueError(f"{register}.{intent}: no template")
                for i, tpl in enumerate(table[intent]):
                    check(tpl, tables, f"{register}.{intent}[{i}]")
                    missing = [s for s in slots if not guaranteed(tpl, "{" + s + "}", tables)
                               and not guaranteed(tpl, "{" + s + "_cap}", tables)]
                    if missing:
                        raise ValueError(f"{register}.{intent}[{i}]: missing slots {missing} "
                                         f"(some expansion lacks them): {tpl!r}")
            for intent, tpls in table.items():
                for i, tpl in enumerate(tpls):
                    check(tpl, tables, f"{register}.{intent}[{i}]")
        for level, rules in self.rules.items():
            tables = [rules, self.rules.get("formal" if level == "formal" else "casual", {}), shared]
            for name, options in rules.items():
                if not options:
                    raise ValueError(f"rules.{level}.{name}: no alternative")
                for i, opt in enumerate(options):
                    check(opt, tables, f"rules.{level}.{name}[{i}]")
        return self


class Lexicon(BaseModel):
    model_config = ConfigDict(extra="forbid")
    conflict_reasons: dict[str, list[str]]
    implicit_cancel_reasons: dict[str, list[str]]
    cancel_reasons: dict[str, list[str]]
    discourse_markers: list[str]
    slang: dict[str, str]
    slang_tags: list[str]
    emoticons: dict[str, list[str]]
    time_words: dict[str, int]
    closers: dict[str, list[str]]
    formal_markers: list[str]
    address_terms: list[str] = Field(default_factory=list, description="casual vocatives: mate, dude...")


class NoiseContent(BaseModel):
    model_config = ConfigDict(extra="ignore")
    interjections: dict[Literal["casual", "formal"], list[str]]
    topics: list[list[str]] = Field(min_length=3)
    rules: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    """Phrase rules of the small talk (same markup and levels as ``Templates.rules``)."""


class Task(BaseModel):
    """Something the user does that no contact profile plans (a task taken on, a booking made alone)."""

    model_config = ConfigDict(extra="forbid")
    act: str
    description: str
    hours: tuple[int, int]
    duration: tuple[int, int]
    places: list[str] = Field(default_factory=list)


class Tasks(BaseModel):
    model_config = ConfigDict(extra="ignore")
    volunteer: list[Task] = Field(min_length=3)
    solo: list[Task] = Field(min_length=3)
    groups: list[str] = Field(min_length=1, description="names of family or flat group chats")


def _load(name: str, model: type[BaseModel]) -> Any:
    text = resources.files("proevent.generate").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    try:
        raw = json.loads(text)
        return model.model_validate({k: v for k, v in raw.items() if not k.startswith("_")})
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise ValueError(f"generate/data/{name}: {loc}: {err['msg']}") from None


@lru_cache(maxsize=1)
def contact_pool() -> ContactPool:
    return _load("contacts.json", ContactPool)


@lru_cache(maxsize=1)
def names() -> Names:
    return _load("names.json", Names)


@lru_cache(maxsize=1)
def templates() -> Templates:
    return _load("templates.json", Templates)


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    return _load("lexicon.json", Lexicon)


@lru_cache(maxsize=1)
def tasks() -> Tasks:
    return _load("tasks.json", Tasks)


@lru_cache(maxsize=1)
def noise_content() -> NoiseContent:
    return _load("noise.json", NoiseContent)
