"""/docs: the HTTP API described from /openapi.json by a page of our own (static/api-docs.js).

FastAPI's Swagger UI page loads its scripts from a CDN and runs an inline script; the
site's Content-Security-Policy allows neither, and the API docs should not depend on a
third party being up. The page lists every operation with its parameters and body."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from .pages import render

router = APIRouter(include_in_schema=False)


@router.get("/docs", response_class=HTMLResponse)
def api_docs(request: Request):
    return render(request, "api_docs.html")
