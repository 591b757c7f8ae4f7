"""Agent options are checked against what each agent takes (issue 12, finding 9: ``--option
frobnicate=1`` printed a traceback; ``max_rounds="x"`` was accepted and failed later)."""

from __future__ import annotations

import pytest

from fixtures import load_tiny
from proevent.agents import create_agent
from proevent.agents.registry import check_options


@pytest.mark.parametrize(("name", "options", "message"), [
    ("rules", {"frobnicate": 1}, "--option frobnicate: agent 'rules' has no option 'frobnicate'; it takes no options"),
    ("tools", {"frobnicate": 1}, "--option frobnicate: agent 'tools' has no option 'frobnicate'; its options: "
                                 "prompt_version, repair, skip_quiet, update_prompt, max_rounds"),
    ("plain", {"max_rounds": 3}, "--option max_rounds: agent 'plain' has no option 'max_rounds'; its options: "
                                 "prompt_version, repair, skip_quiet, update_prompt"),
    ("gated", {"max_rounds": 3}, "--option max_rounds: agent 'gated' has no option 'max_rounds'; its options: "
                                 "prompt_version, repair, skip_quiet, update_prompt, inner"),
    ("tools", {"max_rounds": "x"}, "--option max_rounds: agent 'tools' takes a int for 'max_rounds', got 'x'"),
    ("tools", {"max_rounds": True}, "--option max_rounds: agent 'tools' takes a int for 'max_rounds', got True"),
    ("tools", {"max_rounds": 0}, "--option max_rounds: agent 'tools' takes a positive 'max_rounds', got 0"),
    ("procot", {"skip_quiet": "no"}, "--option skip_quiet: agent 'procot' takes a bool for 'skip_quiet', got 'no'"),
])
def test_a_bad_option_is_a_value_error_naming_it(name: str, options: dict, message: str) -> None:
    with pytest.raises(ValueError) as info:
        check_options(name, options)
    assert str(info.value) == message
    with pytest.raises(ValueError):
        create_agent(name, client=None, **options)


def test_the_options_an_agent_has_are_taken() -> None:
    check_options("gated", {"inner": "tools", "max_rounds": 2, "skip_quiet": False, "prompt_version": "v1"})
    agent = create_agent("tools", client=None, max_rounds=2, repair=False)
    assert agent.describe()["max_rounds"] == 2
    assert create_agent("oracle", dataset=load_tiny()).describe() == {"strategy": "oracle"}
