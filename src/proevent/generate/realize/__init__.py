"""Realisers turn chat skeleton lines into message text: ``template`` (offline) and ``llm``."""

from proevent.generate.realize.template import ChatContext, render_line

__all__ = ["ChatContext", "render_line"]
