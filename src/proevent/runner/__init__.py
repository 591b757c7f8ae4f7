"""The runner: run config, the pure per-question and per-case layer, the batch layer and the store."""

from proevent.runner.api import run_agent, run_agent_async
from proevent.runner.batch import RunStopped, RunSummary, execute, plan
from proevent.runner.config import RunConfig, config_hash, run_identity
from proevent.runner.estimate import RunEstimate, estimate_run
from proevent.runner.store import RunDriftError, RunLockedError, RunStore

__all__ = [
    "RunConfig", "RunDriftError", "RunEstimate", "RunLockedError", "RunStopped", "RunStore", "RunSummary",
    "config_hash", "estimate_run", "execute", "plan", "run_agent", "run_agent_async", "run_identity",
]
