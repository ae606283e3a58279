"""One error type for the whole API: a status, a machine code and a reason people read."""
from __future__ import annotations


class ApiError(Exception):
    def __init__(self, status: int, detail: str, code: str = "error"):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.code = code

    def as_dict(self) -> dict:
        return {"detail": self.detail, "code": self.code, "status": self.status}


def not_found(what: str = "game") -> ApiError:
    return ApiError(404, f"no such {what}", "not_found")


def out_of_range() -> ApiError:
    """A number beyond what the database stores (64 bits), or text it refuses (NUL on
    Postgres): the query failed and its transaction was rolled back, nothing changed."""
    return ApiError(422, "a value in the request is out of range: numbers are at most 64 bits and text may "
                         "not contain NUL characters", "out_of_range")
