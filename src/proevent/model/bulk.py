"""Bulk work on many live objects: the cyclic garbage collector paused for a block.

Loading a dataset or scoring a run makes hundreds of thousands of objects that all stay alive;
with the collector on, every few hundred allocations trigger a collection that walks the growing
heap again, so the work grows faster than the data (about half of ``evaluate`` at 10,000 cases).
None of these objects form garbage cycles, so pausing the collector loses nothing.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block, then as it was (never a process-wide switch:
    a caller that had it off keeps it off; nested blocks leave it off until the outer one ends)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def gc_frozen() -> Iterator[None]:
    """The objects alive now left out of every collection during the block (``gc.freeze``), then
    given back to the collector (``gc.unfreeze``): for a long block that keeps a loaded dataset
    alive while making objects of its own, which the collector should still see. Collections
    during the block walk the new objects only, not the million a dataset holds. Where objects
    are frozen already (a pre-forking server, an outer block) it does nothing: only the one who
    froze them unfreezes them."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


__all__ = ["gc_frozen", "gc_paused"]
