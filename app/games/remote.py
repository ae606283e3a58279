"""Moves another process made (Postgres): a cached game brought forward by the events
its announcement carries (app.games.announce), with no read and no replay, so that
this process delivers the move to its sockets and its next command on that game
starts from a current games row.

The work is only what this process's sockets need: the legal actions are worked out
only when the player to act has a socket here (the other sockets get an empty list),
the state only when a socket asks for it."""
from __future__ import annotations

from types import SimpleNamespace

from .announce import Move, Note
from .core import CommandCore
from .records import SIDES, Change, Entry


class GameBusy(Exception):
    """The game's lock is held (a command of this process runs on it): the caller that
    asked not to wait runs remote_change again where it may wait (GameService.call)."""


class RemoteMoves(CommandCore):
    """The game service's half: a cached game brought forward by an announced move."""

    def remote_change(self, note: Note, want_state: bool, want_legal: bool, wait: bool = True) -> Change | None:
        """The announced move as a Change for this process's sockets, with the cached game
        (and its games row) brought forward by its events. None when the announcement
        does not carry the move, or the cached game does not stand just before it and the
        sockets want the state or legal actions: the caller then reads the move from the table.

        The legal actions are worked out only if the player to act has a socket on the
        game here (plays_here, as for this process's own moves). wait=False (on the event
        loop): raise GameBusy rather than wait for the game's lock."""
        move = note.move()
        if move is None:
            return None
        lock = self._lock(note.game_id)
        if wait:
            lock.acquire()
        elif not lock.acquire(blocking=False):
            raise GameBusy(note.game_id)
        try:
            return self._fold_announced(note, move, want_state, want_legal)
        finally:
            lock.release()

    def _fold_announced(self, note: Note, move: Move, want_state: bool, want_legal: bool) -> Change | None:
        """remote_change under the game's lock."""
        e = self._entry_before(note, move)
        game = SimpleNamespace(**(vars(e.row) if e is not None and e.row is not None else {}))
        game.id = note.game_id
        for c, v in move.row.items():
            setattr(game, c, v)
        legal_here = (want_legal and game.status == "active" and game.to_act in SIDES
                      and self.plays_here(game, game.to_act))
        if e is None and (want_state or legal_here):
            return None
        if e is not None and e.row is not None:
            e.row = game
        change = self._change(game, e, [r.out() for r in move.events], (want_state, legal_here), first=move.first)
        if want_legal and not legal_here:
            # the seated sockets here are not the side to act: their "legal" is empty
            change.legal = {side: [] for side in SIDES}
        return change

    def _entry_before(self, note: Note, move: Move) -> Entry | None:
        """The cached game brought forward by the move's events (None: not cached, or
        not just before the move)."""
        e = self.cached_state(note.game_id)
        if e is not None and e.seq == move.first - 1 and move.events:
            rows = [(r.seq, r.source, r.type, r.payload) for r in move.events]
            sides = {move.first: move.action_side} if move.action_side else {}
            if not self.bring_forward(note.game_id, e, rows, sides):
                return None
            return e
        if e is not None and e.seq != note.seq:
            return None
        return e
