"""Paired variants: the base cases again, with one factor changed (the paper's table 2, figure 4(b),
appendix E).

A variant of case ``i`` starts from the base case's realised plan (the same attempt, so the same
trajectory, timetables, chats, message times and texts) and changes one factor:

- ``direct``: every implicit line says its value (:func:`~proevent.generate.realize.template.explicit_line`):
  a timetable link says the time, the place or the people ("Ana and Ben" for "same crew as last
  time"), "the usual spot" the place, "an hour later" the time, an implicit cancellation that the
  event is off, relayed news which event it is about;
- ``noise=unrelated_event`` / ``noise=failed_planning``: every off-topic noise chat becomes a
  discussion of an event that does not involve the user (or a failed planning attempt) at the
  same times, and every off-topic line inside a chat a line about such an event (or a proposal
  that is declined) at the same time;
- ``noise=none|low|high``: no off-topic noise at all (no off-topic lines, no off-topic chats), or
  off-topic lines at 0.1 (low) or 0.5 (high) per message in every event chat (off-topic chats
  unchanged);
- ``noise_position=early|interleaved|late``: the off-topic lines of each chat that is not itself
  off-topic (the base texts) all before its first line, spread at random between its lines, or
  all after its last (cases without off-topic lines stay as they are).

Only the lines the factor touches get new texts; they are written by the template realiser from
a stream of their own (``proevent/<seed>/<i>/<attempt>/variant/<name>/<try>/<chat>/<line>``), so
every other message keeps its base text and time. New and moved lines lie between the case's
first window start and its last base message, so the windows are the base case's. The gold is
re-derived from the variant's lines and the case is validated like any generated case; where it
differs from the base gold (none of these factors can change it) the case is counted in
``gold_changed``. A variant case that fails validation is drawn again (``max_attempts`` tries),
then left out and counted in ``given_up``.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from proevent.generate.assemble import EVENT_CHATS, CasePlan, CaseRejected, PlannedChat, _nicknames, finish_case
from proevent.generate.config import GeneratorConfig
from proevent.generate.contacts import contact_pool, names
from proevent.generate.noise import _NARRATABLE, noise_chat
from proevent.generate.realize.template import ChatContext, explicit_line, is_implicit, realize_line
from proevent.generate.skeleton import Line
from proevent.generate.trajectory import _at, _clock, _plus
from proevent.model import Case

FACTORS: dict[str, tuple[str, ...]] = {
    "direct": (),
    "noise": ("unrelated_event", "failed_planning", "none", "low", "high"),
    "noise_position": ("early", "interleaved", "late"),
}
NOISE_LEVELS = {"low": 0.1, "high": 0.5}
"""Off-topic lines per message of an event chat at each level (the base: 0.25, in 60% of cases)."""
KNOWN = ("direct", *(f"{k}={v}" for k, vs in FACTORS.items() for v in vs))


@dataclass(frozen=True)
class Variant:
    factor: str
    value: str | None = None

    @property
    def name(self) -> str:
        """As given on the command line: ``direct``, ``noise=failed_planning``."""
        return self.factor if self.value is None else f"{self.factor}={self.value}"

    @property
    def slug(self) -> str:
        """As in the folder's name: ``direct``, ``noise-failed_planning``."""
        return self.factor if self.value is None else f"{self.factor}-{self.value}"


def parse_variant(text: str) -> Variant:
    """``direct``, ``noise=unrelated_event``, ``noise_position=late``...; a ``ValueError`` names the known ones."""
    factor, sep, value = text.strip().partition("=")
    factor, value = factor.strip(), value.strip()
    if factor in FACTORS and (not FACTORS[factor]) == (not sep) and (not sep or value in FACTORS[factor]):
        return Variant(factor, value or None)
    raise ValueError(f"unknown variant {text!r}; known: {', '.join(KNOWN)}")


def variant_path(base: str, variant: Variant) -> str:
    """The variant's folder beside the base dataset: ``data/proevent-synth.direct``."""
    return f"{str(base).rstrip('/')}.{variant.slug}"


@dataclass
class _Draw:
    plan: CasePlan
    config: GeneratorConfig
    rng: random.Random
    stream: str
    last: datetime
    """The case's last base message: nothing new comes after it (the windows stay the base's)."""
    taken: set[str]


