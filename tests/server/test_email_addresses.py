"""Which email addresses the site takes (app.guard.emails): the same check, with the
same reasons, at registration and in the settings; a refused address changes nothing."""
from __future__ import annotations

import httpx
import pytest

from app.core.errors import ApiError
from app.guard.emails import checked_email

from .helpers import Player, uname

ACCEPTED = [
    ("alice@example.org", "alice@example.org"),
    ("  Bob.Smith@Example.ORG ", "Bob.Smith@example.org"),          # spaces around, domain lower-cased
    ("first.last+games@mail.example.co.uk", "first.last+games@mail.example.co.uk"),
    ("o'brien@example.ie", "o'brien@example.ie"),
    ("x@a-b.example", "x@a-b.example"),
    ("user_1!#$%&*=?^`{|}~-@example.com", "user_1!#$%&*=?^`{|}~-@example.com"),
    ("anna@bücher.example", "anna@bücher.example"),                 # an international domain name
    ("a" * 64 + "@" + "b" * 63 + ".org", "a" * 64 + "@" + "b" * 63 + ".org"),
]

REFUSED = [
    ("", "empty"),
    ("   ", "empty"),
    ("alice", "needs an @"),
    ("alice.example.org", "needs an @"),
    ("alice@@example.org", "one @"),
    ("a@b@example.org", "one @"),
    ("@example.org", "before the @ is empty"),
    ("alice@", "after the @ is empty"),
    ("al ice@example.org", "no spaces"),
    ("alice@exa mple.org", "no spaces"),
    ("alice\n@example.org", "no spaces"),
    ("alice@example.org\x00", "control characters"),
    (".alice@example.org", "start or end with a dot"),
    ("alice.@example.org", "start or end with a dot"),
    ("al..ice@example.org", "two dots in a row"),
    ('"al ice"@example.org', "no spaces"),
    ('"alice"@example.org', "may hold letters"),
    ("ali(comment)ce@example.org", "may hold letters"),
    ("a" * 65 + "@example.org", "at most 64"),
    ("alice@localhost", "needs a dot"),
    ("alice@[127.0.0.1]", "not an address in brackets"),
    ("alice@127.0.0.1", "not a numeric address"),
    ("alice@-example.org", "hyphen"),
    ("alice@example..org", "two dots in a row"),
    ("alice@" + "b" * 64 + ".org", "1 to 63"),
    ("a" * 60 + "@" + ("b" * 60 + ".") * 4 + "org", "at most 254"),
]


@pytest.mark.parametrize("raw, stored", ACCEPTED)
def test_accepted_addresses(raw, stored):
    assert checked_email(raw) == stored


@pytest.mark.parametrize("raw, reason", REFUSED)
def test_refused_addresses_say_why(raw, reason):
    with pytest.raises(ApiError) as err:
        checked_email(raw)
    assert err.value.status == 422 and err.value.code == "invalid_email"
    assert reason in err.value.detail, err.value.detail


def test_the_table_covers_enough_cases():
    assert len(ACCEPTED) >= 8 and len(REFUSED) >= 24


def test_registration_and_settings_refuse_the_same_addresses_and_change_nothing(server):
    for raw, reason in REFUSED[2:8]:
        name = uname()
        r = httpx.post(server.base + "/api/auth/register",
                       json={"username": name, "password": "password123", "email": raw})
        assert r.status_code == 422 and r.json()["code"] == "invalid_email", r.text
        assert reason in r.json()["detail"]
        # nothing was created: the name is still free
        r = httpx.post(server.base + "/api/auth/register", json={"username": name, "password": "password123"})
        assert r.status_code == 201, r.text
    p = Player(server.base)
    r = p.http.put("/api/me/notifications", json={"email": "  Carol@Example.ORG", "mail_mode": "turn"})
    assert r.status_code == 200 and r.json()["email"] == "Carol@example.org", r.text
    for raw, reason in REFUSED[8:14]:
        r = p.http.put("/api/me/notifications", json={"email": raw, "mail_mode": "never"})
        assert r.status_code == 422 and r.json()["code"] == "invalid_email" and reason in r.json()["detail"]
    after = p.http.get("/api/me/notifications").json()
    assert after["email"] == "Carol@example.org" and after["mail_mode"] == "turn"
    # an empty address still removes it
    r = p.http.put("/api/me/notifications", json={"email": ""})
    assert r.status_code == 200 and r.json()["email"] is None
