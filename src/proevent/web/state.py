"""Everything one server process holds: the dataset, the scored runs, templates and assets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment
from starlette.requests import Request
from starlette.responses import HTMLResponse

from proevent.io import Dataset
from proevent.web.config import ServeConfig
from proevent.web.render import Asset
from proevent.web.scoring import RunView


@dataclass
class WebState:
    config: ServeConfig
    dataset: Dataset
    env: Environment
    assets: dict[str, Asset]
    runs: list[RunView] = field(default_factory=list)
    human: Any = None
    """A :class:`proevent.web.human.HumanSession` in human mode."""
    review: Any = None
    """A :class:`proevent.web.review.ReviewStore` in review mode."""
    annotate: Any = None
    """A :class:`proevent.web.annotate.AnnotationSession` in annotate mode."""
    search_texts: dict[str, str] = field(default_factory=dict)
    """case_id -> the case's text as search sees it, filled on first search."""
    labels: dict[str, str] = field(default_factory=dict)
    """Error category key -> label (from the reports module, when installed)."""

    def banners(self) -> list[dict[str, Any]]:
        """One error banner per run that could not be read or scored, one warning per warning."""
        out: list[dict[str, Any]] = []
        for run in self.runs:
            if run.problems:
                title = f"Run {run.name} is not shown: it could not be read or scored"
                out.append({"level": "error", "title": title, "lines": run.problems})
            out.extend({"level": "warning", "title": w, "lines": []} for w in run.warnings)
        return out

    def render(self, request: Request, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
        base = {
            "dataset": self.dataset.manifest,
            "mode": self.config.serve_mode,
            "banners": self.banners(),
            "asset": lambda name: f"/static/{name}?v={self.assets[name].etag}",
            "path": request.url.path,
        }
        html = self.env.get_template(template).render(**base, **context)
        return HTMLResponse(html, status_code=status_code)


def get_state(request: Request) -> WebState:
    return request.app.state.web
