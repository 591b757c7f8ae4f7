"""``proevent import-chats`` and ``proevent watch``: one's own WhatsApp / Telegram exports."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from proevent.cli.common import app, fail, handle_errors, say, warn

_EXPORTS = typer.Argument(help="WhatsApp .txt/.zip exports and Telegram result.json files (or their folders).")
_USER = typer.Option("--user", help="The user: whose timetable it is, as the exports name them.")
_WINDOW = typer.Option(help="Window length of a step: 4h, 90m or 240.")
_ALIAS = typer.Option(help="Another name of the user in some export (repeat).")
_TZ = typer.Option(help="The user's IANA time zone (e.g. Europe/Berlin).")
_ORDER = typer.Option(help="WhatsApp dates: auto, dmy, mdy or ymd.")
_STRICT = typer.Option("--strict", help="Fail on any unreadable line.")
_SHOWN = 10


def _window(text: str) -> int:
    from proevent.generate.config import parse_window

    return parse_window(text)


def _print_report(report: Any, strict: bool) -> None:
    report.raise_if_strict(strict)
    counts = report.counts()
    if counts:
        say("import notes: " + ", ".join(f"{k.split(':', 1)[1]} {v}" for k, v in counts.items()
                                          if k.startswith("note:")))
    for notice in report.problems[:_SHOWN]:
        warn(str(notice))
    if len(report.problems) > _SHOWN:
        warn(f"... and {len(report.problems) - _SHOWN} more unreadable lines (all in import-report.json)")


@app.command("import-chats")
@handle_errors
def import_chats_cmd(
    exports: Annotated[list[Path], _EXPORTS],
    user: Annotated[str, _USER],
    out: Annotated[Path, typer.Option("--out", "-o", help="Dataset folder to write.")],
    window: Annotated[str, _WINDOW] = "4h",
    alias: Annotated[list[str] | None, _ALIAS] = None,
    timezone: Annotated[str | None, _TZ] = None,
    ics: Annotated[Path | None, typer.Option("--ics", help="An .ics calendar: its events are the initial timetable.")
                   ] = None,
    start: Annotated[str | None, typer.Option(help="Leave out messages before this time (2026-03-09T08:00).")] = None,
    until: Annotated[str | None, typer.Option(help="Leave out messages from this time on.")] = None,
    date_order: Annotated[str, _ORDER] = "auto",
    case_id: Annotated[str, typer.Option(help="The case's id.")] = "chats-1",
    name: Annotated[str, typer.Option(help="The dataset's name.")] = "chats",
    pseudonymise: Annotated[bool, typer.Option(
        "--pseudonymise", help="Replace names consistently, mask phone numbers and e-mail addresses.")] = False,
    strict: Annotated[bool, _STRICT] = False,
    force: Annotated[bool, typer.Option(help="Replace an existing dataset at --out.")] = False,
) -> None:
    """Turn chat exports into an unannotated dataset (one case; steps with messages, empty gold).

    Annotate it with `proevent serve DATASET --annotate NAME`. Unreadable lines are listed with
    file and line (all of them in DATASET/import-report.json); --strict refuses them.
    """
    from proevent.chats import import_chats, write_import

    result = import_chats(exports, user=user, window_minutes=_window(window), aliases=alias or [],
                          timezone=timezone, initial_ics=ics, case_id=case_id, start=start, until=until,
                          date_order=date_order, pseudonymise=pseudonymise, strict=strict)  # type: ignore[arg-type]
    _print_report(result.report, strict)
    ds = write_import(result, out, name=name, overwrite=force, pseudonymised=pseudonymise)
    case = ds.cases[0]
    n = sum(len(s.messages) for s in case.steps)
    say(f"wrote {out}: {len(case.chats)} chats, {n} messages in {len(case.steps)} steps of {window}, "
        f"user {case.user}, {len(case.initial_timetable)} initial events")


@app.command("watch")
@handle_errors
def watch_cmd(
    exports: Annotated[list[Path], _EXPORTS],
    user: Annotated[str, _USER],
    agent: Annotated[str, typer.Option("--agent", "-a", help="Agent name (see `proevent agents`).")],
    ics: Annotated[Path, typer.Option("--ics", help="The calendar file to write (subscribe to it).")],
    initial: Annotated[Path | None, typer.Option(
        "--initial", help="An .ics calendar: its events are the timetable before the first message.")] = None,
    since: Annotated[bool, typer.Option(
        "--since", help="Process only the messages after the last one an earlier call processed.")] = False,
    state: Annotated[Path | None, typer.Option(help="State folder (default: the .ics path with .watch).")] = None,
    window: Annotated[str, _WINDOW] = "4h",
    alias: Annotated[list[str] | None, _ALIAS] = None,
    timezone: Annotated[str | None, _TZ] = None,
    date_order: Annotated[str, _ORDER] = "auto",
    model: Annotated[str | None, typer.Option(help="Model name (env PROEVENT_MODEL).")] = None,
    base_url: Annotated[list[str] | None, typer.Option(
        "--base-url", help="OpenAI-compatible base URL (env PROEVENT_BASE_URL).")] = None,
    profile: Annotated[str | None, typer.Option(help="Named profile of proevent.toml.")] = None,
    config: Annotated[Path | None, typer.Option(help="Config file (default ./proevent.toml).")] = None,
    context: Annotated[int, typer.Option(help="Earlier messages of each chat shown as context (K).")] = 20,
    strict: Annotated[bool, _STRICT] = False,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bar.")] = False,
) -> None:
    """Run an agent over the windows of one's chats and write its timetable as an .ics calendar.

    Resumable: an interrupted call goes on when run again. With --since a later call processes
    only the new messages, starting from the agent's own timetable; UIDs stay, SEQUENCE grows.
    """
    import asyncio

    from proevent.agents import get_spec
    from proevent.chats.watch import watch_async
    from proevent.runner.batch import RunStopped

    spec = get_spec(agent)
    llm = None
    if spec.needs_llm or model is not None or profile is not None:
        from proevent.llm import load_llm_config

        urls = [u for b in base_url for u in b.split(",")] if base_url else None
        llm = load_llm_config(profile=profile, config_file=config, overrides={"model": model, "base_urls": urls})
    try:
        result = asyncio.run(watch_async(
            exports, user=user, agent=agent, ics=ics, state_dir=state, window_minutes=_window(window), since=since,
            timezone=timezone, aliases=alias or [], initial_ics=initial, date_order=date_order,  # type: ignore[arg-type]
            llm=llm, context_messages=context, strict=strict, progress=not no_progress))
    except KeyboardInterrupt:
        raise fail("interrupted; run the same command again to resume", code=130) from None
    except RunStopped as exc:
        raise fail(f"{exc}. The answers so far are kept; run the same command again to resume", code=4) from None
    _print_report(result.report, strict)
    if result.messages == 0 and result.run_summary is None:
        say(f"nothing new since the last call; {result.ics} rewritten ({result.events} events)")
        return
    say(f"segment {result.segment}: {result.messages} messages in {result.steps} steps; {result.ics}: "
        f"{result.events} events, {len(result.changed)} new or changed (state in {result.state})")
    if result.run_summary is not None and result.run_summary.errors:
        warn(f"{result.run_summary.errors} steps errored (no operation); run the same command again to retry them")
