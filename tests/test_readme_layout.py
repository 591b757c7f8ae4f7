"""The README's layout section names every folder of the package, and only those."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_layout_section_matches_the_tree() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^  (\w+)/ ", section, flags=re.M))
    folders = {p.name for p in (ROOT / "src" / "proevent").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert named == folders
    top = set(re.findall(r"^(\w+)/ ", section, flags=re.M))
    assert top <= {p.name for p in ROOT.iterdir() if p.is_dir()}
