"""What every command shares: the Typer app, the consoles, and turning errors into exit codes."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import click
import typer
from pydantic import BaseModel, ValidationError
from rich.console import Console
from rich.markup import escape
from typer.core import TyperOption

from proevent.io.errors import FormatError, describe_config_error

if TYPE_CHECKING:
    from proevent.model import Dataset

app = typer.Typer(
    name="proevent",
    help="ProEvent: generate benchmark data, run proactive agents, evaluate and report.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)


def _version(value: bool) -> None:
    if value:
        from proevent import __version__

        console.print(f"proevent {__version__}", markup=False, highlight=False)
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_version,
                                 help="Print the version and exit."),
) -> None:
    """ProEvent: generate benchmark data, run proactive agents, evaluate and report."""


def _flag_type(self: TyperOption, ctx: click.Context) -> str | None:
    """A flag takes no value: show no ``<bool>`` after it in ``--help`` (Typer shows the annotation)."""
    return None if self.is_flag else _option_type(self, ctx)


_option_type = TyperOption.display_type_rich
TyperOption.display_type_rich = _flag_type  # type: ignore[method-assign]

P = ParamSpec("P")
R = TypeVar("R")
M = TypeVar("M", bound=BaseModel)


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print ``error: MESSAGE`` on stderr (the message is text, never markup: ``[web]`` stays) and
    return the exit to raise."""
    err_console.print(f"[red]error:[/red] {escape(message)}", markup=True, highlight=False, soft_wrap=True)
    return typer.Exit(code)


def pct(value: float | None) -> str:
    """A fraction as the commands show it (:func:`proevent.evaluate.metrics.percent`, imported on
    first use: its metrics models are not what every command needs, ``run`` none of them)."""
    from proevent.evaluate.metrics import percent

    return percent(value)


def warn(message: str) -> None:
    """Print ``warning: MESSAGE`` on stderr (the message is text, never markup)."""
    err_console.print(f"[yellow]warning:[/yellow] {escape(message)}", highlight=False, soft_wrap=True)


def say(message: str) -> None:
    """Print a line of text on stdout: no markup, no highlighting (user text may hold brackets)."""
    console.print(message, markup=False, highlight=False, soft_wrap=True)


JudgeOption = Annotated[str | None, typer.Option(
    help="Location judge: exact, fuzzy, places or llm (default: the metrics version's: places; fuzzy for 1).")]
MetricsVersionOption = Annotated[int, typer.Option(
    "--metrics-version", help="Metrics version (2: the places judge; 1 reproduces version-1 figures).")]


def load_judges(*names: str | None) -> None:
    """Load the location judges that live above ``evaluate/`` and register themselves on import
    (the ``llm`` judge), when one of ``names`` asks for them."""
    if "llm" in names:
        import proevent.llm.judge  # noqa: F401


@contextmanager
def loading_then_frozen() -> Iterator[Callable[[], None]]:
    """For a command that loads a dataset or runs and keeps them to its end: the collector paused
    from here until the function given is called (``loaded()``), and what is alive then left out
    of its walks (``gc_frozen``) until the block ends, the collector running again meanwhile for
    what the command makes after. The objects are frozen while the collector is still paused: a
    load makes hundreds of thousands of young objects, and the first collection after it walked
    them all before anything froze them (0.05-0.25 s CPU a command). Never ``loaded()``: paused
    to the end of the block. Everything as it was after the block."""
    from proevent.model.bulk import gc_frozen, gc_paused

    with ExitStack() as frozen:
        paused = ExitStack()
        paused.enter_context(gc_paused())

        done = False

        def loaded() -> None:
            nonlocal done
            if not done:
                done = True
                frozen.enter_context(gc_frozen())  # while the collector is still paused
                paused.close()

        try:
            yield loaded
        finally:
            paused.close()


def add_initial_ics(dataset: Path, ics_file: Path, align: str, *, out: Path | None = None,
                    timezone: str | None = None, overwrite: bool = False) -> Dataset:
    """What ``proevent generate --initial-ics`` and ``proevent ics-initial`` run (align checked here)."""
    from proevent.integrations.ics_initial import ALIGNS, apply_initial_ics

    if align not in ALIGNS:
        raise fail(f"align must be one of {', '.join(ALIGNS)}, not {align!r}")
    return apply_initial_ics(dataset, ics_file, out=out, align=align, timezone=timezone,  # type: ignore[arg-type]
                             overwrite=overwrite)


def build_config(model: type[M], data: Mapping[str, Any], *, source: Path | str | None = None,
                 flags: Mapping[str, str] | None = None) -> M:
    """Validate a command's settings into ``model``: every command builds its config here.

    An invalid value is a :class:`FormatError` with one line per field, naming the file and the
    line where it is set (``source``, a TOML or JSON file), or the option that set it (``flags``
    maps a field to its option, e.g. ``{"cases": "--cases"}``).
    """
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        text = None
        if isinstance(source, Path):
            try:
                text = source.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = None
        raise FormatError(describe_config_error(exc, source if source is not None else "options", text=text,
                                                flags=dict(flags or {}))) from None


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
        except ValidationError as exc:  # a model built outside build_config: still one line per field
            for problem in describe_config_error(exc, exc.title):
                err_console.print(problem, markup=False, highlight=False, soft_wrap=True)
            raise typer.Exit(1) from None
        except (FileExistsError, FileNotFoundError, KeyError, ValueError) as exc:
            msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
            raise fail(str(msg)) from None

    return wrapper
