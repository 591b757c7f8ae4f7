"""A scripted model for the inspect tests: answers each question with a saved run's operations.

The question is recognised from the first user message of the request: its first two times are
the step's end ("now") and start in every prompt version (v1 ``Current time: NOW ... The window
started at START``, v2 ``Now NOW ...; window from START``), unique per (case, step) in
``examples/tiny``. Works for
inspect's ``mockllm`` (a ``custom_outputs`` callable) and for the scripted OpenAI-compatible server
of ``tests/support`` (its ``default`` callback).
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any

from proevent.io import Dataset, Run

_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


class ScriptedAnswers:
    """Answers with ``runs[epoch - 1]`` (the last run for later epochs) under mockllm, where the
    sample's epoch is known; the scripted server, which cannot know it, always uses ``runs[0]``."""

    def __init__(self, dataset: Dataset, runs: list[Run], mode: str) -> None:
        self.windows = {(s.start, s.end): (c.case_id, s.t) for c in dataset.cases for s in c.steps}
        self.runs = runs
        self.mode = mode
        self.calls = 0
        self._lock = threading.Lock()

    def text(self, first_user: str, run_index: int = 0) -> str:
        times = _TIME.findall(first_user)
        if len(times) < 2 or (times[1], times[0]) not in self.windows:
            return "I cannot tell which question this is."
        case_id, t = self.windows[(times[1], times[0])]
        with self._lock:
            self.calls += 1
        run = self.runs[min(run_index, len(self.runs) - 1)]
        line = run.lines.get((case_id, self.mode, t, 0))
        return json.dumps({"ops": line.ops if line is not None and line.error is None else []}, ensure_ascii=False)

    # -- inspect's mockllm --------------------------------------------------------------
    def mockllm(self, input: list[Any], tools: Any, tool_choice: Any, config: Any) -> Any:
        from inspect_ai.log._samples import sample_active  # test-only use of inspect internals
        from inspect_ai.model import ModelOutput, ModelUsage

        active = sample_active()
        epoch = active.epoch if active is not None else 1
        users = [m for m in input if m.role == "user"]
        out = ModelOutput.from_content(model="mockllm", content=self.text(users[0].text, epoch - 1))
        # mockllm would count tokens with tiktoken, which cannot download its files offline
        out.usage = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)
        return out

    # -- the scripted OpenAI-compatible server ----------------------------------------------
    def server_reply(self, request: dict[str, Any]) -> Any:
        from support.scripted_server import Reply

        users = [m for m in request.get("messages", []) if m.get("role") == "user"]
        content = users[0].get("content")
        if isinstance(content, list):  # content parts
            content = "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        return Reply(content=self.text(str(content)), usage=(120, 12))
