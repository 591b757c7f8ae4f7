"""The ``rules`` agent: a reference baseline that reads chats with word lists and
:mod:`proevent.timeexpr`, no model, no gold, no ``meta``.

Each chat keeps a negotiation state (:class:`ChatState`): the event it is about (``focus``) and the
open proposal (``Draft``: a new event, or a change of an event of the timetable). Messages are read
into typed moves (:mod:`reading`) and played on that state: a proposal stays open until the side
that must agree says yes (the user, when someone else proposed; anyone else, when the user did); a
booking service's confirmation settles a request, its failure drops it; cancellations and the user
dropping out delete; someone else dropping out or joining changes the participants. A message is
linked to an event of the timetable by the words of its description or place, its day, its time
and the people of the chat, so a chat can move events of the initial timetable, settle several
events, and relay news about an event of another chat.

The state is kept across steps (per case, mode, repeat and chat): a step reads only its new
messages; the context is replayed only when the kept state does not end where the context does.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from datetime import date, timedelta
from typing import Any

from proevent.agents.protocol import Action, ChatUpdate, Observation
from proevent.agents.rules.clues import (
    RE_AFTER_ANY,
    RE_BARE_ANCHOR,
    RE_BOOKED_LEAD,
    RE_PLACE_AGAIN,
    RE_REFERENCE,
    RE_THIRD_LEAD,
    RE_YOU_BOOKED,
    RE_YOUR_BOOKING,
    RECENT_SAID,
    anchor_only,
    at_service,
    chosen_option,
    marks,
    over,
    plan_of_its_own,
    relayed_person,
    said_back,
)
from proevent.agents.rules.cues import Cues, fold, load_cues
from proevent.agents.rules.links import (
    after_slot,
    apply_values,
    differs,
    habit_place,
    link_keys,
    recent_window,
    same_kind,
    start_after,
)
from proevent.agents.rules.moves import (
    CLEARED,
    LAST,
    USUAL,
    Acceptance,
    Booked,
    BookingFailed,
    CancelAsked,
    Cancellation,
    Dropout,
    Hedge,
    Join,
    Move,
    Nothing,
    Proposal,
    Rejection,
    Request,
    Values,
)
from proevent.agents.rules.reading import RE_CANT, Context, Features, activity_of, features, read_features, stated
from proevent.agents.rules.state import (
    ChatState,
    Draft,
    Played,
    Slot,
    Work,
    at_time,
    clock_of,
    day_of,
    message_key,
    plus_minutes,
    sent_at,
    slot_reading,
    usual,
)
from proevent.model import Chat, Message

_KEEP_STATES = 4096
_QUIET = timedelta(hours=6)
"""A chat silent this long before a message: a new conversation (what was asked before is not answered)."""
_RE_GREETING = re.compile(r"(?:good\s+(?:morning|afternoon|evening)|hi|hello|dear)(?:\s+[\w.]+){0,2}\s*[!,.]\s*")
"""A greeting that opens a business's message ("Good morning! Confirmed ✅ Sunday 7 June, 12:30pm")."""


def _greeting_end(folded: str) -> int:
    m = _RE_GREETING.match(folded)
    return m.end() if m is not None else 0


_RE_MY_OWN = re.compile(r"(?:my|our)\s+([a-z]+)\s+(?:got|has been|was|is|just got)\s+(?:moved|changed|rescheduled|"
                        r"pushed|postponed|brought forward|cancelled|canceled)(?![\w'])")
"""A message that opens with a plan of the sender's own that moved ("my midterm got moved to friday")."""
def said_days(f: Features) -> set[date]:
    """The days a message names, self-corrections aside."""
    return {d.best for d in f.reading.days if not d.retracted}


_STALE = timedelta(hours=12)
"""A bare yes this long after a proposal was last made, changed or answered does not settle it."""
_CALL = 6
"""A roll-call ("parkrun sat?", "who's playing") is answered within this many messages."""
_RE_INVITE = re.compile(r"(?<![\w'])(?:come|join us|who|who's|whos|anyone|any takers)(?![\w'])")
"""Words that put a plan to a group ("come!", "who's in"): the answers are a roll-call."""
_RE_FROM = re.compile(r"(?<![\w'])(?:from|after|free from|home from|back from)\s+\d")
_RE_ME = re.compile(r"^(?:[a-z]+[,!]?\s+)?(?:me|me too|same|same here|yes me|me please|i am|i'm|im|i can|"
                    r"i can do it|i can help|i can do that|in|in too|also in|count me|me as well)"
                    r"(?:\W*$|\s*[!.]+\s+(?!but\b|if\b)\S)")
"""A message that answers a roll-call by volunteering ("me", "in!", "opa, in", "in! i'll bring the bread")."""
_RE_IT = re.compile(r"(?<![\w'])(?:it|it's|its|we|we're|our|the plan|that)(?![\w'])")
_RE_ALONE = re.compile(r"(?<![\w'])(?:on my own|by myself|alone|solo|go anyway|still go|going anyway|i'll still)"
                       r"(?![\w'])")
