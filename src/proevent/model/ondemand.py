"""A model field built only when something reads it: the messages of a step read by the fast reader.

Scoring, the structural check and offline agents never read a chat message, yet a loaded dataset
holds them by the hundred thousand (half of its objects at 10,000 cases). A fast reader that has
already decoded and checked every message (:mod:`proevent.io.fastcase`) may leave the field out
of the instance's ``__dict__`` and keep the records it would be built from; the field's value is
built from them on the first read and then lives in ``__dict__`` like any other (later reads cost
nothing more).

The instance stays a plain pydantic model to every user: the field is read through a class
attribute consulted only when ``__dict__`` lacks it (a non-data descriptor), and every pydantic
path that reads ``__dict__`` directly (serialization, ``==``, copies, pickling, ``repr``, ``dict()``,
assignment) builds the field first. Where pydantic keeps per-instance data of its own we keep
the records: ``__pydantic_private__``, unused by models without private attributes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import SerializerFunctionWrapHandler, model_serializer

from proevent.model.lean import Lean

_KEY = "_on_demand"
"""The key of the pending field in ``__pydantic_private__``: ``(name, build, records)``."""
_put = object.__setattr__


def settle(obj: Any) -> None:
    """Build the pending field of ``obj``, if it has one, and put it in ``__dict__`` at its declared
    place (serializers write ``__dict__`` in its order)."""
    private = obj.__pydantic_private__
    if not private or _KEY not in private:
        return
    name, build, records = private[_KEY]
    value = build(records)
    if obj.__pydantic_private__ is not private:  # another thread settled it meanwhile
        return
    old = obj.__dict__
    _put(obj, "__dict__", {k: value if k == name else old[k] for k in type(obj).__pydantic_fields__
                           if k == name or k in old})
    rest = {k: v for k, v in private.items() if k != _KEY}
    _put(obj, "__pydantic_private__", rest or None)


def pending_records(obj: Any) -> Any:
    """The records the pending field of ``obj`` will be built from, or ``None`` when it has none."""
    private = obj.__pydantic_private__
    if not private or _KEY not in private:
        return None
    return private[_KEY][2]


class _Field:
    """The class attribute behind an on-demand field: Python consults it only when the instance's
    ``__dict__`` lacks the field, that is while the field is pending."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, cls: type | None = None) -> Any:
        if obj is None:
            # read on the class, as before the field became on-demand: no attribute. Returning the
            # descriptor would hand pydantic a default for the field of a subclass (the field would
            # stop being required, and a dump would hold this object)
            raise AttributeError(self.name)
        settle(obj)
        try:
            return obj.__dict__[self.name]
        except KeyError:
            raise AttributeError(self.name) from None


class OnDemand(Lean):
    """A :class:`~proevent.model.lean.Lean` model one of whose fields a fast reader may leave pending
    (:func:`build_pending`); declare which with :func:`on_demand` after the class."""

    @model_serializer(mode="wrap")
    def _settled_dump(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        # no return annotation: the JSON schema of a dump stays the model's own (``Any`` would blank it)
        settle(self)
        return handler(self)

    def __eq__(self, other: object) -> bool:
        settle(self)
        if isinstance(other, OnDemand):
            settle(other)
        return super().__eq__(other)

    def __copy__(self) -> Any:
        settle(self)
        return super().__copy__()

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Any:
        settle(self)
        return super().__deepcopy__(memo)

    def __getstate__(self) -> dict[Any, Any]:
        settle(self)
        return super().__getstate__()

    def __iter__(self) -> Any:
        settle(self)
        return super().__iter__()

    def __repr_args__(self) -> Any:
        settle(self)
        return super().__repr_args__()

    def __setattr__(self, name: str, value: Any) -> None:
        settle(self)
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        settle(self)
        super().__delattr__(name)


def on_demand(cls: type[OnDemand], name: str) -> None:
    """Let :func:`build_pending` leave the field ``name`` of ``cls`` pending."""
    if name not in cls.__pydantic_fields__:
        raise ValueError(f"{cls.__name__} has no field {name!r}")
    type.__setattr__(cls, name, _Field(name))


def build_pending(make: Callable[[dict[str, Any]], Any], fields: dict[str, Any], name: str,
                  build: Callable[[Any], Any], records: Any) -> Any:
    """An instance made by ``make`` (:func:`proevent.model.lean.build_full` of an :class:`OnDemand`
    class declared with :func:`on_demand`) from ``fields``, every declared field but ``name`` in
    declaration order, whose ``name`` is ``build(records)``, called on the first read. Nothing is
    checked: the caller vouches that ``build(records)`` is the field's valid value."""
    obj = make(fields)
    _put(obj, "__pydantic_private__", {_KEY: (name, build, records)})
    return obj


__all__ = ["OnDemand", "build_pending", "on_demand", "pending_records", "settle"]
