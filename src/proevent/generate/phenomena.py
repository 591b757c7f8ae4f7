"""Which phenomena of generator v2 a generated case holds (``meta.phenomena``).

Tags come from what the plan built (the scenario structure, the skeleton's intents) and from what
the realiser wrote (``ChatContext.used``: the surface forms it chose), never from a guess over the
text. The vocabulary is shared with hand-written cases and the realism report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from proevent.model import Case

if TYPE_CHECKING:
    from proevent.generate.assemble import CasePlan
    from proevent.generate.trajectory import Turn

PHENOMENA: tuple[str, ...] = (
    "initial_event_change", "multi_event_chat", "cross_chat_news", "partial_attendance", "join_dropout",
    "volunteer_task", "others_plan", "organiser_post", "service_booking", "solo_event", "options",
    "conditional", "announcement", "details_after_yes", "approximate_time", "confirmation_reminder",
    "lateness", "implicit_cancel", "similar_events",
    "bare_hour", "part_of_day", "relative_time", "duration", "self_correction", "reason_other_time",
    "short_place", "usual_spot", "date_range", "reaction_agreement", "burst",
)

_BY_INTENT: dict[str, str] = {
    "join": "join_dropout", "self_dropout": "join_dropout", "remove_person": "join_dropout",
    "user_dropout": "join_dropout", "volunteer": "volunteer_task", "narrate_plan": "others_plan",
    "invite_others": "others_plan", "announce": "organiser_post", "book_confirm": "service_booking",
    "propose_options": "options", "accept_conditional": "conditional", "remind": "confirmation_reminder",
    "confirm": "confirmation_reminder", "late": "lateness", "cancel_implicit": "implicit_cancel",
    "link_time": "relative_time", "self_correct": "self_correction", "busy": "reason_other_time",
    "react": "reaction_agreement", "report_done": "announcement",
}
_ANNOUNCING = ("announce", "announce_change", "announce_place")


def _turns(plan: CasePlan) -> list[Turn]:
    return list(plan.trajectory.turns) if plan.trajectory is not None else []


def case_phenomena(plan: CasePlan, case: Case) -> list[str]:
    """The sorted phenomenon tags of a finished case."""
    tags = set(plan.tags)
    initial = {ev.id for ev in case.initial_timetable}
    for step in case.steps:
        for op in step.gold_ops:
            if op.op in ("update", "delete") and op.id in initial:
                tags.add("initial_event_change")
            if op.op == "insert" and list(op.event.participants) == [case.user]:
                tags.add("solo_event")
    for pc in plan.chats:
        tags.update(pc.ctx.used)
        intents = {ln.intent for ln in pc.lines}
        tags.update(tag for intent, tag in _BY_INTENT.items() if intent in intents)
        if intents & set(_ANNOUNCING):
            tags.add("announcement")
        if pc.kind == "relay" and any(ln.effect for ln in pc.lines):
            tags.add("cross_chat_news")
        if len({ln.event for ln in pc.lines if ln.effect}) > 1:
            tags.add("multi_event_chat")
        if pc.kind == "target" and any(ln.intent.startswith("fill_") for ln in pc.lines) and any(
                t.intent.startswith("fill_") and t.success and t.state is not None for t in _turns(plan)):
            tags.add("details_after_yes")
    traj = plan.trajectory
    if traj is not None and traj.group and len(traj.attending) < len(traj.members) - 2:
        tags.add("partial_attendance")
    return sorted(t for t in tags if t in PHENOMENA)
