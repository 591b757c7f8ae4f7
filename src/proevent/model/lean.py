"""The base of the data models that a dataset or a run holds by the hundred thousand.

pydantic gives every instance its own ``model_fields_set``, a set of field names: for a message
of four fields it is 216 bytes, for a prediction line of nine 728, more than the data. Almost
every instance read from a file has all its fields set, so :class:`Lean` shares one set per class
for those (a third of a loaded dataset and run), and copies it before the first assignment that
could change it, so an instance never sees another's fields.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

_FULL: dict[type, set[str]] = {}
"""Per class, the shared set of all its declared fields."""


def _full(cls: type[BaseModel]) -> set[str]:
    full = _FULL.get(cls)
    if full is None:
        full = _FULL[cls] = set(cls.model_fields)
    return full


class Lean(BaseModel):
    """A pydantic model whose instances share their ``model_fields_set`` when every declared
    field is set (and no extra one): read-only for them, copied on the first assignment."""

    def model_post_init(self, context: Any, /) -> None:
        full = _FULL.get(type(self)) or _full(type(self))
        if self.__pydantic_fields_set__ == full:
            object.__setattr__(self, "__pydantic_fields_set__", full)

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__pydantic_fields_set__ is _FULL.get(type(self)):
            object.__setattr__(self, "__pydantic_fields_set__", set(self.__pydantic_fields_set__))
        super().__setattr__(name, value)


def build_full(cls: type[Lean]) -> Callable[[dict[str, Any]], Any]:
    """A constructor of ``cls`` instances from data already validated elsewhere (a reader that checked
    every field, :mod:`proevent.io.fastcase`): ``make(fields)`` takes a dict of every declared field,
    in declaration order, and sets it as pydantic would, sharing the class's full field set, with
    no extra field (an empty dict where the class allows extras) and no private attribute. Nothing
    is checked: the caller vouches for the data."""
    full = _FULL.get(cls) or _full(cls)
    new = cls.__new__
    put = object.__setattr__
    if cls.model_config.get("extra") == "allow":
        def make_open(fields: dict[str, Any]) -> Any:
            obj = new(cls)
            put(obj, "__dict__", fields)
            put(obj, "__pydantic_fields_set__", full)
            put(obj, "__pydantic_extra__", {})
            put(obj, "__pydantic_private__", None)
            return obj

        return make_open

    def make(fields: dict[str, Any]) -> Any:
        obj = new(cls)
        put(obj, "__dict__", fields)
        put(obj, "__pydantic_fields_set__", full)
        put(obj, "__pydantic_extra__", None)
        put(obj, "__pydantic_private__", None)
        return obj

    return make


__all__ = ["Lean", "build_full"]
