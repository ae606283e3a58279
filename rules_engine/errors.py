"""The one exception the engine raises for a refused action, and the reasons it gives.

A reason is an English sentence written as a template with its values,
``because("{unit} is not yours to move.", unit=unit)``: as a string it is the English
sentence, and it keeps the template and the values so that a server can say it in
another language (the site's gettext catalogues find each template by the name
``because``). The engine itself never translates and depends on nothing outside it."""
from __future__ import annotations

import functools
from typing import Any


class Word(str):
    """A value of a reason that is itself a word a server may translate (a side's name,
    a phase's): a word its catalogues do not hold is said as written."""


class Reason(str):
    """A refusal's English sentence, with the template and values it was made from."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, params: dict[str, Any]) -> Reason:
        # str.format_map: the legal-action lists ask for reasons often, and it is quick
        reason = super().__new__(cls, template.format_map(params) if params else template)
        reason.template = template
        reason.params = params
        return reason

    def __getnewargs__(self) -> tuple[str, dict[str, Any]]:  # type: ignore[override]
        return self.template, self.params  # copies and pickles are made from the template again


def because(template: str, **params: Any) -> Reason:
    """A reason: ``template`` with its ``{name}`` places filled from ``params`` (every
    place needs its value; a template with values holds no other braces)."""
    return Reason(template, params) if params else _constant(template)


@functools.cache
def _constant(template: str) -> Reason:
    """A reason without values is made once: the legal-action lists ask for many."""
    return Reason(template, {})


class IllegalAction(Exception):
    """An action the rules do not allow now. ``reason`` is readable by a player
    and names the rule where one applies; the game is left unchanged. ``str()`` is
    the English sentence; ``template`` and ``params`` are what it was made from."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
        self.template: str = getattr(reason, "template", reason)
        self.params: dict[str, Any] = dict(getattr(reason, "params", {}))
