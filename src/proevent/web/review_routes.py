"""Review mode's form post: save a verdict, then go to the next case without one."""

from __future__ import annotations

from urllib.parse import parse_qsl, quote

from fastapi import APIRouter, Form, HTTPException, Request
from pydantic import ValidationError
from starlette.responses import RedirectResponse, Response

from proevent.web.state import get_state
from proevent.web.viewer_routes import render_case

router = APIRouter()


@router.post("/review/{case_id:path}")
def save_review(
    case_id: str,
    request: Request,
    verdict: str = Form(...),
    reason: str = Form(""),
    note: str = Form("", max_length=4000),
    back: str = Form(""),
) -> Response:
    state = get_state(request)
    store = state.review
    params = dict(parse_qsl(back[:2000]))
    try:
        state.dataset.case(case_id)
    except KeyError:
        raise HTTPException(404, "no such case in this dataset") from None
    posted = {"verdict": verdict, "reason": reason, "note": note}
    try:
        # A reason says why a case is invalid: a valid verdict keeps none.
        store.save(case_id, verdict, (reason or None) if verdict == "invalid" else None, note)
    except ValidationError as exc:
        msg = exc.errors()[0]["msg"].removeprefix("Value error, ")
        return render_case(request, case_id, form_error=msg, params=params, posted=posted)
    except ValueError as exc:
        return render_case(request, case_id, form_error=str(exc), params=params, posted=posted)
    nxt = store.next_unreviewed(after=case_id)
    return RedirectResponse(f"/case/{quote(nxt, safe='')}" if nxt else "/", status_code=303)
