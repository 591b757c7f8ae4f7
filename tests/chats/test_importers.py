"""The chat importers on hand-made export files (tests/chats/fixtures): locale variants, multi-line
messages, media placeholders, system and service lines, bad lines reported with file and line."""

from __future__ import annotations

import json
import zipfile
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from proevent.chats import ChatImportError, ImportReport, import_chats, mask_contacts, parse_whatsapp
from proevent.chats.build import load_exports
from proevent.cli import app
from proevent.io import load_dataset

F = Path(__file__).parent / "fixtures"
HIKE = F / "WhatsApp Chat with Hike crew.txt"
ANA = F / "WhatsApp Chat with Ana Ruiz.txt"
IOS = F / "_chat_ios.txt"
TG = F / "telegram_chat.json"
TG_FULL = F / "telegram_full.json"
runner = CliRunner()


def _one(path: Path) -> tuple[list, ImportReport]:
    report = ImportReport()
    return load_exports([path], report), report


def test_android_us_month_first_12_hour_multiline_media_and_system_lines() -> None:
    (chat,), report = _one(HIKE)
    assert chat.name == "Hike crew" and chat.kind == "group"  # "created group" says so
    assert chat.members == ["Ana Ruiz", "Tom Baker", "Jerry Chen"]  # from "added Tom Baker and Jerry Chen"
    assert [(m.time, m.sender, m.line) for m in chat.messages] == [
        (datetime(2024, 12, 30, 21, 15), "Ana Ruiz", 4),  # 9:15 PM with a narrow no-break space
        (datetime(2024, 12, 30, 21, 20), "Tom Baker", 8),
        (datetime(2024, 12, 30, 21, 21), "Jerry Chen", 9),
        (datetime(2024, 12, 31, 0, 5), "Tom Baker", 10),  # 12:05 AM is just after midnight
    ]
    assert chat.messages[0].text == "hike on saturday?\nstart 9am at the trailhead\n\nbring water"
    assert chat.messages[1].text == "<Media omitted>"
    assert chat.messages[3].text == "count me in"  # "<This message was edited>" dropped
    assert [(n.line, n.kind) for n in report.notices] == [
        (1, "system"), (2, "system"), (3, "system"), (8, "media"), (11, "system")]
    assert report.problems == []


def test_android_day_first_24_hour_with_bom_and_crlf() -> None:
    (chat,), report = _one(ANA)
    assert chat.name == "Ana Ruiz" and chat.kind is None  # a direct chat: decided from the members
    assert [m.time for m in chat.messages] == [datetime(2024, 12, 31, 21, 15), datetime(2024, 12, 31, 21, 16),
                                               datetime(2025, 1, 1, 9, 0)]
    assert chat.messages[2].text == "see you at Luigi's" and report.notices == []


def test_ios_brackets_seconds_and_invisible_marks() -> None:
    (chat,), report = _one(IOS)
    assert [(m.time, m.sender, m.text) for m in chat.messages] == [
        (datetime(2024, 12, 31, 21, 15, 3), "Lena Vogt", "yoga on thursday 6pm?"),
        (datetime(2024, 12, 31, 21, 16, 40), "Lena Vogt", "image omitted"),
        (datetime(2024, 12, 31, 21, 17), "Jerry Chen", "<attached: 00000012-PHOTO-2024-12-31-21-17-00.jpg>"),
        (datetime(2025, 1, 1, 9, 2, 11), "Jerry Chen", "yes!"),
    ]
    assert [(n.line, n.kind) for n in report.notices] == [(1, "system"), (3, "media"), (4, "media")]


@pytest.mark.parametrize(("order", "expected"), [("auto", datetime(2024, 4, 3, 10)), ("mdy", datetime(2024, 3, 4, 10))])
def test_ambiguous_dates_are_reported_and_can_be_chosen(order: str, expected: datetime) -> None:
    report = ImportReport()
    chat = parse_whatsapp((F / "ambiguous.txt").read_text(), name="x", source="a.txt", report=report,
                          date_order=order)  # type: ignore[arg-type]
    assert chat.messages[0].time == expected
    assert [n.kind for n in report.notices] == (["ambiguous_dates"] if order == "auto" else [])