def variant_case(snapshot: CasePlan, base: Case, variant: Variant, config: GeneratorConfig, index: int,
                 attempt: int, rejected: dict[str, int] | None = None) -> tuple[Case | None, bool]:
    """The variant of a base case from its realised plan (``snapshot``, left untouched).

    Returns the case (``None`` when every try failed validation; reasons are counted in
    ``rejected``) and whether its gold differs from the base gold.
    """
    for k in range(config.max_attempts):
        plan = copy.deepcopy(snapshot)
        stream = f"proevent/{config.seed}/{index}/{attempt}/variant/{variant.name}/{k}"
        last = max(t for pc in plan.chats for t in pc.times)
        taken = {plan.user, *(m for pc in plan.chats for m in pc.chat.members),
                 *(p for ev in plan.initial for p in ev.participants)}
        draw = _Draw(plan, config, random.Random(stream), stream, last, taken)
        try:
            _APPLY[variant.factor](draw, variant.value)
            _realise(draw)
            case = _finish(plan, base)
        except CaseRejected as exc:
            if rejected is not None:
                rejected[exc.reason] = rejected.get(exc.reason, 0) + 1
            continue
        return case, not same_gold(base, case)
    return None, False


def same_gold(a: Case, b: Case) -> bool:
    """The same initial timetable, steps (windows) and gold operations and timetables."""
    return a.initial_timetable == b.initial_timetable and len(a.steps) == len(b.steps) and all(
        (x.t, x.start, x.end, x.gold_ops, x.gold_timetable) == (y.t, y.start, y.end, y.gold_ops, y.gold_timetable)
        for x, y in zip(a.steps, b.steps))


def _finish(plan: CasePlan, base: Case) -> Case:
    from proevent.generate.pipeline import checked

    case = finish_case(plan)
    if len(case.steps) < len(base.steps):
        # removed noise was the last thing said: the trailing windows stay, empty (their gold is the
        # base's, as no line with an effect was removed)
        case.steps += [s.model_copy(update={"messages": []}) for s in base.steps[len(case.steps):]]
    kinds = {pc.kind for pc in plan.chats}
    off_topic = any(ln.intent == "interjection" and pc.kind != "off_topic" for pc in plan.chats for ln in pc.lines)
    case.meta["concurrent_chats"] = len(plan.chats)
    case.meta["noise"] = {**case.meta["noise"], "message": off_topic,
                          "chat": any(k not in EVENT_CHATS for k in kinds)}
    case.meta["noise_content"] = sorted((kinds - set(EVENT_CHATS)) | ({"off_topic"} if off_topic else set()))
    return checked(case)


def _realise(draw: _Draw) -> None:
    """Texts for the lines the factor touched (``None``), each from a stream of its own."""
    for pc in draw.plan.chats:
        assert pc.texts is not None
        for j, (line, at) in enumerate(zip(pc.lines, pc.times)):
            if pc.texts[j] is None:
                rng = random.Random(f"{draw.stream}/{pc.chat.chat_id}/{j}")
                pc.texts[j] = realize_line(line, at, pc.ctx, rng, opening=j == 0 or line.new_session)


# --- direct ---------------------------------------------------------------------------------------------


def _direct(draw: _Draw, _value: str | None) -> None:
    plan = draw.plan
    draw.plan.tags.discard("usual_spot")
    for pc in plan.chats:  # noise chats too: a failed plan may link to the timetable
        pc.ctx.direct = True
        pc.ctx.used -= {"usual_spot", "relative_time"}
        assert pc.texts is not None
        texts: list[str | None] = list(pc.texts)
        for j, line in enumerate(pc.lines):
            if not is_implicit(line):
                continue
            if line.intent == "link_people":
                line.slots["people"] = _joined(plan, pc, j)
            pc.lines[j] = explicit_line(line)  # what the line now says: meta.message_intents follows
            texts[j] = None
        pc.texts = texts  # type: ignore[assignment]


def _first(name: str) -> str:
    parts = name.split()
    return parts[-1] if parts[0].rstrip(".") in ("Dr", "Prof", "Mrs", "Mr", "Ms") else parts[0]


def _joined(plan: CasePlan, pc: PlannedChat, j: int) -> str:
    """The people a "same crew as ..." line adds, as said: the earlier event's people not yet in."""
    line = pc.lines[j]
    current: tuple[str, ...] = ()
    key_id = plan.keys.get(line.event)
    if key_id is not None:
        current = tuple(next(ev.participants for ev in plan.initial if ev.id == key_id))
    for ln in pc.lines[:j]:
        if ln.effect and ln.event == line.event and ln.state is not None:
            current = ln.state.participants
    ref = pc.ctx.refs[int(line.slots["ref"])]  # type: ignore[arg-type]
    new = [p for p in ref.state.participants if p not in current and p != plan.user] or [
        p for p in ref.state.participants if p != plan.user]
    firsts = [_first(p) for p in new]
    return firsts[0] if len(firsts) == 1 else f"{', '.join(firsts[:-1])} and {firsts[-1]}"


