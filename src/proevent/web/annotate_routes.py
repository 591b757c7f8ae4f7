"""Annotate mode's pages: a step with its messages, S_{t-1} and the gold draft; adding and removing
operations, saving a step, exporting the annotated dataset."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from proevent.model import ATTRIBUTES
from proevent.web.annotate import AnnotationSession, export_report
from proevent.web.caseview import describe_op, event_row, timetable_rows
from proevent.web.human import Item
from proevent.web.human_routes import _form as read_form
from proevent.web.humanpace import deleted_in_draft
from proevent.web.opform import op_from_form
from proevent.web.params import ascii_int
from proevent.web.state import get_state

router = APIRouter()

GOLD_ATTRIBUTES = tuple(a for a in ATTRIBUTES if a != "description")
"""What the update form offers: gold never updates ``description`` (gold conventions)."""


def step_url(item: Item) -> str:
    return "/step?" + urlencode({"case_id": item.case_id, "t": item.t})


def _session(request: Request) -> AnnotationSession:
    return get_state(request).annotate


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> Response:
    session = _session(request)
    item = session.current()
    return RedirectResponse(step_url(item), status_code=303) if item is not None else render_done(request)


def render_done(request: Request, error: str | None = None, exported: dict[str, Any] | None = None) -> HTMLResponse:
    state = get_state(request)
    session = _session(request)
    done, total = session.progress()
    return state.render(request, "annotate_done.html", status_code=400 if error else 200, session=session,
                        done=done, total=total, problems=session.export_problems(), error=error, exported=exported,
                        target=str(session.default_export_path()), nav=_nav(session, None))


def _nav(session: AnnotationSession, at: Item | None) -> list[dict[str, Any]]:
    """Every step to annotate with its state, for the step list."""
    flagged = session.flagged()
    out = []
    for it in session.items:
        status = ("flagged" if it in flagged else "draft" if session.has_unsaved_changes(it)
                  else "saved" if it in session.saved else "todo")
        out.append({"item": it, "url": step_url(it), "status": status, "here": it == at})
    return out


@router.get("/step", response_class=HTMLResponse)
def step_page(request: Request, case_id: str = "", t: str = "") -> Response:
    number = ascii_int(t)
    item = Item(case_id, number) if number is not None else None
    if item is None or item not in _session(request).items:
        return RedirectResponse("/", status_code=303)
    return render_step(request, item)


def render_step(request: Request, item: Item, error: str | None = None) -> HTMLResponse:
    state = get_state(request)
    session = _session(request)
    case = session.cases[item.case_id]
    done, total = session.progress()
    gold = session.step(item)
    result = session.draft_result(item)
    ops, _ = session.draft(item)
    before = gold.before.events
    events = {e.id: e for e in before}
    _, after = timetable_rows(before, result.after.events)
    draft = [replace(describe_op(op, events), status="invalid", note=result.flags[i]) if i in result.flags
             else describe_op(op, events) for i, op in enumerate(ops)]
    unsaved_before = [it.t for it in session.items if it.case_id == item.case_id and it.t < item.t
                      and it not in session.saved]
    position = session.items.index(item)
    return state.render(
        request, "annotate.html", status_code=400 if error else 200, session=session, item=item, case=case,
        obs=session.observation(item), people=case.people(), steps=len(case.steps), done=done, total=total,
        error=error, timetable=[event_row(e) for e in before], preview=after, draft=draft,
        attributes=GOLD_ATTRIBUTES, deleted=deleted_in_draft(ops), saved=item in session.saved,
        unsaved=session.has_unsaved_changes(item), unsaved_before=unsaved_before, nav=_nav(session, item),
        prev_url=step_url(session.items[position - 1]) if position > 0 else None,
        next_url=step_url(session.items[position + 1]) if position + 1 < len(session.items) else None,
    )


async def _on_step(request: Request, action: Callable[[AnnotationSession, Item, dict[str, Any]], None],
                   then: Callable[[AnnotationSession, Item], str] = lambda _, item: step_url(item)) -> Response:
    """Apply ``action`` to the step the form names, then go to ``then``'s page; a refusal shows the
    step again with its message; a form for no step to annotate goes to the start."""
    session = _session(request)
    data, item = await read_form(request)
    if item is None or item not in session.items:
        return RedirectResponse("/", status_code=303)
    try:
        action(session, item, data)
    except ValueError as exc:
        return render_step(request, item, error=str(exc))
    return RedirectResponse(then(session, item), status_code=303)


def _add(session: AnnotationSession, item: Item, data: dict[str, Any]) -> None:
    session.add_op(item, op_from_form(data, session.cases[item.case_id].people()))


def _remove(session: AnnotationSession, item: Item, data: dict[str, Any]) -> None:
    index = ascii_int(str(data.get("index", "")))
    if index is None:
        raise ValueError("index: not an operation of the draft")
    session.remove_op(item, index)


def _after_save(session: AnnotationSession, item: Item) -> str:
    """The first step the save flags, else the next step not annotated, else the start."""
    flagged = list(session.flagged())
    later = [it for it in session.items[session.items.index(item) + 1:] if it not in session.saved]
    target = flagged[0] if flagged else later[0] if later else session.current()
    return step_url(target) if target is not None else "/"


@router.post("/annotate/op")
async def add_op(request: Request) -> Response:
    return await _on_step(request, _add)


@router.post("/annotate/remove")
async def remove_op(request: Request) -> Response:
    return await _on_step(request, _remove)


@router.post("/annotate/save")
async def save_step(request: Request) -> Response:
    return await _on_step(request, lambda session, item, _: session.save(item), _after_save)


@router.post("/annotate/export")
def export(request: Request) -> Response:
    try:
        exported = export_report(_session(request))
    except (ValueError, FileExistsError) as exc:
        return render_done(request, error=str(exc))
    return render_done(request, exported=exported)
