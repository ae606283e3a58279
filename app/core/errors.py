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
