"""What an importer reads from one export, before the chats become a case."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal


@dataclass
class RawMessage:
    """One message as the export has it: the local wall time (naive), the sender's display name."""

    time: datetime
    sender: str
    text: str
    file: str
    line: int | None


@dataclass
class ParsedChat:
    """One chat of an export. ``kind`` is ``None`` when the export does not say (decided later
    from the members); ``members`` are the people the export names, senders included."""

    name: str
    source: str
    messages: list[RawMessage] = field(default_factory=list)
    members: list[str] = field(default_factory=list)
    kind: Literal["direct", "group"] | None = None

    def add_member(self, name: str) -> None:
        if name and name not in self.members:
            self.members.append(name)


__all__ = ["ParsedChat", "RawMessage"]
