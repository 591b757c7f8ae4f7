"""The viewer's pages: the case list (filters, search) and the case page (one step at a time)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from starlette.responses import HTMLResponse

from proevent.model import Case
from proevent.web.caseview import (
    RunStepView,
    before_timetable,
    build_timeline,
    describe_op,
    multi_view,
    single_view,
    timetable_rows,
)
from proevent.web.filters import CaseFilter, facet_values, meta_value, noise_values
from proevent.web.params import step_param
from proevent.web.state import WebState, get_state

router = APIRouter()


@router.get("/", response_class=HTMLResponse)
def case_list(request: Request) -> HTMLResponse:
    state = get_state(request)
    flt = CaseFilter.from_query(request.query_params, state.runs)
    cases = flt.apply(state.dataset.cases, state.runs, state.search_texts)
    rows = [case_summary(state, c) for c in cases]
    return state.render(
        request, "index.html", rows=rows, filter=flt, facets=facet_values(state.dataset.cases, state.runs),
        labels=state.labels,
        runs=state.runs, total=len(state.dataset.cases), review=state.review,
    )


def case_summary(state: WebState, case: Case) -> dict[str, Any]:
    outcomes = [(r, r.outcome.get(case.case_id, "")) for r in state.runs]
    review = state.review.latest(case.case_id) if state.review is not None else None
    return {
        "case": case,
        "category": meta_value(case, "category"),
        "turns": meta_value(case, "negotiation_turns"),
        "chats": meta_value(case, "concurrent_chats"),
        "noise": ", ".join(noise_values(case)),
        "steps": len(case.steps),
        "gold_ops": sum(len(s.gold_ops) for s in case.steps),
        "outcomes": outcomes,
        "review": review,
    }


@router.get("/case/{case_id:path}", response_class=HTMLResponse)
def case_page(case_id: str, request: Request) -> HTMLResponse:
    """One case; ``case_id`` may hold ``/`` (the links quote it as ``%2F``)."""
    return render_case(request, case_id)


def render_case(request: Request, case_id: str, form_error: str | None = None,
                params: dict[str, str] | None = None, posted: dict[str, str] | None = None) -> HTMLResponse:
    """The case page; ``params`` replaces the query (a form post carries the page's query along)."""
    state = get_state(request)
    query = params if params is not None else dict(request.query_params)
    try:
        case = state.dataset.case(case_id)
    except KeyError:
        raise HTTPException(404, "no such case in this dataset") from None
    t = step_param(query.get("t", "1"), len(case.steps))
    flt = CaseFilter.from_query(query, state.runs)
    listed = flt.apply(state.dataset.cases, state.runs, state.search_texts)
    ids = [c.case_id for c in listed]
    pos = ids.index(case_id) if case_id in ids else None
    prev_case = ids[pos - 1] if pos is not None and pos > 0 else None
    next_case = ids[pos + 1] if pos is not None and pos + 1 < len(ids) else None
    context = step_context(state, case, t)
    return state.render(
        request, "case.html", case=case, t=t, timeline=build_timeline(case), filter=flt,
        prev_case=prev_case, next_case=next_case, position=pos, listed=len(ids),
        summary=case_summary(state, case), review=state.review, reasons=_reasons(state),
        form_error=form_error, posted=posted, status_code=400 if form_error else 200, **context,
    )


def _reasons(state: WebState) -> list[dict[str, str]]:
    return state.review.reasons if state.review is not None else []


def step_context(state: WebState, case: Case, t: int) -> dict[str, Any]:
    """The right-hand panels of a case page at step ``t``: timetables, gold and every run."""
    if t == 0:
        return {"step": None, "before": [], "after": [], "gold": [], "run_steps": [], "step_marks": []}
    step = case.steps[t - 1]
    before = before_timetable(case, t)
    rows_before, rows_after = timetable_rows(before, step.gold_timetable)
    events = {e.id: e for e in before}
    run_steps = []
    for run in state.runs:
        view = RunStepView(run.index, run.label, problems=list(run.problems))
        if run.ok:
            q = run.questions.get((case.case_id, t))
            if q is not None:
                view.single = single_view(q, before, run.errors.get((case.case_id, t), []), state.labels)
            trace = run.traces.get(case.case_id)
            if trace is not None:
                view.multi = multi_view(trace, t, run.multi_ops(case.case_id, t))
        run_steps.append(view)
    return {
        "step": step,
        "before": rows_before,
        "after": rows_after,
        "gold": [describe_op(op, events) for op in step.gold_ops],
        "run_steps": run_steps,
        "step_marks": [step_marks(state, case, s.t) for s in case.steps],
    }


def step_marks(state: WebState, case: Case, t: int) -> dict[str, Any]:
    """For the step bar: how many gold operations, and per run whether the step went right."""
    marks = []
    for run in state.runs:
        q = run.questions.get((case.case_id, t))
        trace = run.traces.get(case.case_id)
        ok: bool | None = None
        if q is not None and not q.missing:
            ok = not (q.error or q.unmatched_pred or q.unmatched_gold or q.invalid)
        if trace is not None:
            st = next((s for s in trace.steps if s.t == t), None)
            if st is not None and not st.missing:
                ok = st.timetable_ok if ok is None else ok and st.timetable_ok
        marks.append(ok)
    return {"t": t, "gold": len(case.steps[t - 1].gold_ops), "runs": marks}
