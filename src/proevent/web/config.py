"""The configuration of one ``proevent serve`` process (built by the CLI, validated here)."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

ServeMode = Literal["viewer", "human", "review", "annotate"]


class ServeConfig(BaseModel):
    """What to serve and how. ``extra="forbid"``: a misspelt option is an error, not ignored."""

    model_config = ConfigDict(extra="forbid")

    dataset: Path
    runs: list[Path] = Field(default_factory=list)
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    human: str | None = None
    """Play the agent under this name (human mode)."""
    review: str | None = None
    """Review the cases under this annotator name (review mode)."""
    annotate: str | None = None
    """Write the gold operations step by step under this annotator name (annotate mode)."""
    sample: int | None = Field(default=None, ge=1)
    """Human mode: how many questions (single) or cases (multi) to sample; all when ``None``."""
    seed: int = 0
    mode: Literal["single", "multi"] = "single"
    context: int = Field(default=20, ge=0)
    """Human mode: earlier messages shown per chat, as an agent's observation holds them."""
    out: Path | None = None
    """Human mode: the run folder; review and annotate modes: the annotations file. A default is derived."""
    flagged_first: bool = True
    """Review mode: the cases the validator flagged come first."""
    judge: str | None = None
    """The location judge the viewer colours runs with; ``None``: the current metrics version's."""

    @model_validator(mode="after")
    def _one_mode(self) -> ServeConfig:
        used = [f"--{k}" for k in ("human", "review", "annotate") if getattr(self, k) is not None]
        if len(used) > 1:
            raise ValueError(f"{' and '.join(used)} cannot be used together")
        for name in (self.human, self.review, self.annotate):
            if name is not None and (not name.strip() or any(c in name for c in "/\\\0")):
                raise ValueError(f"invalid name {name!r}: use letters, digits, spaces, '-' or '_'")
        if self.serve_mode != "viewer" and self.runs:
            raise ValueError("runs are shown only in the viewer; drop them with --human/--review/--annotate")
        return self

    @property
    def serve_mode(self) -> ServeMode:
        if self.human is not None:
            return "human"
        if self.review is not None:
            return "review"
        if self.annotate is not None:
            return "annotate"
        return "viewer"

    @property
    def output_path(self) -> Path | None:
        """Where human answers or review annotations are written."""
        if self.out is not None:
            return self.out
        if self.human is not None:
            return Path(f"human-{_slug(self.human)}")
        if self.review is not None:
            return Path(f"review-{_slug(self.review)}") / "annotations.jsonl"
        if self.annotate is not None:
            return self.dataset / f"gold-{_slug(self.annotate)}.jsonl"
        return None

    @property
    def is_loopback(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name.strip()).strip("-") or "anon"
