"""The calendar tools of the ``tools`` strategy: argument models (schemas derived from them),
descriptions from package data, and their implementations over an observation."""

from __future__ import annotations

import json
from datetime import date, datetime
from functools import lru_cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from proevent.agents.llm.prompts import PROMPT_VERSION
from proevent.agents.protocol import Observation
from proevent.model import parse_time
from proevent.timeexpr import add_duration, resolve_date, weekday_name


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WeekdayArgs(_Args):
    date: str = Field(description="YYYY-MM-DD")


class ResolveDateArgs(_Args):
    expression: str
    said_at: str = Field(description="YYYY-MM-DDTHH:MM, when the expression was said")


class AddDurationArgs(_Args):
    time: str = Field(description="YYYY-MM-DDTHH:MM")
    minutes: int = 0
    hours: int = 0
    days: int = 0


class FindEventsArgs(_Args):
    query: str | None = None
    date: str | None = Field(default=None, description="YYYY-MM-DD")


class SubmitArgs(_Args):
    attendance_check: str = Field(description="Is the user attending each event concerned? Say who decided what.")
    ops: list[dict[str, Any]] = Field(description="Timetable operations (insert, update, delete)")


TOOL_ARGS: dict[str, type[_Args]] = {
    "weekday": WeekdayArgs, "resolve_date": ResolveDateArgs, "add_duration": AddDurationArgs,
    "find_events": FindEventsArgs, "submit_operations": SubmitArgs,
}
SUBMIT = "submit_operations"


@lru_cache(maxsize=4)
def tool_schemas(version: str = PROMPT_VERSION) -> list[dict[str, Any]]:
    """OpenAI ``tools`` entries, parameters derived from the argument models."""
    path = resources.files("proevent.agents.llm").joinpath(f"data/prompts/{version}/tool_descriptions.json")
    descriptions = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for name, model in TOOL_ARGS.items():
        schema = model.model_json_schema()
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        out.append({"type": "function", "function": {"name": name, "description": descriptions[name],
                                                      "parameters": schema}})
    return out


def run_tool(name: str, arguments: dict[str, Any], obs: Observation) -> dict[str, Any]:
    """Execute a (non-final) tool; errors come back as ``{"error": ...}`` for the model to read.

    No argument a model can send raises: a bad one is an answer the model reads and corrects.
    """
    model = TOOL_ARGS.get(name)
    if model is None or name == SUBMIT:
        return {"error": f"unknown tool {name!r}"}
    try:
        args = model.model_validate(arguments)
        if isinstance(args, WeekdayArgs):
            d = date.fromisoformat(args.date)
            return {"date": d.isoformat(), "weekday": weekday_name(d)}
        if isinstance(args, ResolveDateArgs):
            d = resolve_date(args.expression, datetime.fromisoformat(args.said_at[:16]))
            if d is None:
                return {"error": f"cannot resolve {args.expression!r}"}
            return {"date": d.isoformat(), "weekday": weekday_name(d)}
        if isinstance(args, AddDurationArgs):
            parse_time(args.time[:16])
            return {"time": add_duration(args.time, args.minutes, args.hours, args.days)}
        assert isinstance(args, FindEventsArgs)
        q = (args.query or "").casefold()
        found = []
        for ev in obs.timetable:
            text = " ".join([ev.description or "", ev.location or "", *ev.participants]).casefold()
            if q and q not in text:
                continue
            if args.date and not (ev.start or "").startswith(args.date):
                continue
            found.append(ev.model_dump(mode="json"))
        return {"events": found}
    except (ValidationError, ValueError) as exc:
        return {"error": str(exc).splitlines()[0][:300]}
    except OverflowError:  # add_duration(days=10**12): past year 9999
        return {"error": f"{name}: the result lies outside the calendar (years 1 to 9999)"}
    except RecursionError:
        return {"error": f"{name}: arguments nested too deeply"}
