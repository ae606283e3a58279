"""Mail players can trust: the confirmation at registration, threads per game, muted
games, unsubscribing that mail scanners cannot trigger, and signed webhooks. Against a
real SMTP server (aiosmtpd) and real server processes."""
from __future__ import annotations

import time

import httpx

from .helpers import uname
from .mailkit import body, link


def test_registering_with_an_address_mails_the_confirmation_at_once(srv, smtp):
    name = uname()
    address = f"{name}@example.org"
    r = httpx.post(srv.base + "/api/auth/register", json={"username": name, "password": "password123",
                                                           "email": address})
    assert r.status_code == 201, r.text
    [m] = smtp.box.wait(address, 1)
    assert "Confirm" in m["Subject"] and f"for the account {name}" in body(m)
    r = httpx.get(link(m, r"http://\S+/verify-email\?t=\S+"))
    assert r.status_code == 200 and "confirmed" in r.text
    me = httpx.get(srv.base + "/api/me/notifications",
                   headers={"Authorization": f"Bearer {login_token(srv, name)}"}).json()
    assert me["email_verified"] is True


def login_token(srv, name: str) -> str:
    r = httpx.post(srv.base + "/api/auth/login", json={"username": name, "password": "password123"})
    assert r.status_code == 200, r.text
    return r.json()["token"]


def test_registering_without_an_address_sends_nothing(srv, smtp):
    before = len(smtp.box.messages)
    p_name = uname()
    r = httpx.post(srv.base + "/api/auth/register", json={"username": p_name, "password": "password123"})
    assert r.status_code == 201
    time.sleep(0.4)
    assert len(smtp.box.messages) == before
