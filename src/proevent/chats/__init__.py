"""Real chat exports in: WhatsApp's text export and Telegram Desktop's ``result.json``.

:func:`import_chats` turns several exports of one person into one unannotated case (chats,
members, the user, messages on one clock cut into windows); every line it could not read or left
out is in its :class:`ImportReport`. :mod:`proevent.chats.watch` runs an agent over such a case and
keeps an iCalendar file of its timetable.
"""

from proevent.chats.api import REPORT_FILE, import_chats, write_import
from proevent.chats.build import ChatImport, build_case, load_exports
from proevent.chats.parsed import ParsedChat, RawMessage
from proevent.chats.pseudonym import mask_contacts, pseudonymise_case
from proevent.chats.report import ChatImportError, ImportReport, Notice
from proevent.chats.telegram import read_telegram
from proevent.chats.whatsapp import parse_whatsapp, read_whatsapp

__all__ = [
    "REPORT_FILE", "ChatImport", "ChatImportError", "ImportReport", "Notice", "ParsedChat", "RawMessage",
    "build_case", "import_chats", "load_exports", "mask_contacts", "parse_whatsapp", "pseudonymise_case",
    "read_telegram", "read_whatsapp", "write_import",
]
