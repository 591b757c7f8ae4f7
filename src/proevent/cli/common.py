"""What every command shares: the Typer app, the consoles, and turning errors into exit codes."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import typer
from rich.console import Console

from proevent.io.errors import FormatError

app = typer.Typer(
    name="proevent",
    help="ProEvent: generate benchmark data, run proactive agents, evaluate and report.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int = 1) -> typer.Exit:
    err_console.print(f"[red]error:[/red] {message}", markup=True, highlight=False, soft_wrap=True)
    return typer.Exit(code)


def handle_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Print a :class:`FormatError`'s messages (one per line) and exit 1 instead of a traceback."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except FormatError as exc:
            for problem in exc.problems:
                err_console.print(problem, markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(1) from None
        except (FileExistsError, FileNotFoundError, KeyError, ValueError) as exc:
            msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
            raise fail(str(msg)) from None

    return wrapper