# --- noise content --------------------------------------------------------------------------------------


def _content(draw: _Draw, value: str | None) -> None:
    if value in ("none", "low", "high"):
        _level(draw, value)
        return
    assert value in ("unrelated_event", "failed_planning")
    plan, rng = draw.plan, draw.rng
    traj = plan.trajectory
    assert traj.day0 is not None
    used = {traj.profile.id}
    for n, pc in enumerate(plan.chats):
        if pc.kind == "off_topic":
            # no timetable links in the new chat: they would add events to the initial timetable
            cfg = draw.config.model_copy(update={"atomic_ops": {"simple_modification": 1.0, "timetable_linking": 0.0,
                                                                "detail_removal": 0.0}})
            nc = noise_chat(value, rng, cfg, plan.user, traj.day0, traj.horizon_days, used, draw.taken)
            voices = {**{m: pc.ctx.voices.get(m, "casual") for m in nc.members}, **nc.voices}
            for ln in nc.lines:
                if ln.addressee is None:
                    others = [m for m in nc.members if m != ln.speaker]
                    ln.addressee = others[0] if len(nc.members) == 2 else None
            ctx = ChatContext(user=plan.user, voices=voices, nicknames=_nicknames(nc.members), refs=pc.ctx.refs,
                              style=pc.ctx.style, category=nc.category, acts=list(nc.acts))
            chat = pc.chat.model_copy(update={"name": nc.name, "type": nc.type, "members": list(nc.members)})
            plan.chats[n] = PlannedChat(chat, value, nc.lines, _same_places(pc, nc.lines, draw), ctx,
                                        [None] * len(nc.lines))  # type: ignore[list-item]
        else:
            _swap_lines(draw, pc, value)


def _same_places(pc: PlannedChat, lines: list[Line], draw: _Draw) -> list[datetime]:
    """Times for a replacement chat at the replaced chat's places: its sessions open when the old
    sessions opened (the last old one takes the rest), replies minutes apart, never after the case's
    last base message."""
    opens = [t for i, (ln, t) in enumerate(zip(pc.lines, pc.times)) if i == 0 or ln.new_session]
    out: list[datetime] = []
    k = -1
    for i, ln in enumerate(lines):
        if i == 0 or ln.new_session:
            k += 1
            at = opens[min(k, len(opens) - 1)]
            at = at if not out or at > out[-1] else out[-1] + timedelta(minutes=draw.rng.randint(20, 60))
        else:
            at = out[-1] + timedelta(minutes=draw.rng.randint(1, 12))
        out.append(min(at, draw.last))
    return out


def _free_name(draw: _Draw) -> str:
    name = draw.rng.choice([n for n in names().people if n not in draw.taken])
    draw.taken.add(name)
    return name


def _other_plan(draw: _Draw) -> dict[str, object]:
    """An event of someone else's: an activity, a day after the case's messages, a time, a place."""
    traj = draw.plan.trajectory
    assert traj.day0 is not None
    rng = draw.rng
    q = rng.choice([p for p in contact_pool().profiles if p.category in _NARRATABLE and p.contact_attends
                    and p.id != traj.profile.id])
    start = _at(traj.day0 + timedelta(days=traj.horizon_days + rng.randint(1, 8)), _clock(rng, q))
    end = _plus(start, rng.randrange(q.duration[0], q.duration[1] + 1, 15)) if rng.random() < 0.4 else None
    act = rng.choice(q.acts).replace("your ", "a ")
    return {"act": act, "when": (start, end), "place": rng.choice(q.places), "day": start[:10]}


