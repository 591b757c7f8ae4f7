"""The generator's one configuration model: defaults < ``--config`` file < command-line flags.

Every knob of the pipeline is here, so the manifest's ``generator.config`` records exactly how a
dataset was built and the same config and seed rebuild it byte for byte.
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_STRICT = ConfigDict(extra="forbid")
PAPER_CASES = 1279
DEFAULT_NAME = "proevent-synth"

NOISE_CONTENT: tuple[str, ...] = ("off_topic", "unrelated_event", "failed_planning")
ATOMIC_OPS: tuple[str, ...] = ("simple_modification", "timetable_linking", "detail_removal")
TARGET_ATTRIBUTES: tuple[str, ...] = ("time", "location", "participants")
ENDINGS: tuple[str, ...] = ("keep", "cancel_explicit", "cancel_implicit", "dropout", "fail")


class TurnsConfig(BaseModel):
    """Negotiation turns after the opening proposal (the opening proposal itself is not counted)."""

    model_config = _STRICT
    min: int = Field(default=1, ge=0, le=12)
    max: int = Field(default=6, ge=0, le=12)
    decay: float = Field(default=0.8, gt=0, le=1.0, description="weight ratio of n+1 turns to n turns")
    success_rate: float = Field(default=0.7, ge=0, le=1)
    new_session_rate: float = Field(default=0.65, ge=0, le=1, description="a turn starts a new session")
    defer_rate: float = Field(default=0.25, ge=0, le=1, description="an answer comes in a later session")

    @model_validator(mode="after")
    def _ordered(self) -> TurnsConfig:
        if self.min > self.max:
            raise ValueError(f"turns min {self.min} > max {self.max}")
        return self


class NoiseConfig(BaseModel):
    """Which noise is injected, how often, and which content types (weights) noise chats carry."""

    model_config = _STRICT
    message: float = Field(default=0.6, ge=0, le=1, description="share of cases with message-level noise")
    message_rate: float = Field(default=0.25, ge=0, le=1, description="off-topic lines per event message")
    chat: float = Field(default=0.8, ge=0, le=1, description="share of cases with concurrent noise chats")
    event: float = Field(default=0.7, ge=0, le=1, description="share of cases with event-level noise")
    events: tuple[int, int] = (1, 4)
    historical_rate: float = Field(default=0.45, ge=0, le=1)
    content: dict[str, float] = Field(
        default_factory=lambda: {"off_topic": 1.0, "unrelated_event": 1.0, "failed_planning": 0.8}
    )

    @field_validator("content")
    @classmethod
    def _known_content(cls, v: dict[str, float]) -> dict[str, float]:
        unknown = sorted(set(v) - set(NOISE_CONTENT))
        if unknown:
            raise ValueError(f"unknown noise content {unknown}; known: {list(NOISE_CONTENT)}")
        if any(w < 0 for w in v.values()):
            raise ValueError("noise content weights must be >= 0")
        return {k: v.get(k, 0.0) for k in NOISE_CONTENT}


class StyleConfig(BaseModel):
    """Rates at which the template realiser injects conversational texture (per message).

    Low on purpose: people who know each other rarely open with a greeting or pad a line with
    "haha"/"honestly"; the templates carry most of the texture (the first defaults, 0.2, 0.2,
    0.3, 0.35 and 0.06, made generated chats easy to tell from real ones).
    """

    model_config = _STRICT
    slang: float = Field(default=0.08, ge=0, le=1, description="word swaps (gonna, pls, thx) and a tag (lol) at half")
    discourse: float = Field(default=0.06, ge=0, le=1, description="a leading marker (so, actually, ok so)")
    emoticon: float = Field(default=0.12, ge=0, le=1, description="casual voices: x0.6, the emoji voice: x2")
    greeting: float = Field(default=0.12, ge=0, le=1, description="a greeting before a session's first line")
    typo: float = Field(default=0.04, ge=0, le=1, description="a typo in a template word (never in a value)")


class ScenarioConfig(BaseModel):
    """How often a case holds each scenario structure of generator v2 (per case)."""

    model_config = _STRICT
    preexisting: float = Field(default=0.55, ge=0, le=1, description="the target event is in the initial timetable")
    second_event: float = Field(default=0.45, ge=0, le=1, description="the chat settles a second event")
    relay: float = Field(default=0.6, ge=0, le=1,
                         description="a contact's change of an initial event arrives through another chat")
    similar: float = Field(default=0.7, ge=0, le=1,
                           description="a similar event (same contact, place) is in the timetable")
    usual_spot: float = Field(default=0.2, ge=0, le=1, description="'the usual spot' from earlier events")
    lateness: float = Field(default=0.25, ge=0, le=1, description="someone runs late for something today")
    reminder: float = Field(default=0.6, ge=0, le=1,
                            description="a chat about an agreed event opens with a reminder or a check")
    shift: float = Field(default=0.5, ge=0, le=1,
                         description="a same-day time change said as a shift ('an hour later') when it is one")
    busy: float = Field(default=0.55, ge=0, le=1,
                        description="a time change comes with the other thing the speaker has then")
    volunteer: float = Field(default=0.06, ge=0, le=1, description="the user takes on a task in a family chat")
    solo: float = Field(default=0.06, ge=0, le=1, description="the user mentions a booking made alone")


class LLMRealizerConfig(BaseModel):
    """The ``llm`` realiser: an OpenAI-compatible chat-completions endpoint (key from the environment)."""

    model_config = _STRICT
    model: str = "gpt-oss-120b"
    base_urls: list[str] | None = Field(
        default=None, description="spelled as in proevent.toml profiles; None: $PROEVENT_BASE_URL, the profile, "
        "else api.openai.com (the client's own resolution, proevent.llm.load_llm_config)")
    api_key_env: str | None = Field(default=None, description="None: PROEVENT_API_KEY, then OPENAI_API_KEY")
    profile: str | None = Field(default=None, description="a [profiles.NAME] of proevent.toml, as `run --profile`")
    temperature: float = 0.8
    max_tokens: int = 1200
    retries: int = Field(default=2, ge=0, le=10, description="new attempts after a reply fails the check")
    request_retries: int = Field(default=6, ge=0, le=20, description="client retries of a failed HTTP request")
    concurrency: int = Field(default=8, ge=1, le=256)
    timeout_s: float = 120.0
    cache: bool = Field(default=True, description="reuse answers from proevent.llm's response cache")

    @model_validator(mode="before")
    @classmethod
    def _base_urls(cls, data: Any) -> Any:
        """``base_url`` (the old spelling) reads as ``base_urls``; one URL may be a string."""
        if isinstance(data, dict):
            data = dict(data)
            old = data.pop("base_url", None)
            if old is not None and data.get("base_urls") is None:
                data["base_urls"] = old
            if isinstance(data.get("base_urls"), str):
                data["base_urls"] = [u.strip() for u in data["base_urls"].split(",") if u.strip()]
        return data


TEMPLATE_ATTEMPTS = 20
LLM_ATTEMPTS = 5


class GeneratorConfig(BaseModel):
    """Everything that determines a generated dataset (with ``seed``)."""

    model_config = _STRICT
    cases: int = Field(default=PAPER_CASES, ge=1)
    seed: int = 0
    name: str | None = Field(
        default=None, description="the manifest's name; None: proevent-synth at the paper's size "
                                  "(1,279 cases), proevent-synth-N for N cases",
    )
    version: str = "2026.11.0"
    created: str = Field(
        default="2026-11-29T00:00",
        description="written as the manifest's `created`; pinned so that output is byte-identical",
    )
    realizer: Literal["template", "llm"] = "template"
    window_minutes: int | None = Field(
        default=None, ge=15, le=24 * 60,
        description="one window length for every case; None: each case takes one of `windows`",
    )
    windows: tuple[int, ...] = Field(
        default=(60, 120, 180, 240, 360, 480, 720, 1440),
        description="window lengths (minutes) a case may take: one that leaves at most `max_quiet` of its "
                    "steps without a message",
    )
    max_quiet: float = Field(default=0.2, ge=0, le=1)
    scenario: ScenarioConfig = Field(default_factory=ScenarioConfig)
    first_day: date = date(2026, 1, 5)
    last_day: date = date(2026, 12, 29)
    max_concurrent: int = Field(default=4, ge=1, le=8)
    concurrent_decay: float = Field(default=0.7, gt=0, le=1.0)
    turns: TurnsConfig = Field(default_factory=TurnsConfig)
    atomic_ops: dict[str, float] = Field(
        default_factory=lambda: {"simple_modification": 0.66, "timetable_linking": 0.2, "detail_removal": 0.14}
    )
    attributes: dict[str, float] = Field(
        default_factory=lambda: {"time": 0.5, "location": 0.2, "participants": 0.3}
    )
    endings: dict[str, float] = Field(
        default_factory=lambda: {
            "keep": 0.72, "cancel_explicit": 0.03, "cancel_implicit": 0.12, "dropout": 0.07, "fail": 0.06,
        }
    )
    noise: NoiseConfig = Field(default_factory=NoiseConfig)
    style: StyleConfig = Field(default_factory=StyleConfig)
    llm: LLMRealizerConfig = Field(default_factory=LLMRealizerConfig)
    max_attempts: int = Field(
        default=None, ge=1,  # type: ignore[assignment]  # None: set by _attempts below
        description="tries per case before it is given up (default 20 with the template realiser, whose "
                    "draws cost nothing; 5 with llm, whose draws cost requests)")
    variants: list[str] = Field(
        default_factory=list,
        description="paired variants written beside the dataset (proevent.generate.variants): direct, "
                    "noise=unrelated_event|failed_planning|none|low|high, noise_position=early|interleaved|late",
    )

    @field_validator("variants")
    @classmethod
    def _known_variants(cls, v: list[str]) -> list[str]:
        from proevent.generate.variants import parse_variant

        names = [parse_variant(x).name for x in v]
        return list(dict.fromkeys(names))

    @field_validator("atomic_ops", "attributes", "endings")
    @classmethod
    def _weights(cls, v: dict[str, float], info: Any) -> dict[str, float]:
        known = {"atomic_ops": ATOMIC_OPS, "attributes": TARGET_ATTRIBUTES, "endings": ENDINGS}[info.field_name]
        unknown = sorted(set(v) - set(known))
        if unknown:
            raise ValueError(f"unknown keys {unknown}; known: {list(known)}")
        if any(w < 0 for w in v.values()) or not any(w > 0 for w in v.values()):
            raise ValueError("weights must be >= 0 with at least one > 0")
        return {k: float(v.get(k, 0.0)) for k in known}

    @model_validator(mode="after")
    def _attempts(self) -> GeneratorConfig:
        # a case whose five draws all fail validation used to be given up, so a large dataset came out
        # short (4,999 of 5,000 at seed 0); draws are numbered, so more of them never change a case
        # that an earlier draw made
        if self.max_attempts is None:
            self.max_attempts = TEMPLATE_ATTEMPTS if self.realizer == "template" else LLM_ATTEMPTS
        return self

    @model_validator(mode="after")
    def _days(self) -> GeneratorConfig:
        if self.first_day > self.last_day:
            raise ValueError("first_day is after last_day")
        return self

    @property
    def dataset_name(self) -> str:
        """``name``, else one that tells sizes apart: datasets of different sizes never share a name."""
        if self.name is not None:
            return self.name
        return DEFAULT_NAME if self.cases == PAPER_CASES else f"{DEFAULT_NAME}-{self.cases}"

    @classmethod
    def from_file(cls, path: str | Path) -> GeneratorConfig:
        return cls.model_validate(read_config_file(path))


def read_config_file(path: str | Path) -> dict[str, Any]:
    """A config file as a dict: JSON, or TOML when the name ends in ``.toml``."""
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    if p.suffix == ".toml":
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        return tomllib.loads(text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{p}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{p}: expected a JSON object")
    return data


def merge_config(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge ``override`` into ``base`` (nested dicts merge, everything else replaces)."""
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge_config(out[key], value)
        else:
            out[key] = value
    return out


