"""Bridges to the ecosystem: Hugging Face datasets, inspect_ai, and iCalendar beyond a single export.

Every submodule that needs an optional dependency imports it inside its functions (or is only
imported by commands that need it), so ``import proevent`` never needs ``datasets``, ``pyarrow``
or ``inspect_ai``.
"""
