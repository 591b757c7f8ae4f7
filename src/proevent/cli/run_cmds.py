"""``proevent run`` and ``proevent agents``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from proevent.cli.common import app, console, fail, handle_errors


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
    from rich.table import Table

    from proevent.agents import AGENTS

    table = Table("agent", "needs a model", "what it does")
    for spec in AGENTS.values():
        table.add_row(spec.name, "yes" if spec.needs_llm else "no", spec.summary)
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
        help="Stop taking new questions once this call has spent this many dollars; run again to go on.")] = None,
    estimate: Annotated[bool, typer.Option(
        "--estimate", help="Send nothing: count the requests and prompt tokens the run would take, and their price.")
    ] = False,
) -> None:
    """Run an agent on a dataset; resumable (Ctrl-C or kill, then run the same command again)."""
    import asyncio

    from proevent.agents import get_spec
    from proevent.io import load_dataset
    from proevent.llm import load_llm_config
    from proevent.runner import RunConfig, execute

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
    run_config = RunConfig(
        agent=agent, mode=mode, repeats=repeats, limit=limit, cases=case_ids, concurrency=concurrency,  # type: ignore[arg-type]
        context_messages=context, agent_options=_options(option or []), llm=llm,
        retry_errors=not no_retry_errors, max_cost_usd=max_cost,
    )
    ds = load_dataset(dataset)
    if estimate:
        _print_estimate(run_config, ds)
        return
    if out is None:
        raise fail("--out is required (the run folder)")
    try:
        summary = asyncio.run(execute(run_config, ds, out, progress=not no_progress, force=force))
    except KeyboardInterrupt:
        raise fail(f"interrupted; run the same command again to resume into {out}", code=130) from None
    usage = summary.usage
    cost = usage.get("cost_usd", None) if usage else None
    cost_text = "" if not usage else (" cost unknown" if cost is None else f" cost ${cost:.4f}")
    tokens = f" tokens {usage['prompt_tokens']:,}+{usage['completion_tokens']:,}" if usage else ""
    if usage and usage.get("cached_prompt_tokens"):
        tokens += f" ({usage['cached_prompt_tokens']:,} prompt tokens from the server's prompt cache)"
    requests = f" requests {usage['requests']} (cache hits {usage['cache_hits']})" if usage else ""
    console.print(
        f"{summary.path}: wrote {summary.written} lines"
        f"{f' ({summary.quiet} for steps without messages, no request)' if summary.quiet else ''}, "
        f"skipped {summary.skipped} already answered, "
        f"{summary.errors} errors.{requests}{tokens}{cost_text}", highlight=False, soft_wrap=True,
    )
    if summary.budget_reached:
        console.print(f"stopped at the budget of ${max_cost:g}: run the same command again (with a higher "
                      "--max-cost) to answer the rest", highlight=False, soft_wrap=True)


def _print_estimate(config: Any, dataset: Any) -> None:
    import asyncio

    from proevent.runner.estimate import estimate_run

    est = asyncio.run(estimate_run(config, dataset))
    price = "" if est.prompt_cost_usd is None else f", ${est.prompt_cost_usd:.2f} at the model's input price"
    unpriced = " (the model has no price: --price-in/--price-out)" if est.prompt_cost_usd is None else ""
    console.print(
        f"{est.questions:,} questions: {est.requests:,} requests ({est.without_request:,} answered without one), "
        f"{est.prompt_tokens:,} prompt tokens{price}{unpriced}; tokens counted as {est.tokenizer}.\n"
        "Not counted: the answers (their length is the model's), repair requests and further tool rounds, "
        "and what the response cache already holds.", highlight=False, soft_wrap=True,
    )