def _swap_lines(draw: _Draw, pc: PlannedChat, value: str) -> None:
    """Each off-topic line of a chat becomes a line about someone else's event, or a proposal that
    is declined (two messages in the line's minute)."""
    assert pc.texts is not None
    lines, times, texts = [], [], []
    members = [m for m in pc.chat.members][:2]
    for ln, at, text in zip(pc.lines, pc.times, pc.texts):
        if ln.intent != "interjection":
            lines.append(ln)
            times.append(at)
            texts.append(text)
            continue
        slots = _other_plan(draw)
        if value == "unrelated_event":
            lines.append(Line(ln.speaker, "narrate_plan", {**slots, "person": _free_name(draw)},
                              addressee=ln.addressee, new_session=ln.new_session))
            times.append(at)
            texts.append(None)
            continue
        other = next((m for m in members if m != ln.speaker), members[0])
        lines += [Line(ln.speaker, "propose", slots, addressee=ln.addressee, new_session=ln.new_session),
                  Line(other, "decline", {"reason": "conflict"}, addressee=ln.speaker)]
        times += [at, at]
        texts += [None, None]
    pc.lines, pc.times, pc.texts = lines, times, texts  # type: ignore[assignment]


# --- noise level and position ---------------------------------------------------------------------------


def _level(draw: _Draw, value: str) -> None:
    plan = draw.plan
    if value == "none":
        plan.chats = [pc for pc in plan.chats if pc.kind != "off_topic"]
    for pc in plan.chats:
        if pc.kind == "off_topic" or (value != "none" and pc.kind not in EVENT_CHATS):
            continue
        _keep(pc, [ln.intent != "interjection" for ln in pc.lines])
        if value != "none":
            members = pc.chat.members[:2]
            spots = [j for j in range(len(pc.lines)) if draw.rng.random() < NOISE_LEVELS[value]]
            _insert(draw, pc, [(j, Line(draw.rng.choice(members), "interjection", {"pick": draw.rng.random()}), None)
                               for j in spots])


def _position(draw: _Draw, value: str | None) -> None:
    for pc in draw.plan.chats:
        if pc.kind == "off_topic" or not any(ln.intent == "interjection" for ln in pc.lines):
            continue
        assert pc.texts is not None
        noise = [(ln, text) for ln, text in zip(pc.lines, pc.texts) if ln.intent == "interjection"]
        _keep(pc, [ln.intent != "interjection" for ln in pc.lines])
        n = len(pc.lines)
        if value == "early":
            _early(draw, pc, noise)
            continue
        spots = sorted(draw.rng.randrange(n) for _ in noise) if value == "interleaved" else [n - 1] * len(noise)
        _insert(draw, pc, [(j, replace(ln, new_session=False), text) for j, (ln, text) in zip(spots, noise)])


def _keep(pc: PlannedChat, keep: list[bool]) -> None:
    assert pc.texts is not None
    rows = [r for r, k in zip(zip(pc.lines, pc.times, pc.texts), keep) if k]
    pc.lines, pc.times, pc.texts = [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]


def _insert(draw: _Draw, pc: PlannedChat, items: list[tuple[int, Line, str | None]]) -> None:
    """Put each line right after line ``j`` of the chat, a few minutes after it (never past the next
    line or the case's last base message); ``None`` texts are written later."""
    assert pc.texts is not None
    after: dict[int, list[tuple[Line, str | None]]] = {}
    for j, ln, text in items:
        after.setdefault(j, []).append((ln, text))
    lines, times, texts = [], [], []
    for j, (ln, at, text) in enumerate(zip(pc.lines, pc.times, pc.texts)):
        lines.append(ln)
        times.append(at)
        texts.append(text)
        limit = pc.times[j + 1] if j + 1 < len(pc.times) else draw.last
        for extra, etext in after.get(j, []):
            at = min(at + timedelta(minutes=draw.rng.randint(1, 4)), max(limit, at))
            lines.append(extra)
            times.append(at)
            texts.append(etext)
    pc.lines, pc.times, pc.texts = lines, times, texts  # type: ignore[assignment]


def _early(draw: _Draw, pc: PlannedChat, noise: list[tuple[Line, str | None]]) -> None:
    """The chat's off-topic lines before its first line, minutes apart (not before the first window)."""
    first = pc.times[0]
    floor = draw.plan.start
    at = first
    times: list[datetime] = []
    for _ in noise:
        at = at - timedelta(minutes=draw.rng.randint(1, 4))
        times.append(max(at, floor))
    times.reverse()
    pc.lines = [replace(ln, new_session=k == 0) for k, (ln, _) in enumerate(noise)] + [
        replace(pc.lines[0], new_session=True), *pc.lines[1:]]
    pc.times = times + list(pc.times)
    pc.texts = [t for _, t in noise] + list(pc.texts or [])  # type: ignore[misc]


_APPLY = {"direct": _direct, "noise": _content, "noise_position": _position}

__all__ = ["FACTORS", "KNOWN", "NOISE_LEVELS", "Variant", "parse_variant", "same_gold", "variant_case",
           "variant_path"]