_DURATION_RE = re.compile(r"^\s*(\d+)\s*(m|min|h|hours?)?\s*$")


def parse_window(text: str) -> int:
    """``"4h"``, ``"90m"`` or ``"240"`` (minutes) as minutes."""
    m = _DURATION_RE.match(text)
    if not m:
        raise ValueError(f"invalid window {text!r}: use e.g. 4h, 90m or 240")
    n = int(m.group(1))
    return n * 60 if (m.group(2) or "").startswith("h") else n


def parse_turns(text: str) -> dict[str, int]:
    """``"0-5"`` or ``"3"`` as the turns range."""
    m = re.match(r"^\s*(\d+)\s*(?:[-:]\s*(\d+))?\s*$", text)
    if not m:
        raise ValueError(f"invalid turns {text!r}: use MIN-MAX, e.g. 0-5")
    lo = int(m.group(1))
    return {"min": lo, "max": int(m.group(2)) if m.group(2) else lo}


def parse_noise(text: str) -> dict[str, Any]:
    """``"message=0.3,chat=off,event=0.8,off_topic=2"`` or ``"off"`` as a partial noise config.

    ``message``/``chat``/``event`` take a share in [0, 1] or ``on``/``off``; the content types
    (off_topic, unrelated_event, failed_planning) take a weight (``off`` = 0).
    """
    text = text.strip()
    if text in ("off", "none"):
        return {"message": 0.0, "chat": 0.0, "event": 0.0}
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, raw = part.partition("=")
        key = key.strip()
        raw = raw.strip() if sep else "on"
        value = {"on": 1.0, "off": 0.0}.get(raw)
        if value is None:
            try:
                value = float(raw)
            except ValueError:
                raise ValueError(f"invalid noise value {part!r}: expected a number, on or off") from None
        if key in ("message", "chat", "event", "message_rate", "historical_rate"):
            out[key] = value
        elif key in NOISE_CONTENT:
            out.setdefault("content", {})[key] = value
        else:
            raise ValueError(f"unknown noise key {key!r}; known: message, chat, event, {', '.join(NOISE_CONTENT)}")
    return out
