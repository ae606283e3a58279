"""How many websockets a stranger may hold open at once in one process.

A logged-in socket counts against its account (WS_SOCKETS_PER_ACCOUNT), wherever it
comes from; an anonymous one (a spectator) against its address (WS_SOCKETS_PER_ADDRESS).
Past the cap a new socket is refused; the ones already open stay. Used on the event loop
only (no lock), and a key is forgotten as soon as its last socket closes, so a flood of
distinct addresses leaves nothing behind.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Holder:
    """Whose cap a socket counts against: ("account", "17") or ("address", "203.0.113.9")."""
    kind: str
    key: str


class OpenSockets:
    def __init__(self, per_address: int, per_account: int):
        self.caps = {"address": per_address, "account": per_account}
        self._open: dict[Holder, int] = {}

    @staticmethod
    def holder(user_id: int | None, address: str) -> Holder:
        return Holder("account", str(user_id)) if user_id is not None else Holder("address", address)

    def take(self, holder: Holder) -> bool:
        """Count one more open socket for `holder`, unless it is at its cap (False)."""
        n = self._open.get(holder, 0)
        if n >= self.caps[holder.kind]:
            return False
        self._open[holder] = n + 1
        return True

    def give_back(self, holder: Holder) -> None:
        n = self._open.get(holder, 0) - 1
        if n > 0:
            self._open[holder] = n
        else:
            self._open.pop(holder, None)

    def count(self, holder: Holder) -> int:
        return self._open.get(holder, 0)

    def __len__(self) -> int:
        """How many holders have sockets open (what this process keeps)."""
        return len(self._open)
