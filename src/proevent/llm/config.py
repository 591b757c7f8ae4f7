"""LLM configuration: one pydantic model built from flags > environment > ``proevent.toml`` > defaults.

The API key is never part of the configuration: the config names the environment variable that
holds it (``api_key_env``) and :meth:`LLMConfig.api_key` reads it at request time, so a key can
never be written to ``run.json`` or a cache.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from proevent.io.errors import describe_config_error

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

DEFAULT_BASE_URL = "https://api.openai.com/v1"
CONFIG_FILE = "proevent.toml"

ENV_VARS: dict[str, str] = {
    "model": "PROEVENT_MODEL",
    "base_urls": "PROEVENT_BASE_URL",
    "api_key_env": "PROEVENT_API_KEY_ENV",
    "concurrency": "PROEVENT_CONCURRENCY",
    "cache_path": "PROEVENT_CACHE",
}
"""Environment variables read by :func:`load_llm_config` (``PROEVENT_BASE_URL`` may hold several
comma-separated URLs). The key itself is read from ``api_key_env`` (default ``PROEVENT_API_KEY``,
then ``OPENAI_API_KEY``)."""

Role = Literal["run", "judge"]
"""Who the config is for: an agent's run (and the realiser, the quickstart), or the ``llm`` location judge."""

JUDGE_ENV_VARS: dict[str, str] = {
    "model": "PROEVENT_JUDGE_MODEL",
    "base_urls": "PROEVENT_JUDGE_BASE_URL",
}
"""The judge's own choices, read for ``role="judge"`` above :data:`ENV_VARS` (a judge may use
another model than the run it scores); unset, the judge is configured as runs are."""
JUDGE_PROFILE_ENV = "PROEVENT_JUDGE_PROFILE"
"""For ``role="judge"`` without a ``profile``: the ``proevent.toml`` profile of the judge."""


CACHE_DIR = ".proevent-cache"


def default_cache_path() -> Path:
    """The project's response cache: ``.proevent-cache/llm-cache.sqlite`` in the working directory
    (``$PROEVENT_CACHE`` or ``cache_path`` name another file), so that a second identical run in
    the same project sends nothing, and runs of different projects never share answers."""
    return Path.cwd() / CACHE_DIR / "llm-cache.sqlite"


class Price(BaseModel):
    """US dollars per million tokens. ``cached_input`` is the price of prompt tokens the server read
    from its prompt cache (OpenAI, DeepSeek); unset, they are charged as ``input``."""

    model_config = ConfigDict(extra="forbid")
    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached_input: float | None = Field(default=None, ge=0)


class LLMConfig(BaseModel):
    """Everything the client needs, except the key. A typo in a field is an error (``extra="forbid"``)."""

    model_config = ConfigDict(extra="forbid")

    model: str
    base_urls: list[str] = Field(default_factory=lambda: [DEFAULT_BASE_URL], min_length=1)
    api_key_env: str | None = None
    """Name of the environment variable holding the key; ``None`` tries PROEVENT_API_KEY, OPENAI_API_KEY."""
    temperature: float | None = 0.0
    seed: int | None = 0
    max_tokens: int | None = None
    extra_body: dict[str, Any] = Field(default_factory=dict)
    """Extra request fields passed through (e.g. ``{"top_p": 0.9}`` or vLLM's ``chat_template_kwargs``)."""
    json_mode: bool = True
    """Ask for ``response_format: json_object``; dropped automatically when the server refuses it."""
    timeout_s: float = Field(default=120.0, gt=0)
    concurrency: int = Field(default=16, ge=1)
    max_retries: int = Field(default=6, ge=0)
    backoff_s: float = Field(default=1.0, ge=0)
    backoff_max_s: float = Field(default=60.0, ge=0)
    rpm: float | None = Field(default=None, gt=0)
    tpm: float | None = Field(default=None, gt=0)
    max_response_mb: float = Field(default=8.0, gt=0)
    """A response body longer than this is cut off with an error (a body that never ends must not
    fill the memory). Bodies are read in chunks: measured, a body cut off holds about twice this
    much at its peak, per request in flight."""
    cache: bool = True
    cache_path: Path | None = None
    price: Price | None = None
    """Overrides the packaged price table for this model."""

    @field_validator("base_urls", mode="before")
    @classmethod
    def _split_urls(cls, v: Any) -> Any:
        if isinstance(v, str):
            v = [u for u in (p.strip() for p in v.split(",")) if u]
        if isinstance(v, list):
            v = [str(u).rstrip("/") for u in v]
        return v

    def api_key(self) -> str | None:
        """The key from the environment, never stored. ``None`` when unset (local servers need none)."""
        names = [self.api_key_env] if self.api_key_env else ["PROEVENT_API_KEY", "OPENAI_API_KEY"]
        for name in names:
            value = os.environ.get(name)
            if value:
                return value
        return None

    def request_params(self) -> dict[str, Any]:
        """Sampling parameters as sent to the server (and recorded in ``run.json``)."""
        out: dict[str, Any] = {}
        if self.temperature is not None:
            out["temperature"] = self.temperature
        if self.seed is not None:
            out["seed"] = self.seed
        if self.max_tokens is not None:
            out["max_tokens"] = self.max_tokens
        out.update(self.extra_body)
        return out

    def resolved_cache_path(self) -> Path:
        return self.cache_path or default_cache_path()


