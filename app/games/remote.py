"""Moves another process made (Postgres): a cached game brought forward by the events
its announcement carries (app.games.announce), with no read and no replay, so that
this process delivers the move to its sockets and its next command on that game
starts from a current games row."""
from __future__ import annotations

from types import SimpleNamespace

from .announce import Note
from .core import CommandCore
from .records import Change


class RemoteMoves(CommandCore):
    """The game service's half: a cached game brought forward by an announced move."""

    def remote_change(self, note: Note, want_state: bool, want_legal: bool) -> Change | None:
        """The announced move as a Change for this process's sockets, with the cached game
        (and its games row) brought forward by its events. None when the announcement
        does not carry the move, or the cached game does not stand just before it: the
        caller then reads the move from the table."""
        move = note.move()
        if move is None:
            return None
        with self._lock(note.game_id):
            e = self.cached_state(note.game_id)
            if e is not None and e.seq == move.first - 1 and move.events:
                rows = [(r.seq, r.source, r.type, r.payload) for r in move.events]
                sides = {move.first: move.action_side} if move.action_side else {}
                if not self.bring_forward(note.game_id, e, rows, sides):
                    e = None
            elif e is not None and e.seq != note.seq:
                e = None
            if e is None and (want_state or want_legal):
                return None
            game = SimpleNamespace(**(vars(e.row) if e is not None and e.row is not None else {}))
            game.id = note.game_id
            for c, v in move.row.items():
                setattr(game, c, v)
            if e is not None and e.row is not None:
                e.row = game
            return self._change(game, e, [r.out() for r in move.events], (want_state, want_legal), first=move.first)
