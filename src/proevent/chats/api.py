"""``import_chats``: exports in, one unannotated case (and a dataset folder) out."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from proevent.chats.build import ChatImport, build_case, load_exports
from proevent.chats.pseudonym import pseudonymise_case
from proevent.chats.report import ImportReport
from proevent.chats.whatsapp import DateOrder
from proevent.io import Dataset, load_dataset, write_dataset

REPORT_FILE = "import-report.json"


def import_chats(
    exports: Sequence[str | Path],
    *,
    user: str,
    window_minutes: int = 240,
    aliases: Sequence[str] = (),
    timezone: str | None = None,
    initial_ics: str | Path | None = None,
    case_id: str = "chats-1",
    start: str | None = None,
    until: str | None = None,
    date_order: DateOrder = "auto",
    pseudonymise: bool = False,
    strict: bool = False,
) -> ChatImport:
    """Read the exports and build the case (see :mod:`proevent.chats.build`).

    Args:
        initial_ics: an ``.ics`` file whose events are S_0 (ids ``ics-1`` ...; times in ``timezone``,
            recurring events expanded over the case's steps).
        strict: fail on any unreadable line instead of reporting it.

    Raises:
        ChatImportError: an export cannot be read, the user is not found, or (strict) a line is bad.
        ValueError: the ``.ics`` file cannot be used.
    """
    report = ImportReport()
    chats = load_exports(exports, report, date_order=date_order, timezone=timezone)
    report.raise_if_strict(strict)
    case = build_case(chats, user=user, window_minutes=window_minutes, report=report, aliases=aliases,
                      timezone=timezone, case_id=case_id, start=start, until=until)
    if initial_ics is not None:
        from proevent.integrations.ics_initial import events_for_case, load_initial_ics

        horizon = (case.start, case.steps[-1].end)
        events = events_for_case(case, load_initial_ics(initial_ics, timezone=timezone, horizon=horizon))
        case = case.model_copy(update={"initial_timetable": events, "steps": [
            s.model_copy(update={"gold_timetable": list(events)}) for s in case.steps]})
    meta = {**case.meta, "import": report.counts()}
    if not pseudonymise:
        meta["exports"] = [Path(p).name for p in exports]
    case = case.model_copy(update={"meta": meta})
    if pseudonymise:
        case = pseudonymise_case(case)
    return ChatImport(case=case, report=report, chats=chats)


def write_import(result: ChatImport, out: str | Path, *, name: str = "chats", overwrite: bool = False,
                 pseudonymised: bool = False) -> Dataset:
    """Write the case as a dataset folder, with ``import-report.json`` beside it.

    With ``pseudonymised`` the report keeps file, line, kind and counts but not the lines' text
    (which may hold the real names).

    Raises:
        FileExistsError: ``out`` already holds a dataset and ``overwrite`` is not set.
    """
    folder = Path(out)
    write_dataset(folder, [result.case], name=name, version="1", overwrite=overwrite,
                  generator={"chats": {"window_minutes": result.case.meta.get("window_minutes"),
                                       "pseudonymised": pseudonymised}})
    report = result.report.to_json()
    if pseudonymised:
        report["notices"] = [{**n, "message": "(hidden: pseudonymised import)", "file": Path(n["file"]).suffix}
                             for n in report["notices"]]  # type: ignore[union-attr]
    (folder / REPORT_FILE).write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return load_dataset(folder)


__all__ = ["REPORT_FILE", "import_chats", "write_import"]
