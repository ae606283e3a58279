"""Where the server may send a request on a user's behalf (webhooks).

A user-supplied URL is only fetched after its host name is resolved and every address
it resolves to is public: never loopback, private, link-local (cloud metadata lives
at 169.254.169.254), multicast, reserved or unspecified, whatever spelling the URL
uses (decimal or octal IPv4, IPv4-mapped IPv6). The request then goes to the address
that was checked, so a name that resolves differently a moment later (DNS rebinding)
cannot redirect it. An operator may allow-list hosts (an internal chat server, say).
"""
from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import SplitResult, urlsplit

from rules_engine.errors import Reason

from ..i18n import N_

Resolver = Callable[[str, int], Iterable[str]]


class BlockedDestination(ValueError):
    """The URL may not be fetched; the message says why, in words for the user: `reason`,
    a message of the catalogues with its values (said in the reader's language)."""

    def __init__(self, template: str, **values: Any):
        self.reason = Reason(template, values)
        super().__init__(self.reason)


@dataclass(frozen=True)
class Destination:
    url: str          # the URL as the user gave it
    scheme: str
    host: str         # the name to send as Host and to check the certificate against
    port: int
    addresses: tuple[str, ...]   # the checked addresses to connect to, in resolver order
    allowed_by_operator: bool

    @property
    def address(self) -> str:
        return self.addresses[0]


# 64:ff9b::/96 reaches an IPv4 address through a NAT64 gateway: judge that address
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


def system_resolver(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError) as exc:  # ValueError: a NUL in the name
        raise BlockedDestination(N_("the host name {host} does not resolve"), host=repr(host)) from exc
    return [str(info[4][0]) for info in infos]


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv6Address) and ip.sixtofour is not None:
        ip = ip.sixtofour  # 2002:7f00:1:: carries 127.0.0.1
    if ip in _NAT64:
        ip = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_unspecified)


def _port(scheme: str, parts: SplitResult) -> int:
    try:
        port = parts.port
    except ValueError:  # not a number, or beyond 65535
        port = 0
    if port is None:
        return 443 if scheme == "https" else 80
    if port == 0:
        raise BlockedDestination(N_("the address has an invalid port"))
    return port


def check_url(url: str, allow_hosts: Iterable[str] = (), resolve: Resolver = system_resolver) -> Destination:
    """The destination to connect to, or BlockedDestination naming the reason."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https"):
        raise BlockedDestination(N_("only http:// and https:// addresses can receive notices"))
    if parts.username or parts.password:
        raise BlockedDestination(N_("the address may not carry a user name or password"))
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise BlockedDestination(N_("the address has no host name"))
    port = _port(parts.scheme, parts)
    addresses = list(resolve(host, port))
    if not addresses:
        raise BlockedDestination(N_("the host name {host} does not resolve"), host=repr(host))
    allowed = host in {h.rstrip(".").lower() for h in allow_hosts}
    if not allowed:
        for address in addresses:
            if not is_public(address):
                raise BlockedDestination(N_("{host} is a private, local or reserved address ({address}); notices "
                                            "go only to public addresses"), host=repr(host), address=address)
    return Destination(url=url, scheme=parts.scheme, host=host, port=port,
                       addresses=tuple(dict.fromkeys(addresses)), allowed_by_operator=allowed)