_RECENT_ALONE = 3
"""The user says they go anyway within this many messages of the other one dropping out."""
_RE_PLACE_GONE = re.compile(r"(?<![\w'])(?:closed|shut|is taken|'s taken|s taken|booked out|is booked up|"
                            r"under renovation|being (?:painted|repaired|renovated))(?![\w'])")
"""The event's place cannot be used ("closed the rajmachi route", "hugo's taken"): a new one is sought."""
_RE_MOVED = re.compile(r"(?<![\w'])(?:move[sd]?|moving|push(?:ed)?|postponed?|reschedul\w*|shift(?:ed)?|changed?)"
                       r"(?![\w'])")
"""A plan said to be moved ("intercambio moves to sunday"): the same plan on another day."""
_RE_MOVE_ASKED = re.compile(r"(?<![\w'])(?:move|moving|reschedul\w*|push|postpone|shift|bring (?:it )?forward)"
                            r"(?![\w'])")
"""A change asked for before its new values ("can we move tomorrow's call?"): the next offer moves that event."""


class RulesAgent:
    name = "rules"

    def __init__(self, **_options: Any) -> None:
        self.cues: Cues = load_cues()
        self._states: OrderedDict[tuple[str, str, int, str], ChatState] = OrderedDict()
        self.replays = 0
        """How many times a chat's context had to be read again (the kept state did not fit)."""

    def describe(self) -> dict[str, Any]:
        return {"strategy": "rules", "role": "reference baseline", "cues_version": self.cues.version}

    async def act(self, obs: Observation) -> Action:
        work, _ = self.step(obs)
        return Action(ops=work.ops())

    def step(self, obs: Observation) -> tuple[Work, list[Played]]:
        """Play the step's new messages on each chat's kept state: the working timetable they
        leave and, per message, its move and whether it moved the negotiation."""
        work = Work(list(obs.timetable))
        played: list[Played] = []
        states = []
        for upd in obs.chats:
            key = (obs.case_id, obs.mode, obs.repeat, upd.chat.chat_id)
            state = self._resume(key, obs, upd)
            state.last = None  # a step that fails half-way leaves a state nobody resumes
            states.append((key, state, upd))
        # the chats' new messages in the order they were sent: news in one chat settles before a
        # later message of another chat reads the event (a stable sort keeps each chat's own order)
        queue = sorted(((msg.time, n, k) for n, (_, _, upd) in enumerate(states) for k, msg in enumerate(upd.new)))
        for _, n, k in queue:
            _, state, upd = states[n]
            played.append(self._play(state, upd.new[k], upd.chat, obs, work))
        for key, state, upd in states:
            state.last = message_key(upd.new[-1]) if upd.new else message_key(upd.context[-1]) if upd.context else None
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > _KEEP_STATES:
                self._states.popitem(last=False)
        return work, played

    # -- state across steps ----------------------------------------------------------------------
    def _resume(self, key: tuple[str, str, int, str], obs: Observation, upd: ChatUpdate) -> ChatState:
        """The chat's kept state when it ends where this step's context does (played on in place,
        no copy), else the context read again from the start."""
        kept = self._states.get(key)
        end = message_key(upd.context[-1]) if upd.context else None
        if kept is not None and kept.last == end:
            state = kept
        else:
            self.replays += bool(upd.context)
            state = ChatState()
            scratch = Work(list(obs.timetable))
            for msg in upd.context:
                self._play(state, msg, upd.chat, obs, scratch)
        ids = {e.id for e in obs.timetable}
        if state.focus is not None and state.focus not in ids:
            match = [e for e in obs.timetable if state.focus_start and e.start == state.focus_start]
            state.focus = match[-1].id if match else None
        state.focus_start = None
        if state.open is not None and state.open.key is not None and state.open.key not in ids:
            state.open = None
        if state.open is not None and state.open.key is None and state.open.values.day is not None and any(
                day_of(e.start) == state.open.values.day and clock_of(e.start) == state.open.values.clock
                for e in obs.timetable):
            state.open = None  # the plan is in the timetable now (settled in a step we read differently)
        return state

    # -- one message -----------------------------------------------------------------------------
    def _is_service(self, state: ChatState, chat: Chat, user: str, f: Features, sender: str) -> bool:
        if state.service is None:
            name = fold(" ".join([chat.name, *[m for m in chat.members if m != user]]))
            state.service = chat.type == "direct" and (self.cues.has("service_names", name) or "&" in name)
            # (a person's name has no "&": "Wren & Crumb", "Schnitt & Co" are businesses)
        if not state.service and chat.type == "direct" and sender != user and "confirmed" in f.hits and (
                RE_YOUR_BOOKING.search(f.folded) or RE_YOU_BOOKED.search(f.folded) or RE_REFERENCE.search(f.text)
                or RE_BOOKED_LEAD.match(f.folded, _greeting_end(f.folded)) and f.text[:1].isupper() and any(
                    c.isdigit() for c in f.text)):
            state.service = True  # "Booked ✂️ Thu 18.06 at 18:15", "that's you booked in", "Ref VLW-2291":
            # a business's voice, not a friend's
        return state.service

    @staticmethod
    def _replaced(state: ChatState, f: Features, sender: str, work: Work) -> Slot | None:
        """The event the sender cancelled one or two messages ago, brought back when the sender now
        states when it happens instead ("replacement class saturday 10:30am", "we will do it thursday
        instead"): a move, announced as the cancellation was."""
        if state.cancelled is None or state.cancelled[1] != sender or state.seen - state.cancelled[2] > 2:
            return None
        slot = work.slots.get(state.cancelled[0])
        if slot is None or not slot.deleted or f.question or "change" not in f.hits or not (
                f.reading.days or f.reading.clocks) or RE_THIRD_LEAD.match(f.folded):
            return None  # (not "they offer thursday instead": someone else's offer, relayed)
        slot.deleted, state.cancelled = False, None
        return slot

    @staticmethod
    def _held_on(days: set[date], person: str, work: Work) -> Slot | None:
        """The one live event the person attends on the one day named (none when several are)."""
        if len(days) != 1:
            return None
        held = [s for s in work.live() if day_of(s.start) in days and person in s.participants]
        return held[0] if len(held) == 1 else None

    @staticmethod
    def _venue(state: ChatState, chat: Chat, work: Work) -> str | None:
        """Where the service holds its events: the one place of the timetable's events held at it
        (:func:`at_service`), remembered for the chat (the event may be cancelled before the next booking)."""
        if state.venue is None:
            places = {s.location for s in work.slots.values() if s.location and at_service(s, chat)}
            state.venue = places.pop() if len(places) == 1 else None
        return state.venue

    def _play(self, state: ChatState, msg: Message, chat: Chat, obs: Observation, work: Work) -> Played:
        user, sender = obs.user, msg.sender
        state.seen += 1
        at = sent_at(msg.time)
        state.quiet_before = state.last_at is not None and at - state.last_at > _QUIET
        state.last_at = at
        if state.quiet_before:
            state.moving = None  # a change asked yesterday is not what today's message answers
        if state.open is not None and state.open.key is not None and over(work.slots.get(state.open.key), at):
            state.open = None  # a change of an event that is over ("that was so nice"): nothing is left to agree on
        before = (state.open, state.open.values if state.open else None)
        asked = (state.cancel_asked, state.join_asked)
        f = features(msg.text, at, self.cues)
        service = self._is_service(state, chat, user, f, sender)
        if service:
            self._venue(state, chat, work)  # read while its events are in the timetable
        about, named = self._link(stated(f) if service and sender == user and "cancel" in f.hits else f, chat, user,
                                   work, state)  # "please cancel my appointment on wednesday": no reason there
        after, asks_where = marks(f)
        before_it = after_slot(after, f, work) if after else None
        reference = about is not None and anchor_only(f, work.slots[about], self.cues)
        if reference and before_it is None and (later := RE_AFTER_ANY.search(f.folded)) is not None:
            after, before_it = later, work.slots[about or ""]  # "beers after your haircut": from its end
        tied = work.slots.get(about or "") if reference else None  # the event a new plan is set before or after
        if tied is None and f.question and ("before" in f.folded or "after" in f.folded) and (
                RE_BARE_ANCHOR.search(f.folded)) and (focus := work.slots.get(about or state.focus or "")) and (
                not focus.deleted and plan_of_its_own(f, focus, self.cues)):
            tied, reference = focus, True  # "dinner before? there's a ramen place on dearborn, 6:15?"
        if before_it is not None and about == before_it.id or reference:
            about, named = None, False  # "straight after yoga", "lunch before the workshop": a reference
            if tied is not None and state.open is not None and state.open.key == tied.id:
                state.open = None  # "after doubles lunch at firuze?": a plan of its own, not the open change of doubles
        open_key = state.open.key if state.open is not None else None
        if open_key not in (None, about) and about is not None and "agree" in f.hits and state.open is not None and (
                state.open.values.clock is not None and state.open.values.clock in link_keys(f)[2]):
            about = open_key  # "3 is fine, the review is done by 11": the yes to the open change's 3pm
        asked_about = state.focus
        if about is not None:
            state.focus = about
        subject = work.slots.get(about or state.focus or "") if (about or state.focus) else None
        if subject is not None and subject.deleted:
            subject = None
        replaced = self._replaced(state, f, sender, work)
        if replaced is not None:
            about = state.focus = replaced.id  # "class is cancelled. we will do it thursday 5pm instead": moved
            subject, named = replaced, True
        draft = state.open
        if draft is not None and about is not None and draft.key != about:
            draft = None  # the message names another event than the open plan's: its hour is that event's
        planned = draft is not None and draft.key is None and draft.activity is not None and not draft.values.clock
        anchor = draft.values.clock if draft and draft.values.clock else None if planned else clock_of(
            subject.start if subject else None)
        desc = (draft.activity if planned and draft else "") or (subject.description if subject else "") or (
            draft.activity if draft else "") or ""  # ("dinner tmrw?" - "about thyme at 7:30?": a dinner's hours)
        day_now = (draft.values.day if draft else None) or day_of(subject.start if subject else None)
        if day_now is not None and f.reading.days and all(d.best != day_now for d in f.reading.days):
            anchor = None  # another day's plan: the discussed event's hour says nothing of its bare hours
        if state.members is None:
            state.members = tuple(chat.members)
        ctx = Context(user, sender, state.members, service, anchor,  # by position: built at every message
                      usual(f.folded) or (usual(desc) if desc else None),  # usual hours
                      draft is not None or subject is not None,  # discussing
                      draft.by if draft else None,  # open_by
                      (draft.values.day if draft else None) or day_of(  # current_day
                          subject.start if subject else None), state.where_asked)  # place_asked
        _, move = read_features(f, ctx, self.cues)
        move.about = about
        if isinstance(move, Acceptance) and about is not None and asked_about not in (None, about) and (
                asked_about in work.slots and not work.slots[asked_about].deleted):
            state.focus, move.about = asked_about, None  # "yess but i'll be dead after the hike": a yes to the yoga
        if isinstance(move, Dropout) and move.person in ("", sender) and subject is not None:
            relayed = relayed_person(f.folded, subject.participants, sender, user)
            if relayed is not None:
                move.person = relayed  # "julien has the flu, he told me he won't make thursday"
        if isinstance(move, (Proposal, Cancellation)) and sender != user and (own := _RE_MY_OWN.match(f.folded)) and (
                subject is None or own.group(1)[:4] not in fold(subject.description)):
            # "my midterm got moved to friday 2pm. i can't go to sylhet": the sender's own plan moved, a reason
            move = Dropout(sender, person=sender) if RE_CANT.search(f.folded, own.end()) else Nothing(sender)
        if isinstance(move, Dropout) and (moving_to := state.open) is not None and moving_to.key in work.slots and (
                moving_to.values.day is not None and said_days(f) == {moving_to.values.day}) and (
                moving_to.values.day != day_of(work.slots[moving_to.key].start)):
            if (move.person or sender) != user:
                moving_to.out.append(move.person or sender)  # "friday i cant" while the move to friday is open:
            move = Rejection(sender)  # a no to the move, and out of the event only if it moves
        if isinstance(move, Dropout) and move.day is not None:
            if (held := self._held_on({move.day}, move.person or sender, work)) is not None:
                subject, move.about, state.focus = held, held.id, held.id  # "no thursday for me, sorry. sat tho!"
        elif isinstance(move, Dropout) and move.about is None and (
                subject is None or (move.person or sender) not in subject.participants) and (
                held := self._held_on(said_days(f), move.person or sender, work)):
            subject, move.about, state.focus = held, held.id, held.id  # "gente i can't sunday": the sunday run
        values = getattr(move, "values", None)
        if isinstance(values, Values):
            if values.place in (USUAL, LAST):
                values.place = habit_place(values.place, chat, user, work, sent_at(msg.time))
                if state.open is not None:
                    move.about = None  # "usual room" names the open plan's place, not the event it came from
            if after is not None and values.clock is None:
                start_after(values, f, before_it)
            if tied is not None and values.day is None and isinstance(move, Proposal) and move.about is None:
                values.day = day_of(tied.start)  # the plan set before or after an event is on its day
        if state.alone is not None and sender == user and state.seen - state.alone[1] <= _RECENT_ALONE and (
                _RE_ALONE.search(f.folded)):
            slot = work.slots.get(state.alone[0])
            if slot is not None:
                slot.deleted = False  # ... unless the user goes anyway ("no bother, I'll go on my own")
            state.alone = None
        if isinstance(move, Rejection) and state.open is None and subject is not None and sender != user and (
                chat.type == "group" and sender in subject.participants and state.moved is not None
                and state.moved[0] == subject.id and state.seen - state.moved[1] <= recent_window(chat)
                and any(d.best == day_of(subject.start) for d in f.reading.days)):
            move = Dropout(sender, about=subject.id, person=sender)  # "noooo i'm at a wedding sat" after the move
        elif isinstance(move, Rejection) and state.open is None and sender != user and chat.type == "group" and (
                not f.reading.clocks and RE_CANT.search(f.folded)) and (
                held := self._held_on(said_days(f), sender, work)):
            subject = held  # "i can't on saturday 😢 my sister's wedding": out of the one event they are in that day
            move = Dropout(sender, about=held.id, person=sender)
        if isinstance(move, Nothing) and state.open is not None and chat.type == "group" and _RE_ME.match(f.folded):
            move = Acceptance(sender)  # "same": the yes of the one before
        agrees = isinstance(move, Acceptance) or isinstance(move, Proposal) and move.agrees
        if agrees and state.open is not None and state.open.values.place is None and move.values.place is None:
            move.values.place = said_back(f, state.recent, self.cues)  # "zeret yes. 7 good", "the local 6 👍"
        if service and sender == user and isinstance(move, Request) and not move.cancel and move.values.place is None:
            move.values.place = chosen_option(f.text, state.recent)  # "Zizzi Cambridge sounds good. Book it for 4"
        state.recent = [*state.recent[-(RECENT_SAID - 1):], f.folded]
        if isinstance(move, Proposal):
            move.named = named
        if about is not None and (isinstance(move, (Nothing, Proposal)) and _RE_MOVE_ASKED.search(f.folded) or (
                isinstance(move, Proposal) and move.asks and move.change)):
            state.moving = (about, sender, state.seen)
        if asks_where or subject is not None and _RE_PLACE_GONE.search(f.folded):
            state.where_asked = True  # "where?", or "the route is closed": a bare name next is the new place
        elif getattr(move, "values", None) is not None and move.values.place is not None:
            state.where_asked = isinstance(move, Proposal) and move.asks and f.question and (
                RE_PLACE_AGAIN.search(f.folded) is not None)  # "regatta again?": another place may answer
        # (the roll-call and the moves below do nothing without a roll-call open, or for a Nothing)
        called = state.call is not None and state.open is None and self._roll_call(state, move, f, chat, user, work)
        if not called and not isinstance(move, Nothing):
            self._apply(state, move, chat, user, work, subject, service)
        now = (state.open, state.open.values if state.open else None)
        if state.open is not None and (now != before or isinstance(move, (Acceptance, Join, Hedge, Rejection)) and (
                move.about in (None, state.open.key))):
            state.open.at, state.open.when = state.seen, at  # changed, or answered: a roll-call's answers keep it open
        return Played(move, now != before or (state.cancel_asked, state.join_asked) != asked or called)

    def _roll_call(self, state: ChatState, move: Move, f: Features, chat: Chat, user: str, work: Work) -> bool:
        """An answer to the chat's open roll-call: a member who says yes ("me", "in", "yep") joins
        the event's participants, one who says no leaves them; the silent stay as they are. True
        when the participants changed (the move is then played no further)."""
        if state.call is None or state.open is not None:
            return False
        key, at = state.call
        slot = work.slots.get(key)
        sender = move.sender
        if slot is None or slot.deleted or state.seen - at > _CALL or sender == user or sender not in chat.members:
            return False
        yes = isinstance(move, Acceptance) or _RE_ME.match(f.folded) is not None or (
            isinstance(move, Join) and move.person == sender and not move.asks) or (
            isinstance(move, Proposal) and move.agrees and not differs(move.values, slot))
        no = isinstance(move, Rejection) or isinstance(move, Dropout) and move.person in (sender, "")
        if yes and sender not in slot.participants:
            slot.participants.append(sender)
            return True
        if no and sender in slot.participants:
            slot.participants.remove(sender)
            return True
        return False

    def _other_side(self, draft: Draft, sender: str, user: str) -> bool:
        return sender != draft.by and (draft.by == user or sender == user)

    def _apply(self, state: ChatState, move: Move, chat: Chat, user: str, work: Work, subject: Slot | None,
               service: bool) -> None:
        sender = move.sender
        if isinstance(move, Request) or (service and isinstance(move, Proposal)):
            values = move.values
            if isinstance(move, Request) and move.cancel:
                day, clock = move.values.day, move.values.clock
                fits = subject is not None and (day is None or day_of(subject.start) == day) and (
                    clock is None or clock_of(subject.start) in (None, clock))  # "my saturday 4pm court": not the 9am
                state.cancel_asked = subject.id if fits else None
                return
            if isinstance(move, Proposal) and move.fact and move.about is not None and (
                    state.open is None or state.open.key in (None, move.about)) and (
                    subject is not None and differs(values, subject)):
                # (stated by the service: it answers a request still open about that event too)
                self._settle(state, Draft(subject.id, values, sender), chat, user, work, service=True)
                return  # a booked event the service moves ("now runs 12-3pm instead")
            if state.open is None and state.failed is not None and sender == user and (
                    values.day is None or values.clock is None):
                values = state.failed.values.merged(values)  # "how about 19:00 then?" after "unsuccessful"
            state.failed = None
            if state.open is not None:
                state.open.values = state.open.values.merged(values)
            elif values.any() or isinstance(move, Request):
                key = subject.id if subject is not None and (move.about or state.cancel_asked) else None
                state.open = Draft(key, values, sender, [], getattr(move, "activity", None))
            state.cancel_asked = None
            return
        if service and isinstance(move, Cancellation) and sender != user:
            target = work.slots.get(state.cancel_asked or "")
            if target is not None:
                target.deleted = True
            state.open, state.cancel_asked = None, None
            return
        if isinstance(move, Booked):
            draft = state.open or Draft(None, Values(), sender)
            draft.values = draft.values.merged(move.values)
            if service or draft.key is None and subject is None:
                self._settle(state, draft, chat, user, work, service=True)
            elif subject is not None:
                self._settle(state, Draft(subject.id, move.values, sender), chat, user, work, service=False)
            return
        if isinstance(move, BookingFailed):
            if service and state.open is not None:
                state.failed, state.open = state.open, None  # the booking failed: the request it answered drops
            return
        if isinstance(move, Proposal):
            self._proposal(state, move, chat, user, work, subject)
            return
        if isinstance(move, CancelAsked):
            if subject is not None and not service:
                state.cancel_offer = (subject.id, sender, state.seen)
            return
        if isinstance(move, Acceptance):
            draft = state.open
            if service:
                return
            offer = state.cancel_offer
            if draft is None and offer is not None and sender != offer[1] and user in (sender, offer[1]) and (
                    state.seen - offer[2] <= recent_window(chat)) and offer[0] in work.slots:
                work.slots[offer[0]].deleted = True  # "can we cancel today's lesson?" - "of course"
                state.cancel_offer = None
                return
            if draft is not None and move.about is not None and draft.key is not None and move.about != draft.key:
                draft = None  # a yes about another event of the chat
            if draft is not None and (state.seen - draft.at > recent_window(chat) or (
                    state.last_at is not None and draft.when is not None and state.last_at - draft.when > _STALE)):
                draft = None  # a yes long after the proposal (or a day after it) answers something else
            if draft is not None:
                if self._other_side(draft, sender, user):
                    draft.values = draft.values.merged(move.values) if move.values.any() else draft.values
                    if sender not in draft.backers:
                        draft.backers.append(sender)
                    self._settle(state, draft, chat, user, work, service=False)
                elif sender not in draft.backers:
                    draft.backers.append(sender)
            elif state.join_asked and subject is not None and sender != state.join_asked:
                if state.join_asked not in subject.participants:
                    subject.participants.append(state.join_asked)
                state.join_asked = None
            return
        if isinstance(move, Rejection):
            state.cancel_offer = None
            draft = state.open
            if draft is not None:
                if sender in draft.backers:
                    draft.backers.remove(sender)
                state.declined.add(sender)
                if self._other_side(draft, sender, user) and (chat.type == "direct" or sender == user):
                    state.open = None
                    state.fell = state.seen if draft.key is None else None
            return
        if isinstance(move, Hedge):
            return
        if isinstance(move, Cancellation):
            fell = state.fell is not None and state.seen - state.fell <= recent_window(chat)
            if state.open is not None and (state.open.key is None or subject is None) and not (
                    state.open.key is None and move.about is not None and subject is not None):
                state.open = None
            elif fell and move.about is None:
                pass  # "ugh, we'll drop it" after a new plan fell through: that plan, not the chat's event
            elif subject is not None and (sender == user or chat.type == "direct" or service or
                                          sender in subject.participants):
                subject.deleted = True
                state.open, state.cancelled = None, (subject.id, sender, state.seen)
            return
        if isinstance(move, Dropout):
            person = move.person or sender
            if state.open is not None and state.open.key is None and not (
                    move.about is not None and subject is not None and move.day == day_of(subject.start)):
                # (not "won't make thursday" for thursday's event while a new plan is open: out of that event)
                if person in state.open.backers:
                    state.open.backers.remove(person)
                state.declined.add(person)
                if person == user:
                    state.open = None
                return
            if subject is None:
                return
            if person == user:
                subject.deleted = True
            elif person in subject.participants:
                subject.participants.remove(person)
                if subject.participants == [user] and chat.type == "direct":
                    subject.deleted = True  # a two-person plan is off without the other one ...
                    state.alone = (subject.id, state.seen)
            return
        if isinstance(move, Join):
            if state.open is not None and state.open.key is None:
                if move.person not in state.open.backers:
                    state.open.backers.append(move.person)
                if not move.asks and self._other_side(state.open, sender, user) and (
                        state.seen - state.open.at <= recent_window(chat)):
                    self._settle(state, state.open, chat, user, work, service=False)  # "I'm in"
                return
            if subject is None or move.person in subject.participants or move.person == user:
                return
            if move.asks:
                state.join_asked = move.person
            elif move.person in chat.members:
                subject.participants.append(move.person)

    def _proposal(self, state: ChatState, move: Proposal, chat: Chat, user: str, work: Work,
                  subject: Slot | None) -> None:
        sender, values = move.sender, move.values
        if state.join_asked and move.agrees and subject is not None:
            if state.join_asked not in subject.participants:
                subject.participants.append(state.join_asked)  # "of course, come at 12!"
            state.join_asked = None
            return
        draft = state.open
        if draft is not None and (state.quiet_before or state.seen - draft.at > recent_window(chat)) and (
                values.day is not None and values.day != draft.values.day and not _RE_MOVED.search(fold(move.text))):
            state.open = draft = None  # an old open plan, and another day proposed long after: a new plan
        if draft is not None and values.day is not None and values.clock is None and values.place is None and not (
                move.asks or move.agrees or move.change or move.activity) and RE_THIRD_LEAD.match(fold(move.text)):
            return  # "she's posting it in the group tmrw": someone's errand's day, not the plan's
        if draft is not None and (move.about is None or move.about == draft.key):
            if move.agrees and values.clock is not None and draft.values.clock is not None and (
                    values.clock < draft.values.clock and _RE_FROM.search(fold(move.text))):
                values = values.copy()
                values.clock = None  # "👍 I'm home from 5" for a 6 o'clock plan: free from then, the plan stands
            repeats = not move.asks and draft.values.merged(values) == draft.values
            draft.values = draft.values.merged(values)
            if repeats and self._other_side(draft, sender, user) and state.seen - draft.at <= recent_window(chat):
                if sender not in draft.backers:
                    draft.backers.append(sender)
                self._settle(state, draft, chat, user, work, service=False)  # "7:30 grand": the time said back
                return
            if move.agrees and self._other_side(draft, sender, user):
                if sender not in draft.backers:
                    draft.backers.append(sender)
                self._settle(state, draft, chat, user, work, service=False)
                return
            if sender != draft.by and (sender == user or draft.by == user):
                draft.by = sender  # a counter-proposal: now the other side must agree
            if sender not in draft.backers:
                draft.backers.append(sender)
            return
        moving = state.moving is not None and subject is not None and state.moving[0] == subject.id and (
            state.seen - state.moving[2] <= recent_window(chat))
        new_activity = move.activity is not None and subject is not None and move.activity[:4] not in fold(
            subject.description) and not move.named and not ((move.change or moving) and move.about == subject.id)
        # ("tomorrow's 1:1, could we do it over lunch instead?": the event it names moves, no new plan)
        # the event's words with another day, not worded as a change, are another such event ("this
        # friday we have a guest lecture" beside the weekly lecture)
        named = move.named and subject is not None and same_kind(values, subject)
        fits = subject is not None and (move.change or named or moving or (
            (values.day is None or move.about == subject.id) and same_kind(values, subject)))
        if subject is not None and not new_activity and fits:
            changed = differs(values, subject)
            if not changed:
                move.repeats = True
                if chat.type == "group" and (move.asks or _RE_INVITE.search(fold(move.text))):
                    state.call = (subject.id, state.seen)  # "parkrun sat?": a roll-call on the event
                return  # "yep 8:30": what the timetable holds already
            draft = Draft(subject.id, values, sender, [sender])
            asker = state.moving[1] if moving and state.moving else None
            if move.fact and (move.named or _RE_IT.search(fold(move.text))) or (
                    move.agrees and asker is not None and asker != sender and user in (asker, sender)):
                # stated as done, or the yes to a change the other side asked for, with its values
                # ("could we make wednesday a full hour?" - "sure, 2-3")
                self._settle(state, draft, chat, user, work, service=False)
                return
            state.open = draft
            return
        if values.day is None and values.clock is None:
            return  # a place alone, with nothing to attach it to
        if values.clock is None and move.activity is None and values.place is None and not move.asks and (
                values.end_day is None):  # (a stay, "22nd to 24th", is a plan)
            return  # "rain on saturday, bring a coat": a day alone, said in passing, plans nothing
        state.open = Draft(None, values, sender, [sender], move.activity, move.favour)

    def _settle(self, state: ChatState, draft: Draft, chat: Chat, user: str, work: Work, *, service: bool) -> None:
        v = draft.values
        state.open = None
        if draft.key is not None and draft.key in work.slots:
            slot = work.slots[draft.key]
            apply_values(slot, v)
            slot.participants = [p for p in slot.participants if p not in draft.out]
            state.focus, state.moved = slot.id, (slot.id, state.seen)
            return
        if service:
            focus = work.slots.get(state.focus or "")
            on_day = [s for s in work.live() if v.day is not None and day_of(s.start) == v.day and (
                user in s.participants)]
            held_there = [s for s in on_day if at_service(s, chat)]
            fresh = draft.key is None and draft.by == user and (
                draft.values.clock is not None or draft.values.day is not None) and (
                focus is not None and focus.new)  # a second booking asked after one made this step ("also a taxi")
            same_day = [s for s in on_day if clock_of(s.start) == v.clock] or ([] if fresh else (
                held_there if len(held_there) == 1 else [s for s in on_day if clock_of(s.start) is None or s is focus]))
            # (the chat's own event on that day at another time: the service moved it, "table for 4 at 11:45")
            if same_day:
                apply_values(same_day[0], v)
                state.focus = same_day[0].id
                if same_day[0].new and chat.type == "direct":  # settled in this step before the contact
                    # read as a business ("grand, wednesday so" before "that's you booked in"): no attendee
                    same_day[0].participants = [p for p in same_day[0].participants if p not in (state.others or ())]
                return
        if v.day is None:
            return
        start = v.day.isoformat() if v.clock is None else at_time(v.day, v.clock)
        if service:
            people = [user]
        elif chat.type == "direct":
            people = list(chat.members)
        else:
            backers = set(draft.backers) - state.declined
            people = [m for m in chat.members if m == user or m in backers]
        if draft.favour:
            if draft.by == user:
                return  # a task the user asked someone else to do: not in the user's timetable
            people = [m for m in people if m != draft.by]
        again = [s for s in work.live() if s.start == start and set(people) <= set(s.participants)]
        if again:  # "2 it is" after the move was settled: the event is already there
            state.focus = again[0].id
            return
        place = None if v.place in (None, CLEARED) else v.place
        if place is None and service and v.place is None:
            place = self._venue(state, chat, work)  # a new appointment at the clinic the check-up was at
        slot = Slot("", start, None, place, people,
                    (draft.activity or chat.name).capitalize() if draft.activity else chat.name)
        if v.clock is None and v.end_day is not None:
            slot.end = v.end_day.isoformat()
        if v.clock is not None and v.end is not None:
            slot.end = at_time(v.day, v.end)
        elif v.clock is not None and v.minutes:
            slot.end = plus_minutes(start, v.minutes)
        work.insert(slot)
        state.focus, state.focus_start = slot.id, slot.start
        if chat.type == "group" and not service:
            state.call = (slot.id, state.seen)  # the members who say yes after it is settled join it

    def _link(self, f: Features, chat: Chat, user: str, work: Work, state: ChatState) -> tuple[str | None, bool]:
        """The event of the working timetable the message names: by the words of its description or
        place, its day, its time; the chat's people and the chat's own focus break ties."""
        others = state.others
        if others is None:
            others = state.others = frozenset(chat.members) - {user}
        words, days, times, parts, today, owned = link_keys(f)
        timed = bool(days or times or parts)
        there = [s.id for s in work.live() if at_service(s, chat)] if chat.type == "direct" and timed else []
        held = there[0] if len(there) == 1 else None
        if len(there) > 1 and days:
            on_day = [k for k in there if day_of(work.slots[k].start) in days]
            if len(on_day) == 1:  # "your Wednesday appointment": of the events held where the chat is, that day's
                return on_day[0], False
        best: tuple[float, str, bool] | None = None
        for s in work.slots.values() if words or timed else ():  # no key: no event is named
            if s.deleted:
                continue
            d, clock, slot_words = slot_reading(s.start, s.description, s.location)
            if d is not None and d < today:
                continue
            hit = 3 * min(2, len(words & slot_words)) if words and not words.isdisjoint(slot_words) else 0
            when = 2 * (d in days) + 2 * (d in owned) + (clock in times) + (1 if parts and clock and any(
                a <= clock[0] < b for a, b in parts) else 0) if timed else 0
            if not hit and not when or not hit and d not in days and clock not in times and state.focus not in (
                    None, s.id) and state.focus in work.slots and not work.slots[state.focus].deleted:
                continue  # (a part of the day alone, "10h in the morning", does not pull the chat off its event)
            overlap = not others.isdisjoint(s.participants) or s.id == held
            # (the one event held at the place the chat is with: "Osteria Fantasma" for a dinner there)
            if not (hit or overlap or (d in days and clock in times)):
                continue  # (its own day and time name an event the chat's people are not in: "the vet today, 10:15?")
            score = hit + when + overlap + (s.id == state.focus)
            if best is None or score > best[0]:
                best = (score, s.id, bool(hit) or d in owned)  # "thursday's session" names it too
        if best is not None:
            return best[1], best[2]
        if state.focus in work.slots and not work.slots[state.focus].deleted:
            return None, False
        shared = [s for s in work.live() if not others.isdisjoint(s.participants) and (
            day_of(s.start) is None or day_of(s.start) >= today)]
        if len(shared) > 1 and chat.type == "direct":
            shared = [s for s in shared if set(s.participants) == set(chat.members)]  # the two of them: "our 1:1"
        if len(shared) == 1:
            state.focus = shared[0].id
        return None, False


__all__ = ["ChatState", "Draft", "Played", "RulesAgent", "Work", "activity_of"]
