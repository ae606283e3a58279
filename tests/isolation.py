"""What keeps parallel test workers (pytest-xdist, `-n 2`) apart: each worker has a name
of its own, its own Postgres database names, its own band of TCP ports for the servers it
starts, and (through pytest's tmp_path, which xdist gives each worker separately) its own
SQLite files, clock files and logs.

Ports: a port that a test asks the system for (bind to port 0) and then hands to a server
process is free only until someone else takes it; with two workers starting servers side
by side, and both making outgoing connections whose local ports the system picks from its
ephemeral range, two of them could meet. So each worker picks its servers' ports from a
band of its own below the ephemeral range (32768 and up on Linux), never the same one twice
while another is left, and checks each is free before handing it out.
"""
from __future__ import annotations

import os
import random
import re
import socket

# below Linux's default ephemeral range (32768-60999), where outgoing connections get theirs
PORT_FLOOR = 12000
PORT_BAND = 2000          # ports per worker; workers past the tenth share bands with the first ones
PORT_BANDS = 10


def worker_name() -> str:
    """'gw0', 'gw1', ... under pytest-xdist; 'main' in a run without workers."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def worker_index() -> int:
    m = re.fullmatch(r"gw(\d+)", worker_name())
    return int(m.group(1)) if m else 0


class _PortBand:
    """This worker's ports, handed out in turn from a random start (so that a second test run
    on the same machine most likely starts elsewhere in the band)."""

    def __init__(self, index: int):
        self.low = PORT_FLOOR + (index % PORT_BANDS) * PORT_BAND
        self.next = self.low + random.randrange(PORT_BAND)

    def take(self) -> int:
        for _ in range(PORT_BAND):
            port = self.next
            self.next = self.low + (self.next - self.low + 1) % PORT_BAND
            if _bindable(port):
                return port
        raise RuntimeError(f"no free port in {self.low}-{self.low + PORT_BAND - 1}")


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


_band: _PortBand | None = None


def free_port() -> int:
    """A free TCP port on 127.0.0.1 from this worker's band, for a server to listen on."""
    global _band
    if _band is None:
        _band = _PortBand(worker_index())
    return _band.take()


def database_name(kind: str = "hd_test") -> str:
    """A new Postgres database name that says which worker made it (and is unique)."""
    import uuid
    return f"{kind}_{worker_name()}_{uuid.uuid4().hex[:10]}"
