"""Bytes on the wire of a browser page, as Chromium counts them (DevTools protocol:
headers and body as received, compressed; 0 for what came from the browser's cache).
Used by the transport tests and bench/page_bench.py."""
from __future__ import annotations


class WireMeter:
    def __init__(self, context, page):
        self.requests: dict[str, dict] = {}
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.requestServedFromCache", self._cached)

    def _entry(self, request_id: str) -> dict:
        return self.requests.setdefault(request_id, {"url": "", "bytes": 0, "cached": False})

    def _response(self, e: dict) -> None:
        entry = self._entry(e["requestId"])
        entry["url"] = e["response"]["url"]
        entry["cached"] = entry["cached"] or bool(e["response"].get("fromDiskCache"))

    def _finished(self, e: dict) -> None:
        self._entry(e["requestId"])["bytes"] = int(e["encodedDataLength"])

    def _cached(self, e: dict) -> None:
        self._entry(e["requestId"])["cached"] = True

    def reset(self) -> None:
        self.requests.clear()

    def total(self, part: str = "") -> int:
        """Bytes received since the last reset, for URLs containing `part`."""
        return sum(r["bytes"] for r in self.requests.values() if part in r["url"])

    def fetched(self, part: str = "") -> list[str]:
        """URLs (containing `part`) that came over the network, not from the cache."""
        return [r["url"] for r in self.requests.values() if part in r["url"] and r["url"] and not r["cached"]]
