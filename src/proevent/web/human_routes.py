"""Human mode's pages: the current question, adding and removing operations, submitting."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from proevent.web.caseview import describe_op, event_row, timetable_rows
from proevent.web.human import HumanSession, Item, StaleQuestion
from proevent.web.humanpace import deleted_in_draft, pace
from proevent.web.opform import op_from_form
from proevent.web.params import ascii_int
from proevent.web.state import get_state

router = APIRouter()

_ATTRIBUTES = ("start", "end", "location", "participants", "description")


@router.get("/", response_class=HTMLResponse)
def question_page(request: Request) -> HTMLResponse:
    return render_question(request)


def render_question(request: Request, error: str | None = None) -> HTMLResponse:
    state = get_state(request)
    session: HumanSession = state.human
    done, total = session.progress()
    item = session.current()
    if item is None:
        sample = session.config.sample is not None
        target = session.folder / "sample" if sample else session.config.dataset
        command = f"proevent evaluate {shlex.quote(str(target))} {shlex.quote(str(session.folder))}"
        return state.render(request, "human_done.html", done=done, total=total, session=session,
                            folder=str(session.folder), sample=sample, command=command,
                            previous=session.previous())
    session.mark_shown(item)
    case = session.cases[item.case_id]
    obs = session.observation(item)
    draft = session.draft(item)
    start = obs.timetable.events
    events = {e.id: e for e in start}
    _, after = timetable_rows(start, session.preview(item).events)
    return state.render(
        request, "human.html", status_code=400 if error else 200, item=item, case=case, obs=obs, people=case.people(),
        steps=len(case.steps), done=done, total=total, session=session, error=error,
        timetable=[event_row(e) for e in start], preview=after,
        draft=[describe_op(op, events) for op in draft], attributes=_ATTRIBUTES, previous=session.previous(),
        pace=pace(session), deleted=deleted_in_draft(draft),
    )


async def _form(request: Request) -> tuple[dict[str, Any], Item | None]:
    form = await request.form()
    data: dict[str, Any] = {k: form.get(k) for k in form.keys() if k != "participants"}
    data["participants"] = [v for v in form.getlist("participants") if isinstance(v, str)]
    t = str(data.get("t", ""))
    number = ascii_int(t)
    item = Item(str(data.get("case_id", "")), number) if number is not None else None
    return data, item


@router.post("/human/op")
async def add_op(request: Request) -> Response:
    session: HumanSession = get_state(request).human
    data, item = await _form(request)
    if item is None or item != session.current():
        return RedirectResponse("/", status_code=303)
    try:
        session.add_op(item, op_from_form(data, session.cases[item.case_id].people()))
    except StaleQuestion:
        return RedirectResponse("/", status_code=303)
    except ValueError as exc:
        return render_question(request, error=str(exc))
    return RedirectResponse("/", status_code=303)


@router.post("/human/remove")
async def remove_op(request: Request) -> Response:
    session: HumanSession = get_state(request).human
    data, item = await _form(request)
    index = ascii_int(str(data.get("index", "")))
    if item is None or index is None:
        return RedirectResponse("/", status_code=303)
    try:
        session.remove_op(item, index)
    except ValueError:
        pass
    return RedirectResponse("/", status_code=303)


async def _on_item(request: Request, action: Callable[[HumanSession, Item], None]) -> Response:
    """Apply ``action`` to the question the form names; a stale form (another tab, a resubmit) is
    ignored, and the page shows the current question again."""
    session: HumanSession = get_state(request).human
    _, item = await _form(request)
    if item is not None:
        try:
            action(session, item)
        except StaleQuestion:
            pass
    return RedirectResponse("/", status_code=303)


@router.post("/human/back")
async def take_back(request: Request) -> Response:
    return await _on_item(request, HumanSession.take_back)


@router.post("/human/submit")
async def submit(request: Request) -> Response:
    return await _on_item(request, HumanSession.submit)
