"""One error type for the whole API: a status, a machine code and a reason people read.

A reason is written in English; one marked for the catalogues (`N_` at the raise, with
its values in `params`) is answered in the reader's language (app.http.refusals)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..i18n.catalogs import N_, fill


class Term(str):
    """A value of a refusal that is itself a word of the catalogues (a side's name): it
    is said in the reader's language too."""


class ApiError(Exception):
    def __init__(self, status: int, detail: str, code: str = "error", params: Mapping[str, Any] | None = None):
        self.status = status
        self.message = detail  # as written at the raise: the msgid of a marked reason
        self.params = dict(params or {})
        self.detail = fill(detail, self.params) if self.params else detail
        self.code = code
        super().__init__(self.detail)

    def as_dict(self) -> dict:
        return {"detail": self.detail, "code": self.code, "status": self.status}


NOT_FOUND = {"game": N_("no such game"), "dispute": N_("no such dispute"), "player": N_("no such player")}


def engine_refusal(reason: Any, status: int = 422, code: str = "invalid_request") -> ApiError:
    """The rules engine's reason for refusing (the message of its ValueError about a new
    game's scenario or options) as a refusal: its template and values when it gives them
    (rules_engine.errors.Reason), so it is said in the reader's language too."""
    template = getattr(reason, "template", None)
    if template is None:
        return ApiError(status, str(reason), code)
    return ApiError(status, template, code, reason.params)


def not_found(what: str = "game") -> ApiError:
    return ApiError(404, NOT_FOUND[what], "not_found")


def out_of_range() -> ApiError:
    """A number beyond what the database stores (64 bits), or text it refuses (NUL on
    Postgres): the query failed and its transaction was rolled back, nothing changed."""
    return ApiError(422, N_("a value in the request is out of range: numbers are at most 64 bits and text may "
                            "not contain NUL characters"), "out_of_range")
