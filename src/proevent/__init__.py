"""proevent: the ProEvent benchmark for proactive agents."""

__version__ = "0.1.0"