def read_profiles(path: Path) -> dict[str, dict[str, Any]]:
    """The ``[profiles.NAME]`` tables of a ``proevent.toml``."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    profiles = data.get("profiles", {})
    if not isinstance(profiles, dict):
        raise ValueError(f"{path}: profiles: expected tables [profiles.NAME]")
    return profiles


def find_config_file(explicit: Path | None = None) -> Path | None:
    if explicit is not None:
        if not explicit.exists():
            raise FileNotFoundError(f"{explicit}: config file not found")
        return explicit
    env = os.environ.get("PROEVENT_CONFIG")
    if env:
        return Path(env)
    here = Path.cwd() / CONFIG_FILE
    return here if here.exists() else None


def load_llm_config(
    *,
    role: Role = "run",
    profile: str | None = None,
    config_file: Path | None = None,
    overrides: dict[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    defaults: dict[str, Any] | None = None,
) -> LLMConfig:
    """Build the config: flags (``overrides``, ``None`` values ignored) > environment > profile > defaults.

    The only place that reads the ``PROEVENT_*`` variables (:data:`ENV_VARS`) and the profiles of
    ``proevent.toml``: runs, the judge, the ``llm`` realiser and the quickstart all come here.
    ``defaults`` are a caller's own defaults (the realiser's temperature), below everything else.
    ``role="judge"`` also reads :data:`JUDGE_ENV_VARS` (above the run's variables) and, without a
    ``profile``, :data:`JUDGE_PROFILE_ENV`.

    Raises:
        ValueError: unknown profile, a bad field in the file (named with its path and line), or no model.
    """
    env = os.environ if environ is None else environ
    if role == "judge" and profile is None:
        profile = env.get(JUDGE_PROFILE_ENV) or None
    merged: dict[str, Any] = {k: v for k, v in (defaults or {}).items() if v is not None}
    path = find_config_file(config_file)
    if profile is not None:
        if path is None:
            raise ValueError(f"profile {profile!r} given but no {CONFIG_FILE} found (use --config)")
        profiles = read_profiles(path)
        if profile not in profiles:
            known = ", ".join(sorted(profiles)) or "none"
            raise ValueError(f"{path}: no profile {profile!r} (known: {known})")
        merged.update(profiles[profile])
    variables = [*ENV_VARS.items(), *(JUDGE_ENV_VARS.items() if role == "judge" else ())]
    for field, var in variables:
        if env.get(var):
            merged[field] = env[var]
    merged.update({k: v for k, v in (overrides or {}).items() if v is not None})
    if "model" not in merged:
        if role == "judge":
            raise ValueError(f"no model for the llm judge: set {JUDGE_ENV_VARS['model']} or {ENV_VARS['model']}, "
                             f"or name a profile in {JUDGE_PROFILE_ENV}")
        raise ValueError("no model: pass --model, set PROEVENT_MODEL, or choose a --profile")
    try:
        return LLMConfig.model_validate(merged)
    except ValidationError as exc:
        if profile is not None and path is not None:
            problems = describe_config_error(exc, path, prefix=("profiles", profile),
                                             text=path.read_text(encoding="utf-8"))
        else:
            problems = describe_config_error(exc, "llm config")
        raise ValueError("\n".join(problems)) from None


def environment_llm_config(
    environ: Mapping[str, str] | None = None, *, overrides: dict[str, Any] | None = None
) -> LLMConfig | None:
    """The config the ``PROEVENT_*`` variables describe, or ``None`` unless they name both a model
    and a base URL (``PROEVENT_MODEL``, ``PROEVENT_BASE_URL``): the quickstart adds a model's run
    only then, never on the default OpenAI URL by accident."""
    env = os.environ if environ is None else environ
    if not env.get(ENV_VARS["model"]) or not env.get(ENV_VARS["base_urls"]):
        return None
    return load_llm_config(overrides=overrides, environ=env)
