"""``proevent run`` and ``proevent agents``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from proevent.cli.common import (
    app,
    build_config,
    console,
    err_console,
    fail,
    handle_errors,
    loading_then_frozen,
    say,
)

EXIT_ERRORS = 3
"""The run has more errored lines than ``--max-errors`` (by default: a request failed)."""
EXIT_STOPPED = 4
"""The circuit breaker stopped the run: the endpoint is unreachable, refused, or kept failing."""
EXIT_BUDGET = 5
"""``--max-cost`` stopped the run before every question was answered."""


_RUN_FLAGS = {"mode": "--mode", "repeats": "--repeats", "limit": "--limit", "cases": "--cases",
              "concurrency": "--concurrency", "context_messages": "--context", "agent_options": "--option",
              "max_cost_usd": "--max-cost", "max_errors": "--max-errors",
              "max_consecutive_failures": "--max-consecutive-failures"}
"""The option that sets each field of the run config (named in a validation error)."""


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option {pair!r}: expected KEY=VALUE")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


@app.command("agents")
def agents_cmd() -> None:
    """List the agents `proevent run --agent` accepts."""
    from rich.markup import escape
    from rich.table import Table

    from proevent.agents import AGENTS
    from proevent.agents.registry import plugin_specs

    table = Table("agent", "needs a model", "what it does")
    for spec in [*AGENTS.values(), *plugin_specs(resolve=True)]:
        table.add_row(escape(spec.name), "yes" if spec.needs_llm else "no", escape(spec.summary))
    console.print(table)


@app.command("run")
@handle_errors
def run_cmd(
    dataset: Annotated[Path, typer.Argument(help="Dataset folder (cases.jsonl + dataset.json).")],
    agent: Annotated[str, typer.Option("--agent", "-a", help="Agent name (see `proevent agents`).")],
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Run folder; an existing run is resumed (not needed with --estimate).")] = None,
    mode: Annotated[str, typer.Option(help="single, multi or both.")] = "both",
    model: Annotated[str | None, typer.Option(help="Model name (env PROEVENT_MODEL).")] = None,
    base_url: Annotated[list[str] | None, typer.Option(
        "--base-url", help="OpenAI-compatible base URL; repeat for replicas (env PROEVENT_BASE_URL).")] = None,
    profile: Annotated[str | None, typer.Option(help="Named profile of proevent.toml.")] = None,
    config: Annotated[Path | None, typer.Option(help="Config file (default ./proevent.toml).")] = None,
    api_key_env: Annotated[str | None, typer.Option(
        help="Environment variable holding the API key (default PROEVENT_API_KEY, then OPENAI_API_KEY).")] = None,
    concurrency: Annotated[int, typer.Option(help="Questions (and requests) in flight.")] = 16,
    repeats: Annotated[int, typer.Option(help="Independent samples per question.")] = 1,
    limit: Annotated[int | None, typer.Option(help="Only the first N cases.")] = None,
    cases: Annotated[list[str] | None, typer.Option(help="Only these case ids (repeat or comma-separate).")] = None,
    context: Annotated[int, typer.Option(help="Earlier messages of each chat shown as context (K).")] = 20,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature (default 0).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed passed to the server (default 0).")] = None,
    max_tokens: Annotated[int | None, typer.Option(help="Completion token limit.")] = None,
    timeout: Annotated[float | None, typer.Option(help="Request timeout in seconds (default 120).")] = None,
    max_retries: Annotated[int | None, typer.Option(help="Retries on 429/5xx/timeouts (default 6).")] = None,
    rpm: Annotated[float | None, typer.Option(help="Requests-per-minute limit.")] = None,
    tpm: Annotated[float | None, typer.Option(help="Tokens-per-minute limit.")] = None,
    no_json_mode: Annotated[bool, typer.Option("--no-json-mode", help="Do not ask for JSON mode.")] = False,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Bypass the response cache.")] = False,
    cache_path: Annotated[Path | None, typer.Option(help="SQLite cache file (env PROEVENT_CACHE).")] = None,
    price_in: Annotated[float | None, typer.Option(help="$ per million prompt tokens (overrides the table).")] = None,
    price_out: Annotated[float | None, typer.Option(help="$ per million completion tokens.")] = None,
    price_cached_in: Annotated[float | None, typer.Option(
        help="$ per million prompt tokens read from the server's prompt cache (with --price-in).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", help="Agent option KEY=VALUE (JSON value), e.g. --option inner=plain.")] = None,
    no_retry_errors: Annotated[bool, typer.Option(
        "--no-retry-errors", help="On resume, keep errored lines instead of asking again.")] = False,
    force: Annotated[bool, typer.Option(help="Overwrite a run made with another configuration.")] = False,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bar.")] = False,
    max_cost: Annotated[float | None, typer.Option(
        help="A budget for the whole run: stop taking new questions once the run (earlier calls included) has "
             f"spent this many dollars; exit code {EXIT_BUDGET}. Run again with a higher budget to go on.")] = None,
    max_errors: Annotated[int | None, typer.Option(
        help=f"Exit {EXIT_ERRORS} when the run has more errored lines than this (default: any line whose request "
             "failed).")] = None,
    max_consecutive_failures: Annotated[int, typer.Option(
        help=f"Stop the run (exit {EXIT_STOPPED}) after this many failed requests in a row; a 401, 403 or 404 "
             "stops it at once.")] = 8,
    no_preflight: Annotated[bool, typer.Option(
        "--no-preflight", help="Do not ask each --base-url for its models list before the run.")] = False,
    no_validate: Annotated[bool, typer.Option(
        "--no-validate", help="Run on a dataset with structural errors anyway (review flags never block).")] = False,
    estimate: Annotated[bool, typer.Option(
        "--estimate", help="Send nothing: count the requests and prompt tokens the run would take, and their price.")
    ] = False,
    batch_out: Annotated[Path | None, typer.Option(
        "--batch-out", help="Send nothing: write the requests the cache cannot answer as an OpenAI Batch API input "
                            "file (see `proevent batch import` and docs/backends.md).")] = None,
) -> None:
    """Run an agent on a dataset; resumable (Ctrl-C or kill, then run the same command again)."""
    import asyncio

    from proevent.agents import get_spec
    from proevent.io import load_dataset
    from proevent.llm import load_llm_config
    from proevent.runner import RunConfig, execute
    from proevent.runner.batch import RunStopped

    if mode not in ("single", "multi", "both"):
        raise fail(f"--mode must be single, multi or both, not {mode!r}")
    if max_cost is not None and max_cost <= 0:
        raise fail(f"--max-cost must be above 0 dollars, not {max_cost:g}")
    spec = get_spec(agent)
    llm = None
    wants_model = spec.needs_llm or model is not None or profile is not None
    if wants_model:
        if price_in is not None and price_out is None or price_out is not None and price_in is None:
            raise fail("--price-in and --price-out go together")
        if price_cached_in is not None and price_in is None:
            raise fail("--price-cached-in needs --price-in and --price-out")
        overrides: dict[str, Any] = {
            "model": model, "base_urls": [u for b in base_url for u in b.split(",")] if base_url else None,
            "api_key_env": api_key_env, "concurrency": concurrency, "temperature": temperature,
            "seed": seed, "max_tokens": max_tokens, "timeout_s": timeout, "max_retries": max_retries,
            "rpm": rpm, "tpm": tpm, "cache_path": cache_path,
            "json_mode": False if no_json_mode else None, "cache": False if no_cache else None,
            "price": {"input": price_in, "output": price_out, "cached_input": price_cached_in}
            if price_in is not None else None,
        }
        llm = load_llm_config(profile=profile, config_file=config, overrides=overrides)
    case_ids = [c for item in cases for c in item.split(",") if c] if cases else None
    run_config = build_config(RunConfig, {
        "agent": agent, "mode": mode, "repeats": repeats, "limit": limit, "cases": case_ids,
        "concurrency": concurrency, "context_messages": context, "agent_options": _options(option or []), "llm": llm,
        "retry_errors": not no_retry_errors, "max_cost_usd": max_cost, "max_errors": max_errors,
        "max_consecutive_failures": max_consecutive_failures, "preflight": not no_preflight,
    }, flags=_RUN_FLAGS)
    with loading_then_frozen() as loaded:  # the cases stay alive: collections during the load and the
        # check would only walk them, and they are left out of the walks after
        ds = load_dataset(dataset)
        if not no_validate:
            from proevent.io.structure import require_structure

            require_structure(ds, dataset)
        loaded()  # frozen before the collector resumes: no collection walks them first (0.05 s for 1,279 cases)
        if estimate:
            _print_estimate(run_config, ds)
            return
        if out is None:
            raise fail("--out is required (the run folder)")
        try:  # the run's own objects the collector still sees
            summary = asyncio.run(execute(run_config, ds, out, progress=not no_progress, force=force,
                                          batch_out=batch_out))
        except KeyboardInterrupt:
            raise fail(f"interrupted; run the same command again to resume into {out}", code=130) from None
        except RunStopped as exc:
            _print_summary(exc.summary)
            raise fail(f"{exc}. The lines written are kept; fix the endpoint and run the same command "
                       "again to resume", code=EXIT_STOPPED) from None
        except OSError as exc:  # the run's own writes report RunWriteError; this is anything else on disk
            raise fail(f"{exc.filename or out}: {exc.strerror or exc}") from None
    _print_summary(summary)
    if batch_out is not None:
        from proevent.cli.rounds import print_round

        print_round(summary, batch_out)
    if summary.failed:
        what = (f"{summary.failed_requests} of its lines have a failed request" if max_errors is None
                else f"{summary.errored_lines} errored lines, more than --max-errors {max_errors}")
        raise fail(f"the run has {what}; run the same command again to ask those questions again",
                   code=EXIT_ERRORS)
    if summary.budget_reached:
        spent = summary.usage.get("cost_usd") or 0.0
        err_console.print(f"stopped at the budget of ${max_cost:g} (the run has spent ${spent:.4f}): run the same "
                          "command again with a higher --max-cost to answer the rest", markup=False,
                          highlight=False, soft_wrap=True)
        raise typer.Exit(EXIT_BUDGET)


def _usage_text(usage: dict[str, Any]) -> str:
    cost = usage.get("cost_usd", None)
    text = f" requests {usage['requests']} (cache hits {usage['cache_hits']})"
    text += f" tokens {usage['prompt_tokens']:,}+{usage['completion_tokens']:,}"
    if usage.get("cached_prompt_tokens"):
        text += f" ({usage['cached_prompt_tokens']:,} prompt tokens from the server's prompt cache)"
    return text + (" cost unknown" if cost is None else f" cost ${cost:.4f}")


def _print_summary(summary: Any) -> None:
    """This call's lines, counted as the progress bar counts them; the whole run's cost when
    earlier calls wrote lines too."""
    call = _usage_text(summary.call_usage) if summary.usage and summary.call_usage else ""
    whole = ""
    if summary.usage and summary.skipped:
        total = summary.usage.get("cost_usd")
        whole = (f" The run so far: requests {summary.usage['requests']}, cost "
                 f"{'unknown' if total is None else f'${total:.4f}'}.")
    say(
        f"{summary.path}: wrote {summary.written} lines"
        f"{f' ({summary.quiet} for steps without messages, no request)' if summary.quiet else ''}, "
        f"skipped {summary.skipped} already answered, "
        f"{summary.errors} errors.{call}{whole}"
    )


def _print_estimate(config: Any, dataset: Any) -> None:
    import asyncio

    from proevent.runner.estimate import estimate_run

    est = asyncio.run(estimate_run(config, dataset))
    price = "" if est.prompt_cost_usd is None else f", ${est.prompt_cost_usd:.2f} at the model's input price"
    unpriced = " (the model has no price: --price-in/--price-out)" if est.prompt_cost_usd is None else ""
    say(
        f"{est.questions:,} questions: {est.requests:,} requests ({est.without_request:,} answered without one), "
        f"{est.prompt_tokens:,} prompt tokens{price}{unpriced}; tokens counted as {est.tokenizer}.\n"
        "Not counted: the answers (their length is the model's), repair requests and further tool rounds, "
        "and what the response cache already holds."
    )
