"""The benchmark data generator: contacts → trajectories → skeletons → text → noise → cases.

Public API::

    from proevent.generate import GeneratorConfig, generate_cases, generate_dataset
    ds = generate_dataset(GeneratorConfig(cases=60, seed=0), "data/small", force=True)
"""

from proevent.generate.config import (
    GeneratorConfig,
    LLMRealizerConfig,
    NoiseConfig,
    StyleConfig,
    TurnsConfig,
)
from proevent.generate.pipeline import GenerationResult, generate, generate_cases, generate_dataset
from proevent.generate.stats import compute_stats, write_plots
from proevent.generate.validate import Issue, ValidationReport, validate_case, validate_dataset

__all__ = [
    "GenerationResult", "GeneratorConfig", "Issue", "LLMRealizerConfig", "NoiseConfig", "StyleConfig", "TurnsConfig",
    "ValidationReport", "compute_stats", "generate", "generate_cases", "generate_dataset", "validate_case",
    "validate_dataset", "write_plots",
]
