"""Request bodies (pydantic). Responses are plain dicts documented in docs/api.md."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RegisterIn(Strict):
    username: str = Field(..., examples=["grant"])
    password: str = Field(..., examples=["correct horse battery"])
    email: str | None = None
    language: str | None = Field(None, max_length=16, description="en, hu or de: the language of the pages and "
                                 "mails (default: the hd_lang cookie, else Accept-Language, else the browser's "
                                 "choice each time)")


class LoginIn(Strict):
    username: str
    password: str


class TokenIn(Strict):
    name: str | None = Field(None, max_length=64)
    scope: Literal["bot"] | None = Field(None, description='"bot": a token for the bot API (bot accounts only)')


class OpponentIn(Strict):
    computer: Literal["easy", "normal", "hard", "expert"] = Field(..., description="the computer takes the other "
                                                                                   "seat at this level; the game "
                                                                                   "starts at once")


class CreateGameIn(Strict):
    scenario: str = Field("1861", examples=["1861"])
    options: list[str] = Field(default_factory=list)
    side: Literal["union", "confederate", "random"] = "random"
    mode: Literal["live", "async"] = "live"
    private: bool = False
    days_per_move: int | None = Field(None, ge=1, le=14, description="by-turn games: days each player has "
                                                                     "to move after the game starts waiting "
                                                                     "for them (none: no limit)")
    rated: bool = Field(False, description="a rated game changes both players' ratings when it ends")
    opponent: OpponentIn | None = Field(None, description="play the computer instead of waiting for a person")


class JoinIn(Strict):
    side: Literal["union", "confederate"] | None = None
    invite: str | None = None


class ActionIn(Strict):
    action: dict[str, Any] = Field(..., description="one of the dicts from GET /api/games/{id}/legal",
                                   examples=[{"type": "roll_marches"}])
    expected_seq: int | None = Field(None, description="the game's seq as the client last saw it; "
                                                       "409 stale if it moved on")
    action_id: str | None = Field(None, max_length=64, description="client-chosen id: a retry with the same id "
                                                                   "returns the first result")


class UndoIn(Strict):
    expected_seq: int | None = None
    action_id: str | None = Field(None, max_length=64)


# play by turn
class PrefsIn(Strict):
    mail_mode: str | None = Field(None, description="turn | digest | never")
    email: str | None = Field(None, max_length=254)
    time_zone: str | None = Field(None, max_length=64, description="IANA name, e.g. Europe/Paris: deadlines in mails")
    digest_hour: int | None = Field(None, description="0-23: the hour, in time_zone, the daily digest comes")


class WebhookIn(Strict):
    url: str = Field(..., max_length=1000)
    json_key: str = Field("content", min_length=1, max_length=64)
    prefix: str = Field("", max_length=200)
    enabled: bool = True


class VacationIn(Strict):
    days: int = Field(..., ge=1, strict=True, description="whole days: the vacation ends at the days-th "
                      "midnight from now, in the account's time zone")


class ExtendIn(Strict):
    days: int = Field(1, ge=1, le=14)


class OrdersIn(Strict):
    orders: dict[str, Any] | None


class ReadIn(Strict):
    ids: list[int] | None = None


class TakeoverIn(Strict):
    level: Literal["easy", "normal", "hard", "expert"] = "normal"


# accounts: passwords and sessions (app.http.passwords)
class PasswordChangeIn(Strict):
    current_password: str = Field(..., max_length=200)
    new_password: str = Field(..., description="8 to 200 characters")


class ResetRequestIn(Strict):
    email: str = Field(..., max_length=254)


class ResetConfirmIn(Strict):
    token: str = Field(..., max_length=200, description="the t= of the link in the mail")
    new_password: str = Field(..., description="8 to 200 characters")
