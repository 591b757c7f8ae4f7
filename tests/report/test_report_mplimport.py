"""matplotlib imported for drawing without its artists' property lists: the classes, ``set()`` and
matplotlib's own ``kwdoc`` stay as they are, and the figures are those of the plain import."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("matplotlib")

_CHECK = """
import sys
from matplotlib import artist
kwdoc = artist.kwdoc
from proevent.report.mplimport import DRAWN_WITH, import_for_drawing
assert import_for_drawing() and import_for_drawing()
assert artist.kwdoc is kwdoc and all(m in sys.modules for m in DRAWN_WITH)
from matplotlib.lines import Line2D
line = Line2D([0, 1], [0, 1])
line.set(linewidth=3, color="red")
assert line.get_linewidth() == 3 and "linewidth" in str(__import__("inspect").signature(Line2D.set))
print("Properties" in (Line2D.set.__doc__ or ""))
"""


def test_import_for_drawing_leaves_matplotlib_working():
    out = subprocess.run([sys.executable, "-c", _CHECK], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False"]  # the property list was left out, nothing else


def test_import_for_drawing_draws_the_same_figures(tmp_path):
    """The two plots' files of one report, drawn after the plain import and after this one: equal bytes."""
    code = """
import sys
from pathlib import Path
if sys.argv[2] == "lean":
    from proevent.report.mplimport import import_for_drawing
    assert import_for_drawing()
from proevent.report.plots import error_plot
from proevent.report.error_summary import ErrorSummary
from proevent.evaluate import categories
keys = [c.key for c in categories()]
runs = [ErrorSummary(counts={k: (i * 7 + 3) % 11 for i, k in enumerate(keys)}),
        ErrorSummary(counts={k: 0 for k in keys})]
error_plot(["rules", "oracle"], runs, Path(sys.argv[1]) / "errors")
"""
    for kind in ("plain", "lean"):
        subprocess.run([sys.executable, "-c", code, str(tmp_path / kind), kind], check=True)
    for name in ("errors.png", "errors.svg"):
        assert (tmp_path / "plain" / name).read_bytes() == (tmp_path / "lean" / name).read_bytes()
