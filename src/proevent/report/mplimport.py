"""Importing matplotlib for a command that draws its figures and exits: without the artists' docstrings.

matplotlib gives every ``Artist`` subclass it defines (some hundred, at import) a ``set()`` whose
docstring lists each settable property, made by :func:`matplotlib.artist.kwdoc` (an inspection of
the class's setters), and a few of its modules format such lists into other docstrings. That is
0.1 s of the 0.31-0.34 s CPU that importing its figure and canvases costs on the bench machine
(``bench/bench_report.py``), for text that nothing in ``proevent report`` reads. The commands that
draw therefore import matplotlib through :func:`import_for_drawing`, with ``kwdoc`` answering an
empty list meanwhile: the classes, their properties, ``set()`` and its signature are as usual, only
those docstrings lack the property list. The drawing and the files are the same (the figures hold
no docstring). Library callers of :func:`proevent.report.write_report` keep matplotlib's own
import, docstrings and all: only the command line, whose process ends with the report, calls this.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

DRAWN_WITH = ("matplotlib.figure", "matplotlib.backends.backend_agg", "matplotlib.backends.backend_svg")
"""What the report's plots import (:mod:`proevent.report.plots`: the figure, the png and svg canvases)."""


def _no_property_list(artist: Any) -> str:
    return ""


def import_for_drawing() -> bool:
    """Import :data:`DRAWN_WITH` with matplotlib's property lists of artists' docstrings left out
    (``matplotlib.artist.kwdoc`` restored after). Nothing is done where matplotlib's figure is
    already imported. ``False`` when matplotlib (or a part of it) cannot be imported: the report
    then says so as before."""
    if DRAWN_WITH[0] in sys.modules:
        return True
    try:
        from matplotlib import artist
    except ImportError:
        return False
    kwdoc = getattr(artist, "kwdoc", None)  # a matplotlib without it imports as it would
    if kwdoc is not None:
        artist.kwdoc = _no_property_list
    try:
        for name in DRAWN_WITH:
            importlib.import_module(name)
    except ImportError:
        return False
    finally:
        if kwdoc is not None:
            artist.kwdoc = kwdoc
    return True
