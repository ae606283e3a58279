"""Requests the server sends on a user's behalf (webhooks), only to checked destinations.

Every hop is checked (destinations.check_url) and connected to at the address that was
checked, with the URL's host name kept for the Host header and the TLS certificate.
Redirects are followed by hand, a few at most, each one checked again. What the far
side answers is never shown to the user: only its status code, so the server cannot be
used to read pages it can reach and the user cannot.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

import httpx

from .destinations import BlockedDestination, Destination, Resolver, check_url, system_resolver

MAX_REDIRECTS = 3


@dataclass(frozen=True)
class Delivery:
    status: int


class DeliveryFailed(Exception):
    """Could not deliver; the message is safe to show the user."""


class RefusedDestination(DeliveryFailed):
    """The address (or a redirect) leads somewhere the server does not send to."""


def _pinned_url(d: Destination, address: str) -> str:
    parts = urlsplit(d.url)
    host = f"[{address}]" if ":" in address else address
    return urlunsplit((d.scheme, f"{host}:{d.port}", parts.path or "/", parts.query, ""))


def post_json(url: str, payload: Any, *, headers: dict[str, str] | None = None,
              allow_hosts: Iterable[str] = (), timeout: float = 10.0,
              resolve: Resolver = system_resolver) -> Delivery:
    return post_body(url, json_bytes(payload), headers=headers, allow_hosts=allow_hosts, timeout=timeout,
                     resolve=resolve)


def json_bytes(payload: Any) -> bytes:
    """The exact bytes sent for a JSON payload (what a signature covers)."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def post_body(url: str, body: bytes, *, headers: dict[str, str] | None = None,
              allow_hosts: Iterable[str] = (), timeout: float = 10.0,
              resolve: Resolver = system_resolver) -> Delivery:
    """POST these JSON bytes, unchanged, to each checked hop."""
    allow = tuple(allow_hosts)
    with httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False) as client:
        for _ in range(MAX_REDIRECTS + 1):
            try:
                d = check_url(url, allow, resolve)
            except BlockedDestination as exc:
                raise RefusedDestination(str(exc)) from None
            r = _post_to_one_of(client, d, body, headers or {})
            if r.status_code in (301, 302, 303, 307, 308) and "location" in r.headers:
                url = urljoin(d.url, r.headers["location"])
                continue
            return Delivery(status=r.status_code)
    raise DeliveryFailed(f"more than {MAX_REDIRECTS} redirects")


def _post_to_one_of(client: httpx.Client, d: Destination, body: bytes,
                    headers: dict[str, str]) -> httpx.Response:
    """Try the checked addresses in turn (a name may resolve to IPv6 and IPv4)."""
    host_header = d.host if d.port in (80, 443) else f"{d.host}:{d.port}"
    failure: Exception | None = None
    for address in d.addresses:
        request = client.build_request("POST", _pinned_url(d, address), content=body,
                                       headers={"Content-Type": "application/json", **headers, "Host": host_header},
                                       extensions={"sni_hostname": d.host})
        try:
            # streamed and closed unread: the answer's body is never wanted, however large
            response = client.send(request, stream=True)
            response.close()
            return response
        except httpx.ConnectError as exc:
            failure = exc
        except httpx.HTTPError as exc:
            raise DeliveryFailed(f"could not reach {d.host}: {type(exc).__name__}") from None
    raise DeliveryFailed(f"could not reach {d.host}: {type(failure).__name__}")
