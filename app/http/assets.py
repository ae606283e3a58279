"""Static files under names that carry their content hash, cached by browsers for a year.

At startup the Manifest reads static/ once: each file gets the name `stem.<hash>.ext`
(e.g. map.3f2a9c1b70.js). References from one file to another are rewritten to the
hashed names first (an ES module's `from "./map.js"`, an absolute "/static/x.svg"), so a
file's hash covers the files it loads: change map.js and game.js gets a new name too.
Pages name files with the Jinja helper static_url("game.js").

/static/<hashed name>: the rewritten file, "immutable" for a year (kept gzipped in memory).
/static/<plain name>: the file as it is on disk, as before, with a short cache.
A hashed name of an older version (a page cached before a deploy): the current file,
with the short cache.
"""
from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

IMMUTABLE = "public, max-age=31536000, immutable"
SHORT = "public, max-age=300"
TEXT_SUFFIXES = (".js", ".css", ".svg", ".html", ".json")
HASHED_NAME = re.compile(r"^(?P<stem>.+)\.[0-9a-f]{10}(?P<ext>\.[A-Za-z0-9]+)$")
# "./x.js" in an import or export statement, or an import() call
RELATIVE_IMPORT = re.compile(r"""(\b(?:from|import)\s*\(?\s*)(["'])\./([\w.-]+)\2""")
ABSOLUTE_REF = re.compile(r"/static/([\w.-]+)")


@dataclass(frozen=True)
class Asset:
    name: str         # as on disk: "map.js"
    hashed: str       # "map.3f2a9c1b70.js"
    body: bytes       # with its references rewritten to hashed names
    gzipped: bytes
    media_type: str


class Manifest:
    """Every file of `directory` under its hashed name (the one place that computes them)."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.by_name: dict[str, Asset] = {}
        self.raw = {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}
        for name in self.raw:
            self.build(name, ())
        self.by_hashed = {a.hashed: a for a in self.by_name.values()}

    def build(self, name: str, loading: tuple[str, ...]) -> Asset | None:
        """The asset of `name`, after those it refers to (None within a reference cycle:
        that reference keeps the plain name, which still works)."""
        if name in self.by_name:
            return self.by_name[name]
        if name in loading or name not in self.raw:
            return None
        body = self.raw[name]
        if name.endswith(TEXT_SUFFIXES):
            body = self.rewrite(body.decode("utf-8"), loading + (name,)).encode("utf-8")
        stem, dot, ext = name.rpartition(".")
        digest = hashlib.sha256(body).hexdigest()[:10]
        hashed = f"{stem}.{digest}.{ext}" if dot else f"{name}.{digest}"
        media = mimetypes.guess_type(name)[0] or "application/octet-stream"
        asset = self.by_name[name] = Asset(name, hashed, body, gzip.compress(body, 9, mtime=0), media)
        return asset

    def rewrite(self, text: str, loading: tuple[str, ...]) -> str:
        def relative(m: re.Match) -> str:
            dep = self.build(m.group(3), loading)
            return f"{m.group(1)}{m.group(2)}./{dep.hashed if dep else m.group(3)}{m.group(2)}"

        def absolute(m: re.Match) -> str:
            dep = self.build(m.group(1), loading)
            return f"/static/{dep.hashed if dep else m.group(1)}"
        return ABSOLUTE_REF.sub(absolute, RELATIVE_IMPORT.sub(relative, text))

    def url(self, name: str) -> str:
        """The URL a page uses for static/<name>: the hashed one."""
        asset = self.by_name.get(name)
        if asset is None:
            raise KeyError(f"static/{name} does not exist")
        return f"/static/{asset.hashed}"

    def find(self, path: str) -> tuple[Asset | None, bool]:
        """(the asset a hashed path names, whether the hash is current)."""
        asset = self.by_hashed.get(path)
        if asset is not None:
            return asset, True
        m = HASHED_NAME.match(path)
        return (self.by_name.get(m.group("stem") + m.group("ext")) if m else None), False


class StaticAssets(StaticFiles):
    """/static: hashed names from the manifest, plain names from the directory."""

    def __init__(self, manifest: Manifest):
        super().__init__(directory=str(manifest.directory))
        self.manifest = manifest

    async def get_response(self, path: str, scope: Scope) -> Response:
        asset, current = self.manifest.find(path)
        if asset is None:
            response = await super().get_response(path, scope)
            if response.status_code in (200, 304):
                response.headers["Cache-Control"] = SHORT
            return response
        headers = {"Cache-Control": IMMUTABLE if current else SHORT, "Vary": "Accept-Encoding"}
        body = asset.body
        if "gzip" in Headers(scope=scope).get("accept-encoding", ""):
            body, headers["Content-Encoding"] = asset.gzipped, "gzip"
        return Response(body, media_type=asset.media_type, headers=headers)
