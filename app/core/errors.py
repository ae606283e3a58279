"""One error type for the whole API: a status, a machine code and a reason people read.

A reason is written in English; one marked for the catalogues (`N_` at the raise, with
its values in `params`) is answered in the reader's language (app.http.refusals)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..i18n.catalogs import fill


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


def not_found(what: str = "game") -> ApiError:
    return ApiError(404, f"no such {what}", "not_found")


def out_of_range() -> ApiError:
    """A number beyond what the database stores (64 bits), or text it refuses (NUL on
    Postgres): the query failed and its transaction was rolled back, nothing changed."""
    return ApiError(422, "a value in the request is out of range: numbers are at most 64 bits and text may "
                         "not contain NUL characters", "out_of_range")