def test_date_order_follows_the_clock_running_forward() -> None:
    """01/02 then 13/02: only day first fits 13; 12/01 then 12/02 only month-first runs forward... and
    both fit 02/01 -> 03/01 (dmy: Jan 2 -> Jan 3; mdy: Feb 1 -> Mar 1): the 24-hour clock picks day first."""
    report = ImportReport()
    text = "12/01/25, 10:00 - A: x\n12/02/25, 10:00 - A: y\n01/03/25, 10:00 - A: z\n"
    chat = parse_whatsapp(text, name="x", source="s", report=report)
    assert [m.time.date().isoformat() for m in chat.messages] == ["2025-01-12", "2025-02-12", "2025-03-01"]


def test_bad_lines_are_reported_with_file_and_line_never_dropped_silently() -> None:
    (chat,), report = _one(F / "bad_lines.txt")
    assert [m.text for m in chat.messages] == ["ok", "fine"]
    assert [str(p) for p in report.problems] == [
        f"{F / 'bad_lines.txt'}:1: not_a_message: no date and time at the start: 'this line comes before any message'",
        f"{F / 'bad_lines.txt'}:3: bad_date: cannot read 13/45/24, 9:16 PM (date order mdy); line left out",
    ]
    with pytest.raises(ChatImportError, match=r"bad_lines.txt:3: bad_date.*\n.*2 unreadable line\(s\); strict"):
        import_chats([F / "bad_lines.txt"], user="Jerry Chen", strict=True)


def test_zip_export_takes_the_chat_name_from_the_archive(tmp_path) -> None:
    archive = tmp_path / "WhatsApp Chat - Yoga.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(IOS, "_chat.txt")
        zf.writestr("IMG-0001.jpg", b"\xff\xd8")
    (chat,), _ = _one(archive)
    assert chat.name == "Yoga" and len(chat.messages) == 4


def test_telegram_single_chat_entities_media_and_service() -> None:
    (chat,), report = _one(TG)
    assert chat.kind == "direct" and chat.members == ["Lena Vogt", "Jerry Chen"]
    assert [m.text for m in chat.messages] == ["climbing at Boulderhalle sat 10am? https://example.com",
                                               "<sticker 👍>", "<photo> the wall"]
    assert chat.messages[0].time == datetime(2024, 12, 31, 20, 1, 10)
    assert [(n.line, n.severity, n.kind) for n in report.notices] == [
        (7, "note", "service"), (39, "note", "media"), (51, "note", "media"),
        (61, "problem", "unknown_message_type"), (66, "problem", "empty_message")]


def test_telegram_full_export_and_exact_times_in_a_zone() -> None:
    report = ImportReport()
    (club,) = load_exports([TG_FULL], report, timezone="America/New_York")
    assert club.name == "Book club" and club.kind == "group"
    assert club.members == ["Maria Santos", "Jerry Chen", "Hugo Laurent", "Deleted Account"]
    assert club.messages[0].time == datetime(2024, 12, 31, 15, 30)  # 20:30Z from date_unixtime, in New York
    assert [n.kind for n in report.notices] == ["skipped_chat", "service", "no_sender", "media"]


def test_not_a_telegram_export_and_unknown_format(tmp_path) -> None:
    (tmp_path / "x.json").write_text('{"a": 1}')
    (tmp_path / "x.csv").write_text("a,b")
    with pytest.raises(ChatImportError) as err:
        load_exports([tmp_path / "x.json", tmp_path / "x.csv", tmp_path / "missing.txt"], ImportReport())
    assert err.value.lines == [
        f"{tmp_path / 'x.json'}: not a Telegram export (expected 'messages' or 'chats.list')",
        f"{tmp_path / 'x.csv'}: unknown export format (expected WhatsApp .txt/.zip or Telegram result.json)",
        f"{tmp_path / 'missing.txt'}: file not found",
    ]


