"""The viewer's pages: the case list (filters, search) and the case page (one step at a time)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, HTTPException, Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from proevent.model import Case
from proevent.web.answer import run_answers
from proevent.web.caseview import (
    RunStepView,
    build_timeline,
    describe_op,
    event_row,
    multi_view,
    single_view,
    timetable_rows,
)
from proevent.web.filters import CaseFilter, facet_values, meta_value, noise_values, run_by_position
from proevent.web.params import step_param
from proevent.web.state import WebState, get_state

router = APIRouter()


def position_redirect(request: Request, path: str) -> Response | None:
    """An old URL naming a run by its position (``?run=0``) answers with a redirect to its name."""
    state = get_state(request)
    pos = run_by_position(request.query_params.get("run", ""), state.runs)
    if pos is None:
        return None
    query = [(k, state.runs[pos].name if k == "run" else v) for k, v in request.query_params.multi_items()]
    return RedirectResponse(f"{path}?{urlencode(query)}", status_code=301)


def listed_cases(state: WebState, flt: CaseFilter) -> list[Case]:
    """The cases the list shows: the filter's, and in review mode the review's (its sample, its order)."""
    cases = flt.apply(state.dataset.cases, state.runs, state.search_texts)
    if state.review is not None and state.review.order:
        rank = {cid: i for i, cid in enumerate(state.review.order)}
        cases = sorted((c for c in cases if c.case_id in rank), key=lambda c: rank[c.case_id])
    return cases


@router.get("/", response_class=HTMLResponse)
def case_list(request: Request) -> Response:
    state = get_state(request)
    moved = position_redirect(request, "/")
    if moved is not None:
        return moved
    flt = CaseFilter.from_query(request.query_params, state.runs)
    cases = listed_cases(state, flt)
    rows = [case_summary(state, c) for c in cases]
    return state.render(
        request, "index.html", rows=rows, filter=flt, facets=facet_values(state.dataset.cases, state.runs),
        labels=state.labels,
        runs=state.runs, total=len(state.review.order) if state.review is not None else len(state.dataset.cases),
        review=state.review,
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
def case_page(case_id: str, request: Request) -> Response:
    """One case; ``case_id`` may hold ``/`` (the links quote it as ``%2F``)."""
    return position_redirect(request, f"/case/{quote(case_id, safe='')}") or render_case(request, case_id)


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
    listed = listed_cases(state, flt)
    ids = [c.case_id for c in listed]
    pos = ids.index(case_id) if case_id in ids else None
    prev_case = ids[pos - 1] if pos is not None and pos > 0 else None
    next_case = ids[pos + 1] if pos is not None and pos + 1 < len(ids) else None
    context = step_context(state, case, t)
    return state.render(
        request, "case.html", case=case, t=t, timeline=build_timeline(case), filter=flt,
        prev_case=prev_case, next_case=next_case, position=pos, listed=len(ids),
        summary=case_summary(state, case), review=state.review, reasons=_reasons(state),
        form_error=form_error, posted=posted, status_code=400 if form_error else 200,
        case_gold=whole_gold(case) if state.review is not None else [], runs=state.runs,
        final=[event_row(e) for e in (case.steps[-1].gold_timetable if case.steps else case.initial_timetable)],
        **context,
    )


def whole_gold(case: Case) -> list[dict[str, Any]]:
    """Every step's gold operations at once (review mode judges the whole case, not one step)."""
    out = []
    for step in case.steps:
        events = {e.id: e for e in case.timetable_before(step.t)}
        out.append({"t": step.t, "start": step.start, "end": step.end, "messages": len(step.messages),
                    "ops": [describe_op(op, events) for op in step.gold_ops]})
    return out


def _reasons(state: WebState) -> list[dict[str, str]]:
    return state.review.reasons if state.review is not None else []


def step_context(state: WebState, case: Case, t: int) -> dict[str, Any]:
    """The right-hand panels of a case page at step ``t``: timetables, gold and every run."""
    if t == 0:
        return {"step": None, "before": [], "after": [], "gold": [], "run_steps": [], "step_marks": [], "answers": {}}
    step = case.steps[t - 1]
    before = case.timetable_before(t)
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
    answers = {run.index: run_answers(run, case.case_id, t) for run in state.runs if run.ok}
    return {
        "answers": answers,
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
            ok = q.exact
        if trace is not None:
            st = next((s for s in trace.steps if s.t == t), None)
            if st is not None and not st.missing:
                ok = st.timetable_ok if ok is None else ok and st.timetable_ok
        marks.append(ok)
    return {"t": t, "gold": len(case.steps[t - 1].gold_ops), "runs": marks}
