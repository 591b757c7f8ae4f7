"""The FastAPI application: ``create_app(config)`` builds it for the viewer, human, review or annotate mode."""

from __future__ import annotations

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from proevent.io import Dataset, load_dataset
from proevent.web.config import ServeConfig
from proevent.web.render import load_assets, make_environment
from proevent.web.scoring import RunView, category_labels, load_run_view
from proevent.web.security import SecurityMiddleware
from proevent.web.state import WebState, get_state


def unique_run_names(runs: list[RunView]) -> None:
    """URLs name runs (``?run=rules``): two runs whose folders share a name become ``rules`` and ``rules-2``."""
    taken: set[str] = set()
    for run in runs:
        name, k = run.name, 1
        while name in taken:
            k += 1
            name = f"{run.name}-{k}"
        run.name = name
        taken.add(name)


def create_app(config: ServeConfig, dataset: Dataset | None = None) -> FastAPI:
    """Load the dataset (and runs, scored once) and build the application for ``config``'s mode.

    Raises:
        FormatError: the dataset cannot be read (a bad run does not raise: it becomes a banner).
    """
    dataset = dataset if dataset is not None else load_dataset(config.dataset)
    state = WebState(config=config, dataset=dataset, env=make_environment(), assets=load_assets())
    state.runs = [load_run_view(i, path, dataset, config.judge) for i, path in enumerate(config.runs)]
    unique_run_names(state.runs)
    state.labels = category_labels() if state.runs else {}

    app = FastAPI(title="proevent viewer", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.web = state
    app.add_middleware(SecurityMiddleware, loopback_only=config.is_loopback)

    @app.get("/static/{name}")
    def static(name: str, request: Request) -> Response:
        asset = get_state(request).assets.get(name)
        if asset is None:
            raise HTTPException(404, "no such asset")
        return Response(asset.body, media_type=asset.media_type,
                        headers={"ETag": asset.etag, "Cache-Control": "max-age=3600"})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return state.render(request, "error.html", status_code=exc.status_code,
                            status=exc.status_code, message=str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        return state.render(request, "error.html", status_code=400, status=400, message=problems)

    mode = config.serve_mode
    if mode == "human":
        from proevent.web import human_routes
        from proevent.web.human import HumanSession

        assert config.human is not None and config.output_path is not None
        state.human = HumanSession.open(dataset, config)
        app.include_router(human_routes.router)
    elif mode == "annotate":
        from proevent.web import annotate_routes
        from proevent.web.annotate import AnnotationSession

        state.annotate = AnnotationSession.open(dataset, config)
        app.include_router(annotate_routes.router)
    else:
        from proevent.web import viewer_routes

        if mode == "review":
            from proevent.web import review_routes
            from proevent.web.review import ReviewStore

            assert config.review is not None and config.output_path is not None
            state.review = ReviewStore.open(config.output_path, config.review, dataset, config.flagged_first,
                                            sample=config.sample, seed=config.seed)
            app.include_router(review_routes.router)
        app.include_router(viewer_routes.router)
    return app
