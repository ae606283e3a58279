"""The one exception the engine raises for a refused action."""


class IllegalAction(Exception):
    """An action the rules do not allow now. ``reason`` is readable by a player
    and names the rule where one applies; the game is left unchanged."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
