"""The computer's levels as the site offers them, with each level's ladder Elo once one
has been measured (rules_engine.ai.ladder: rules_engine/ai/data/ladder.json, or the file
COMPUTER_LADDER_FILE names)."""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from rules_engine.ai.ladder import published_elo

from ..i18n import N_

log = logging.getLogger("app.computer")

#: The levels a person may play against, weakest first (rules_engine.ai, docs/ai.md).
LEVELS = ("easy", "normal", "hard", "expert")
#: The level a hint comes from: the strongest.
HINT_LEVEL = "expert"
#: The level the lobby's form starts at, and the one a left seat goes to by default.
DEFAULT_LEVEL = "normal"
NAMES = {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard"), "expert": N_("Expert")}


def ladder(path: str | None = None) -> dict[str, dict[str, int]]:
    """{level: {"elo", "error"}} as published (in `path`, else the engine's own ladder
    file); {} when none is (or it cannot be read)."""
    try:
        return published_elo(path or None) or {}
    except Exception:  # noqa: BLE001 - the lobby shows the names alone then
        log.exception("the computer's published Elo ratings could not be read")
        return {}


def level_label(name: str, rating: dict[str, Any] | None, t: Callable[..., str]) -> str:
    """'Expert (Elo 1450 ± 40)' in the reader's language; the name alone without a rating."""
    if not rating or rating.get("elo") is None:
        return name
    error = rating.get("error")
    if error is None:
        return t(N_("{level} (Elo {elo})"), level=name, elo=int(round(rating["elo"])))
    return t(N_("{level} (Elo {elo} ± {error})"), level=name, elo=int(round(rating["elo"])),
             error=int(round(error)))


def level_choices(t: Callable[..., str], ladder_file: str | None = None) -> list[dict[str, Any]]:
    """The levels of the lobby's "Play the computer" form: id, label, Elo, whether chosen."""
    elo = ladder(ladder_file)
    return [{"id": level, "label": level_label(t(NAMES[level]), elo.get(level), t),
             "elo": elo.get(level), "checked": level == DEFAULT_LEVEL} for level in LEVELS]
