"""Defences for a local tool that renders untrusted text and accepts form posts.

- Every response carries a strict Content-Security-Policy (scripts and styles only from this
  server, no inline script), so even a template mistake could not run a dataset's ``<script>``.
- When bound to a loopback address, only loopback ``Host`` headers are accepted: ``localhost``
  and loopback IP literals such as ``127.0.0.2``, the URL ``serve`` prints (a web page elsewhere
  cannot reach the server through DNS rebinding).
- A form post must come from a page of this server (``Origin``/``Sec-Fetch-Site``), so another
  site open in the same browser cannot write answers or annotations.
"""

from __future__ import annotations

import ipaddress

from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

LOOPBACK_HOSTS: frozenset[str] = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
"""The usual loopback names; :func:`is_loopback_host` accepts every loopback address (127.0.0.0/8)."""

HEADERS: dict[str, str] = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def host_name(host_header: str) -> str:
    """The host part of a ``Host`` header (``[::1]:8000`` -> ``[::1]``, ``a:80`` -> ``a``)."""
    if host_header.startswith("["):
        return host_header.split("]", 1)[0] + "]"
    return host_header.rsplit(":", 1)[0] if ":" in host_header else host_header


def is_loopback_host(name: str) -> bool:
    """``localhost`` or a loopback IP literal (``127.0.0.2``, ``[::1]``): never a DNS name that could
    be rebound to this machine by another site."""
    if name.lower() in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(name[1:-1] if name.startswith("[") and name.endswith("]") else name).is_loopback
    except ValueError:
        return False


class SecurityMiddleware(BaseHTTPMiddleware):
    def __init__(self, app, *, loopback_only: bool) -> None:  # type: ignore[no-untyped-def]
        super().__init__(app)
        self.loopback_only = loopback_only

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        host = request.headers.get("host", "")
        if self.loopback_only and not is_loopback_host(host_name(host)):
            return _refuse(421, "this server answers only to loopback addresses (127.0.0.1, localhost)")
        if request.method not in ("GET", "HEAD", "OPTIONS") and not _same_origin(request, host):
            return _refuse(403, "cross-site form post refused")
        response = await call_next(request)
        for key, value in HEADERS.items():
            response.headers.setdefault(key, value)
        return response


def _same_origin(request: Request, host: str) -> bool:
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return origin is None
    return origin in (f"http://{host}", f"https://{host}")


def _refuse(status: int, text: str) -> Response:
    response = PlainTextResponse(text, status_code=status)
    for key, value in HEADERS.items():
        response.headers[key] = value
    return response