def test_case_from_several_exports_on_one_clock() -> None:
    result = import_chats([HIKE, ANA, IOS, TG, TG_FULL], user="jerry chen", window_minutes=240,
                          timezone="Europe/Berlin")
    case = result.case
    assert case.user == "Jerry Chen" and case.timezone == "Europe/Berlin"
    assert [(c.name, c.type, c.members) for c in case.chats] == [
        ("Hike crew", "group", ["Jerry Chen", "Ana Ruiz", "Tom Baker"]),
        ("Ana Ruiz", "direct", ["Jerry Chen", "Ana Ruiz"]),
        ("_chat_ios", "direct", ["Jerry Chen", "Lena Vogt"]),
        ("Lena Vogt", "direct", ["Jerry Chen", "Lena Vogt"]),
        ("Book club", "group", ["Jerry Chen", "Maria Santos", "Hugo Laurent", "Deleted Account"]),
    ]
    assert case.start == "2024-12-30T21:00"
    times = [m.time for s in case.steps for m in s.messages]
    assert times == sorted(times) and len(times) == 17
    for step in case.steps:
        assert all(step.start <= m.time < step.end for m in step.messages)
        assert step.gold_ops == [] and step.gold_timetable == []
    assert [s.start for s in case.steps[:2]] == ["2024-12-30T21:00", "2024-12-31T01:00"]


def test_the_same_chat_exported_twice_is_merged(tmp_path) -> None:
    later = tmp_path / "WhatsApp Chat with Ana Ruiz.txt"
    later.write_text(ANA.read_text(encoding="utf-8-sig") + "01/01/2025, 09:05 - Jerry Chen: 👍\n", encoding="utf-8")
    case = import_chats([ANA, later], user="Jerry Chen").case
    assert len(case.chats) == 1 and sum(len(s.messages) for s in case.steps) == 4


def test_mask_contacts_leaves_dates_and_times() -> None:
    text = "call +49 151 2345 6789 or (555) 123-4567, mail a.b@example.org, @ana_r; on 2024-12-31 at 21:15, 12/31/24"
    assert mask_contacts(text) == "call <phone> or <phone>, mail <email>, @user; on 2024-12-31 at 21:15, 12/31/24"


def test_cli_import_pseudonymise_then_validate(tmp_path) -> None:
    out = tmp_path / "ds"
    result = runner.invoke(app, ["import-chats", str(HIKE), str(ANA), "--user", "Jerry Chen", "--out", str(out),
                                 "--window", "2h", "--pseudonymise"])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.stdout and "2 chats, 7 messages" in result.stdout
    raw = (out / "cases.jsonl").read_text()
    for real in ("Jerry", "Ana Ruiz", "Tom Baker", "555", "example.com", "Hike crew.txt"):
        assert real not in raw
    case = load_dataset(out).cases[0]
    direct = [c for c in case.chats if c.type == "direct"][0]
    assert direct.name == direct.members[1]  # the contact's stand-in name, the same everywhere
    assert {m.sender for s in case.steps for m in s.messages} <= set(case.people())
    report = json.loads((out / "import-report.json").read_text())
    assert report["counts"]["note:system"] == 4 and "Ana" not in json.dumps(report)
    check = runner.invoke(app, ["validate", str(out)])
    assert check.exit_code == 0, check.output


def test_cli_unknown_user_and_strict(tmp_path) -> None:
    result = runner.invoke(app, ["import-chats", str(TG), "--user", "Nobody", "--out", str(tmp_path / "d")])
    assert result.exit_code == 1
    assert "error: --user 'Nobody' is not a member of any chat in the exports; names found:" in result.stderr
    strict = runner.invoke(app, ["import-chats", str(TG), "--user", "Jerry Chen", "--out", str(tmp_path / "d"),
                                 "--strict"])
    assert strict.exit_code == 1 and "telegram_chat.json:61: unknown_message_type" in strict.stderr
    assert not (tmp_path / "d").exists()
