"""Every ``proevent.toml`` profile shown in docs/backends.md is one the LLM config accepts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from proevent.llm.config import load_llm_config, read_profiles

DOC = Path(__file__).resolve().parents[2] / "docs" / "backends.md"
_TOML = re.compile(r"```toml\n(.*?)```", re.S)


def _profiles(tmp_path: Path) -> tuple[Path, dict]:
    path = tmp_path / "proevent.toml"
    path.write_text("\n".join(_TOML.findall(DOC.read_text(encoding="utf-8"))), encoding="utf-8")
    return path, read_profiles(path)


def test_the_page_has_a_profile_per_backend(tmp_path: Path) -> None:
    _, profiles = _profiles(tmp_path)
    assert {"gpt-4o-mini", "o4-mini", "deepseek-chat", "deepseek-reasoner", "gpt-oss", "qwen3",
            "qwen3-replicas", "sglang-qwen3", "ollama", "llamacpp"} <= set(profiles)


def test_every_profile_loads(tmp_path: Path) -> None:
    path, profiles = _profiles(tmp_path)
    for name in profiles:
        config = load_llm_config(profile=name, config_file=path, environ={})
        assert config.model == profiles[name]["model"], name
        assert all(u.startswith(("http://", "https://")) and u.endswith("/v1") for u in config.base_urls), name
        assert "api_key" not in profiles[name], name  # keys only ever come from the environment
    replicas = load_llm_config(profile="qwen3-replicas", config_file=path, environ={})
    assert len(replicas.base_urls) == 4 and replicas.concurrency == 512
    assert load_llm_config(profile="qwen3-nothink", config_file=path, environ={}).request_params()[
        "chat_template_kwargs"] == {"enable_thinking": False}


def test_a_typo_in_a_profile_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "proevent.toml"
    path.write_text('[profiles.bad]\nmodel = "m"\nbase_url = "http://x/v1"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="profiles.bad.base_url"):
        load_llm_config(profile="bad", config_file=path, environ={})
