"""The core install stays light: inspect_ai, datasets and pyarrow only come with extras."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HEAVY = ("inspect_ai", "inspect-ai", "datasets", "pyarrow")
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_pyproject_core_dependencies_exclude_the_heavy_extras() -> None:
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    core = {_name(r) for r in project["dependencies"]}
    assert not core & {h.replace("_", "-") for h in HEAVY}
    extras = project["optional-dependencies"]
    assert {"inspect-ai"} <= {_name(r) for r in extras["inspect"]}
    assert {"datasets", "pyarrow"} <= {_name(r) for r in extras["hf"]}


def test_installed_metadata_core_requirements_exclude_them() -> None:
    requires = metadata.requires("proevent") or []
    core = {_name(r) for r in requires if "extra ==" not in r}
    assert core, "the installed proevent declares no core requirement"
    assert not core & {h.replace("_", "-") for h in HEAVY}


def test_import_and_cli_do_not_import_the_extras() -> None:
    code = (
        "import sys, proevent, proevent.cli, proevent.integrations, proevent.cli.ecosystem_cmds\n"
        "print(sorted(m for m in ('inspect_ai', 'datasets', 'pyarrow') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
