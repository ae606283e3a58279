"""Compressed answers and content-hashed static files, as a browser sees them over HTTP."""
from __future__ import annotations

import re

import httpx

from .helpers import new_match

GZIP = {"Accept-Encoding": "gzip"}
IMMUTABLE = "public, max-age=31536000, immutable"


def test_pages_json_and_static_files_are_gzipped(server):
    _, _, gid = new_match(server.base)
    with httpx.Client(base_url=server.base, timeout=30) as c:
        page = c.get(f"/games/{gid}", headers=GZIP)
        js = c.get(re.search(r'src="(/static/game\.[0-9a-f]{10}\.js)"', page.text).group(1), headers=GZIP)
        for r in (page, c.get(f"/api/games/{gid}/events", headers=GZIP), js,
                  c.get(f"/api/games/{gid}", headers=GZIP)):
            assert r.status_code == 200 and r.headers["content-encoding"] == "gzip", r.url
            assert r.num_bytes_downloaded * 2 < len(r.content), r.url
        plain = c.get(f"/api/games/{gid}/events", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.json()["events"]


def test_static_files_under_hashed_names_are_immutable_and_import_hashed_names(server):
    with httpx.Client(base_url=server.base, timeout=30) as c:
        page = c.get("/login").text
        urls = re.findall(r'"(/static/[\w.-]+)"', page)
        assert urls and all(re.fullmatch(r"/static/[\w-]+\.[0-9a-f]{10}\.\w+", u) for u in urls)
        seen, todo = set(), [u for u in urls if u.endswith(".js")]
        while todo:  # every module a page loads, and every module they import
            url = todo.pop()
            seen.add(url)
            r = c.get(url)
            assert r.status_code == 200 and r.headers["cache-control"] == IMMUTABLE, url
            for dep in re.findall(r'from "\./([\w.-]+)"', r.text):
                assert re.fullmatch(r"[\w-]+\.[0-9a-f]{10}\.js", dep), (url, dep)
                if "/static/" + dep not in seen:
                    todo.append("/static/" + dep)
        assert any("/static/api." in u for u in seen)
        # the plain name still works, with a short cache; so does a hash from before a deploy
        for url in ("/static/api.js", "/static/api.0123456789.js"):
            r = c.get(url)
            assert r.status_code == 200 and "export" in r.text and r.headers["cache-control"] == "public, max-age=300"
        assert c.get("/static/nope.0123456789.js").status_code == 404


def test_every_template_names_static_files_by_static_url():
    """A plain /static/ link in a template would bypass the content hash (a stale file
    after a deploy, and no year-long cache)."""
    from pathlib import Path
    templates = Path(__file__).resolve().parents[2] / "templates"
    plain = [f"{p.name}: {m}" for p in sorted(templates.rglob("*.html"))
             for m in re.findall(r'(?:src|href)="(/static/[^"]+)"', p.read_text())]
    assert plain == []
