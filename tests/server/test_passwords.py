"""Passwords and login sessions from the player's side: changing the password (the
current one needed; the other sessions end), resetting it through a mailed link (the
answer never says whether an address has an account; the link works once, for an hour,
and is stored only hashed), and the list of one's sessions with their last use and a
coarse "where from", each of which can be logged out. Real server processes, the real
SMTP server on loopback, on SQLite and Postgres."""
from __future__ import annotations

import re
import time

import httpx

from app.accounts.security import token_hash

from .helpers import Player
from .mailkit import body, link, verified_player
from .test_login_flood import run_sql

NEW_PASSWORD = "a much better password"


def login(base: str, username: str, password: str, address: str = "") -> httpx.Response:
    headers = {"X-Forwarded-For": address} if address else {}
    return httpx.post(base + "/api/auth/login", json={"username": username, "password": password}, headers=headers)


def bearer(base: str, token: str, address: str = "") -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}", **({"X-Forwarded-For": address} if address else {})}
    return httpx.Client(base_url=base, headers=headers, timeout=30)


def logged_in(base: str, token: str) -> bool:
    r = httpx.get(base + "/api/auth/me", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code in (200, 401), r.text
    return r.status_code == 200


def reset_link(smtp, p: Player, n: int = 1) -> str:
    mails = smtp.box.wait(p.email, n)
    assert "Reset your password" in mails[-1]["Subject"]
    assert p.username in body(mails[-1])
    return link(mails[-1], r"http://\S+/reset-password\?t=\S+")


# --------------------------------------------------------------------------- change

def test_changing_the_password_needs_the_current_one_and_ends_the_other_sessions(srv):
    p = Player(srv.base)
    phone = login(srv.base, p.username, p.password).json()["token"]
    r = p.http.post("/api/auth/password", json={"current_password": "not it", "new_password": NEW_PASSWORD})
    assert r.status_code == 403 and r.json()["code"] == "wrong_password", r.text
    r = p.http.post("/api/auth/password", json={"current_password": p.password, "new_password": "short"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_password", r.text
    assert logged_in(srv.base, phone) and login(srv.base, p.username, p.password).status_code == 200

    r = p.http.post("/api/auth/password", json={"current_password": p.password, "new_password": NEW_PASSWORD})
    assert r.status_code == 200 and r.json()["sessions_ended"] >= 2, r.text
    assert not logged_in(srv.base, phone)         # the other sessions are over
    assert logged_in(srv.base, p.token)           # the one that changed it goes on
    assert login(srv.base, p.username, p.password).status_code == 401
    assert login(srv.base, p.username, NEW_PASSWORD).status_code == 200


def test_the_settings_page_changes_the_password_with_the_csrf_token(srv):
    p = Player(srv.base)
    web = httpx.Client(base_url=srv.base)
    r = web.post("/api/auth/login", json={"username": p.username, "password": p.password})
    csrf = r.json()["csrf_token"]
    page = web.get("/settings")
    assert page.status_code == 200 and 'data-api="/api/auth/password"' in page.text
    body_ = {"current_password": p.password, "new_password": NEW_PASSWORD}
    assert web.post("/api/auth/password", json=body_).status_code == 403          # no CSRF token
    assert web.post("/api/auth/password", json=body_, headers={"X-CSRF-Token": csrf}).status_code == 200
    assert not logged_in(srv.base, p.token)
    assert "Your password is changed" in web.get("/settings?password=changed").text


# --------------------------------------------------------------------------- reset by mail

def test_a_reset_link_by_mail_sets_a_new_password_once_and_logs_everyone_out(srv, smtp):
    p = verified_player(srv.base, smtp)
    stranger = httpx.post(srv.base + "/api/auth/password-reset", json={"email": "nobody-here@example.org"})
    r = httpx.post(srv.base + "/api/auth/password-reset", json={"email": p.email.upper()})
    assert r.status_code == stranger.status_code == 202, r.text
    assert r.json() == stranger.json()            # nothing tells whether the address has an account
    url = reset_link(smtp, p)
    token = url.split("t=", 1)[1]
    stored = run_sql(srv.url, "SELECT token_hash FROM password_resets WHERE user_id = %s", p.user_id)
    assert stored == [(token_hash(token),)]       # only its hash is kept

    page = httpx.get(url)
    assert page.status_code == 200 and 'name="new_password"' in page.text and token in page.text
    r = httpx.post(srv.base + "/api/auth/password-reset/confirm", json={"token": token, "new_password": "short"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_password"
    r = httpx.post(srv.base + "/api/auth/password-reset/confirm", json={"token": token, "new_password": NEW_PASSWORD})
    assert r.status_code == 200 and r.json()["username"] == p.username, r.text
    assert not logged_in(srv.base, p.token)
    assert login(srv.base, p.username, p.password).status_code == 401
    assert login(srv.base, p.username, NEW_PASSWORD).status_code == 200
    again = httpx.post(srv.base + "/api/auth/password-reset/confirm", json={"token": token, "new_password": "x" * 9})
    assert again.status_code == 400 and again.json()["code"] == "reset_link_invalid"
    assert login(srv.base, p.username, NEW_PASSWORD).status_code == 200


def test_a_reset_link_expires_after_an_hour_and_a_newer_one_replaces_it(srv, smtp, clock):
    p = verified_player(srv.base, smtp)
    assert httpx.post(srv.base + "/api/auth/password-reset", json={"email": p.email}).status_code == 202
    first = reset_link(smtp, p, 1).split("t=", 1)[1]
    assert httpx.post(srv.base + "/api/auth/password-reset", json={"email": p.email}).status_code == 202
    second = reset_link(smtp, p, 2).split("t=", 1)[1]
    confirm = srv.base + "/api/auth/password-reset/confirm"
    r = httpx.post(confirm, json={"token": first, "new_password": NEW_PASSWORD})
    assert r.status_code == 400 and r.json()["code"] == "reset_link_invalid"
    clock.advance(61 * 60)
    r = httpx.post(confirm, json={"token": second, "new_password": NEW_PASSWORD})
    assert r.status_code == 400 and "expired" in r.json()["detail"]
    assert login(srv.base, p.username, p.password).status_code == 200   # nothing changed
    for bad in ("", "x" * 201, "not-a-token"):
        r = httpx.post(confirm, json={"token": bad, "new_password": NEW_PASSWORD})
        assert r.status_code in (400, 422) and r.json()["code"] in ("reset_link_invalid", "invalid_request")


def test_no_reset_mail_to_an_unconfirmed_address_and_a_clear_answer_to_a_malformed_one(srv, smtp):
    p = Player(srv.base)
    address = f"{p.username}@example.org"
    assert p.http.put("/api/me/notifications", json={"email": address}).status_code == 200
    smtp.box.wait(address, 1)                      # the confirmation mail, not confirmed
    assert httpx.post(srv.base + "/api/auth/password-reset", json={"email": address}).status_code == 202
    r = httpx.post(srv.base + "/api/auth/password-reset", json={"email": "not an address"})
    assert r.status_code == 422, r.text
    r = httpx.post(srv.base + "/api/auth/password-reset", json={})
    assert r.status_code == 422, r.text
    time.sleep(1.0)                                # the worker sends within 0.1 s
    assert [m["Subject"] for m in smtp.box.to(address) if "password" in str(m["Subject"]).lower()] == []


def test_the_reset_mail_speaks_the_account_language(srv, smtp):
    p = verified_player(srv.base, smtp)
    assert p.http.post("/api/language", json={"language": "hu"}).status_code == 200
    assert httpx.post(srv.base + "/api/auth/password-reset", json={"email": p.email}).status_code == 202
    [m] = smtp.box.wait(p.email, 1)
    assert "Jelszó visszaállítása" in m["Subject"] and "Válassz új jelszót" in body(m)


def test_the_forgotten_password_pages(srv):
    page = httpx.get(srv.base + "/login")
    assert 'href="/password-reset"' in page.text
    ask = httpx.get(srv.base + "/password-reset", cookies={"hd_lang": "de"})
    assert ask.status_code == 200 and "Passwort vergessen" in ask.text and 'name="email"' in ask.text
    sent = httpx.get(srv.base + "/password-reset?sent=1")
    assert "If an account has this confirmed address" in sent.text


# --------------------------------------------------------------------------- sessions

def test_my_sessions_with_last_use_and_where_from_and_logging_them_out(srv):
    p = Player(srv.base)
    home = bearer(srv.base, login(srv.base, p.username, p.password, "203.0.113.57").json()["token"], "203.0.113.57")
    phone_token = login(srv.base, p.username, p.password, "198.51.100.23").json()["token"]
    phone = bearer(srv.base, phone_token, "198.51.100.23")
    assert phone.get("/api/auth/me").status_code == 200
    listed = home.get("/api/auth/sessions").json()["sessions"]
    assert len(listed) == 3                         # registration, home, phone
    assert listed[0]["current"] and listed[0]["where"] == "203.0.113.0/24"
    assert [s["where"] for s in listed if not s["current"]].count("198.51.100.0/24") == 1
    assert all(s["last_used_at"] and s["created_at"] for s in listed)
    phone_id = next(s["id"] for s in listed if s["where"] == "198.51.100.0/24")

    stranger = Player(srv.base)
    r = stranger.http.delete(f"/api/auth/sessions/{phone_id}")
    assert r.status_code == 404 and r.json()["code"] == "not_found"   # not theirs to end
    assert phone.get("/api/auth/me").status_code == 200
    assert home.delete(f"/api/auth/sessions/{phone_id}").status_code == 200
    assert phone.get("/api/auth/me").status_code == 401
    assert home.delete(f"/api/auth/sessions/{phone_id}").status_code == 404
    assert home.delete("/api/auth/sessions/not-a-number").status_code == 422

    r = home.post("/api/auth/sessions/logout-others")
    assert r.status_code == 200 and r.json()["ended"] == 1      # the registration's session
    assert not logged_in(srv.base, p.token)
    assert [s["current"] for s in home.get("/api/auth/sessions").json()["sessions"]] == [True]


def test_the_settings_page_lists_the_sessions_with_log_out_buttons(srv):
    p = Player(srv.base)
    web = httpx.Client(base_url=srv.base, headers={"X-Forwarded-For": "192.0.2.77"})
    web.post("/api/auth/login", json={"username": p.username, "password": p.password})
    page = web.get("/settings").text
    assert "192.0.2.0/24" in page and "this session" in page
    assert re.search(r'data-api="/api/auth/sessions/\d+/logout"', page)     # the registration's session
    assert 'data-api="/api/auth/sessions/logout-others"' in page
