"""The dependency rule, read from the source: every ``import`` of every module (in functions and
``TYPE_CHECKING`` blocks too) by a small AST walk.

- ``proevent.model`` imports nothing of proevent;
- ``proevent.evaluate`` imports only ``proevent.model`` (and itself);
- nothing below the front ends imports ``proevent.cli``, ``proevent.web`` or ``proevent.report``,
  and ``report`` and ``web`` do not import ``cli``;
- ``web`` and ``report`` import no private module or name (``_x``) of each other.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "proevent"
FRONT_ENDS = ("cli", "web", "report")
PUBLIC_ONLY = {"web", "report"}
"""Stages that may read each other's public modules and names only."""


def _stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "proevent" else None


def _module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path) -> list[tuple[int, str]]:
    """(line, imported module) of every import statement of a file under ``root`` (the folder
    holding ``proevent/``), relative ones resolved; a name imported from ``proevent`` or a private
    name (``from m import _x``) is listed as ``m.name`` too."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    name = _module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            out.append((node.lineno, base))
            out += [(node.lineno, f"{base}.{alias.name}") for alias in node.names
                    if base == "proevent" or alias.name.startswith("_")]
    return out


def violations(src: Path = SRC) -> list[str]:
    found = []
    for path in sorted(src.rglob("*.py")):
        me = _stage(_module_name(path, src.parent))
        if me is None:  # proevent/__init__.py: the public API names every stage (lazily)
            continue
        for line, target in imports_of(path, src.parent):
            other = _stage(target)
            if other is None or other == me:
                continue
            where = f"{path.relative_to(src.parent)}:{line}: imports {target}"
            if me == "model":
                found.append(f"{where} (model/ imports nothing of proevent)")
            elif me == "evaluate" and other != "model":
                found.append(f"{where} (evaluate/ imports only model/)")
            elif other in FRONT_ENDS and (me not in FRONT_ENDS or other == "cli"):
                found.append(f"{where} ({me}/ may not import {other}/)")
            elif {me, other} == PUBLIC_ONLY and any(p.startswith("_") for p in target.split(".")[2:]):
                found.append(f"{where} ({me}/ may import only what {other}/ makes public)")
        if me == "cli":  # a command module uses the API and cli's shared helpers, never another command module
            for line, target in imports_of(path, src.parent):
                parts = target.split(".")
                if len(parts) > 2 and parts[:2] == ["proevent", "cli"] and parts[2].endswith("_cmds") \
                        and parts[2] != path.stem:
                    found.append(f"{path.relative_to(src.parent)}:{line}: imports {target} "
                                 "(command modules import the API, not each other)")
    return found


def test_the_dependency_rule_holds() -> None:
    assert violations() == []


def test_the_walk_sees_a_violation(tmp_path: Path) -> None:
    # a tree that breaks each rule once, so the walk is shown to find them (relative imports too)
    for name, text in {
        "cli/__init__.py": "", "cli/a_cmds.py": "from proevent.cli.b_cmds import helper\n",
        "cli/b_cmds.py": "from proevent.cli.common import app\n",
        "model/__init__.py": "", "model/bad.py": "from proevent.io import load_run\n",
        "evaluate/__init__.py": "", "evaluate/bad.py": "def f():\n    from ..llm import judge\n",
        "runner/__init__.py": "", "runner/bad.py": "import proevent.report.table\n",
        "report/__init__.py": "", "report/bad.py": "from proevent import cli\n",
        "report/worse.py": "import proevent.web._state\n",
        "web/__init__.py": "", "web/bad.py": "from ..report.table import _num\n",
        "web/ok.py": "from proevent.report import build_table\nfrom proevent.report.table import to_csv\n",
    }.items():
        (tmp_path / "proevent" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "proevent" / name).write_text(text)
    found = violations(tmp_path / "proevent")
    assert [f.split(": imports ")[1].split(" (")[0] for f in found] == [
        "proevent.cli.b_cmds", "proevent.llm", "proevent.io", "proevent.cli", "proevent.web._state",
        "proevent.report.table", "proevent.report.table._num"]


@pytest.mark.parametrize("heavy", ["numpy", "rapidfuzz", "proevent.io", "proevent.evaluate"])
def test_importing_the_model_loads_the_model_only(heavy: str) -> None:
    code = "import sys, proevent.model; print(' '.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert heavy not in loaded
    assert {m for m in loaded if m.startswith("proevent.")} <= {
        "proevent.model", *(f"proevent.model.{p.stem}" for p in (SRC / "model").glob("*.py"))}
