"""The inspect scorer scores each question once: metrics computed again and again while a task runs
(inspect does so about every second over all finished samples) read the counts kept, not the
evaluator, and still equal ``evaluate``'s figures."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")
from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.scorer import SampleScore  # noqa: E402

from fixtures import TINY, load_example_run, load_tiny  # noqa: E402
from proevent.evaluate import counts, evaluate  # noqa: E402
from proevent.integrations import inspect_scorer  # noqa: E402
from proevent.integrations.inspect_tasks import proevent_multi, proevent_single  # noqa: E402

from .inspect_script import ScriptedAnswers  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize(("task", "mode"), [(proevent_single, "single"), (proevent_multi, "multi")])
def test_each_sample_is_scored_once_however_often_the_metrics_are_computed(tmp_path: Path, monkeypatch, task,
                                                                            mode) -> None:
    calls = {"single": 0, "multi": 0}
    real_single, real_multi = counts.score_question, counts.replay_case

    def single(*args, **kw):
        calls["single"] += 1
        return real_single(*args, **kw)

    def multi(*args, **kw):
        calls["multi"] += 1
        return real_multi(*args, **kw)

    monkeypatch.setattr(counts, "score_question", single)  # every path to a question's score goes here
    monkeypatch.setattr(counts, "replay_case", multi)
    monkeypatch.setattr(inspect_scorer, "_counted", {})
    monkeypatch.setattr(inspect_scorer, "_memo", None)
    ds, flawed = load_tiny(), load_example_run("flawed")
    script = ScriptedAnswers(ds, [flawed], mode)
    log = inspect_eval(task(dataset=str(TINY), judge="fuzzy", agent_options={"skip_quiet": False}),
                       model="mockllm/model", model_args={"custom_outputs": script.mockllm},
                       log_dir=str(tmp_path / "logs"), display="none")[0]
    assert log.status == "success", log.error
    samples = len(log.samples)
    assert samples == (14 if mode == "single" else 5)  # questions / cases of examples/tiny
    assert calls[mode] == samples  # the scorer scored each once; the final metrics read the counts

    # as inspect does while the task runs: the metrics over the first k finished samples, k = 1..n
    reduce = inspect_scorer.proevent_epochs()
    scores = [SampleScore(score=reduce([s.scores["proevent_scorer"]]), sample_id=s.id) for s in log.samples]
    for k in range(1, samples + 1):
        for _ in range(3):  # a dozen metrics read the same list
            inspect_scorer._proevent_metrics(scores[:k])
    assert calls[mode] == samples  # nothing scored again

    monkeypatch.setattr(inspect_scorer, "_memo", None)
    values = inspect_scorer._proevent_metrics(scores)
    monkeypatch.undo()
    expected = evaluate(ds, flawed, judge="fuzzy", ci=False, breakdowns=False).metrics[mode]
    if mode == "single":
        assert values["single"]["recall"] == expected["recall"]
        assert values["single"]["update"] == expected["update"]
        assert values["single"]["fdr"] == expected["fdr"]
    else:
        assert (values["multi"]["esr"], values["multi"]["tsr"]) == (expected["esr"], expected["tsr"])
