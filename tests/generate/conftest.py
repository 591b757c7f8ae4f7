from __future__ import annotations

import pytest

from proevent.generate import GeneratorConfig, generate


@pytest.fixture(scope="session")
def mid_result():
    """A few hundred default-config cases, shared by the tests that look for phenomena."""
    return generate(GeneratorConfig(cases=400, seed=7))


@pytest.fixture(scope="session")
def small_cases():
    return generate(GeneratorConfig(cases=30, seed=1)).cases
