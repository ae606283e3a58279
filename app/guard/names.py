"""Which user names and which after-login links the site accepts."""
from __future__ import annotations

import re
import unicodedata

from ..i18n import N_

# \Z, not $: "$" also matches before a trailing newline, so "alice\n" would pass.
USERNAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{1,31}\Z")


def username_key(name: str) -> str:
    """The form two names are compared in: "Alice", "ALICE" and the full-width "Ａlice"
    are one account (NFKC, then case-folded)."""
    return unicodedata.normalize("NFKC", name).casefold()


def username_problem(name: str) -> str | None:
    """Why a new user name is refused, or None."""
    if not USERNAME_RE.match(name):
        return N_("a user name is 2-32 letters, digits, '.', '_' or '-', starting with a letter or digit")
    return None


def safe_next(target: str | None) -> str:
    """Where to go after logging in: a path on this site, never another host.
    Browsers read "\\" as "/" and skip tabs and newlines, so "/\\evil.example" and
    "/\\t/evil.example" lead off-site; anything unusual goes to the front page."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    if any(c == "\\" or ord(c) < 0x20 or ord(c) == 0x7F for c in target):
        return "/"
    return target
