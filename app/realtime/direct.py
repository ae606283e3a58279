"""Writing a frame to a socket without its transport's bookkeeping.

A burst of changes is written to hundreds of watchers' sockets; each write is a system
call, and the transport's own write path (its buffer, its checks) adds a few microseconds
per socket on top. When the transport holds nothing unsent, the bytes can go straight to
the socket in one system call, and only what the socket does not take at once is handed
to the transport, which sends it after them.
"""
from __future__ import annotations

import os
from typing import Any


def direct_fd(transport: Any) -> int:
    """The file descriptor of a transport's plain (TCP or Unix) socket, or -1 when the
    bytes must go through the transport (no socket, or TLS)."""
    get = getattr(transport, "get_extra_info", None)
    if get is None or get("sslcontext") is not None or get("ssl_object") is not None:
        return -1
    sock = get("socket")
    try:
        return int(sock.fileno()) if sock is not None else -1
    except (AttributeError, OSError, ValueError):
        return -1


def write_frame(transport: Any, fd: int, data: bytes) -> None:
    """Write to a socket whose transport has nothing unsent and is not closing.

    With fd >= 0 the bytes go straight to the socket in one system call, without the
    transport's bookkeeping (a few microseconds per socket, which count when a burst is
    written to hundreds of watchers); whatever the socket does not take at once (a full
    send buffer, or an error the transport then reports as usual) is handed to the
    transport, which sends it after those bytes. Anything written to this socket later
    goes through the transport while it holds unsent bytes, so the order is kept."""
    if fd < 0:
        transport.write(data)
        return
    try:
        sent = os.write(fd, data)
    except OSError:
        sent = 0
    if sent < len(data):
        transport.write(data[sent:] if sent else data)
