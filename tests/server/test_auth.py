"""Accounts: register, log in and out, cookies with CSRF, bearer tokens."""
from __future__ import annotations

import httpx

from .helpers import Player, uname


def test_register_login_logout_and_bearer(server):
    name = uname("Grant")
    r = httpx.post(server.base + "/api/auth/register", json={"username": name, "password": "pw-12345678",
                                                              "email": "g@example.org"})
    assert r.status_code == 201
    assert r.json()["username"] == name
    # usernames are unique case-insensitively
    r = httpx.post(server.base + "/api/auth/register", json={"username": name.upper(), "password": "x" * 10})
    assert r.status_code == 409 and r.json()["code"] == "username_taken"
    # log in with any case of the name
    r = httpx.post(server.base + "/api/auth/login", json={"username": name.lower(), "password": "pw-12345678"})
    assert r.status_code == 200
    token = r.json()["token"]
    me = httpx.get(server.base + "/api/auth/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 200 and me.json()["username"] == name
    # log out ends that token
    r = httpx.post(server.base + "/api/auth/logout", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    me = httpx.get(server.base + "/api/auth/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 401


def test_bad_credentials_and_bad_input(server):
    p = Player(server.base)
    r = httpx.post(server.base + "/api/auth/login", json={"username": p.username, "password": "wrong-password"})
    assert r.status_code == 401 and r.json()["detail"]
    r = httpx.post(server.base + "/api/auth/login", json={"username": "nobody-" + uname(), "password": "whatever1"})
    assert r.status_code == 401
    r = httpx.post(server.base + "/api/auth/register", json={"username": "a b", "password": "password123"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_username"
    r = httpx.post(server.base + "/api/auth/register", json={"username": uname(), "password": "short"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_password"
    r = httpx.post(server.base + "/api/auth/register", content=b'{"username": ', headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "malformed_json"
    r = httpx.get(server.base + "/api/auth/me", headers={"Authorization": "Bearer not-a-token"})
    assert r.status_code == 401
    r = httpx.get(server.base + "/api/auth/me", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401


def test_session_cookie_and_csrf(server):
    p = Player(server.base)
    with httpx.Client(base_url=server.base) as browser:
        r = browser.post("/api/auth/login", json={"username": p.username, "password": p.password})
        assert r.status_code == 200
        cookies = r.headers.get_list("set-cookie")
        session = next(c for c in cookies if c.startswith("hd_session="))
        assert "HttpOnly" in session and "SameSite=lax" in session.replace("Lax", "lax")
        csrf_cookie = next(c for c in cookies if c.startswith("hd_csrf="))
        assert "HttpOnly" not in csrf_cookie
        csrf = r.json()["csrf_token"]
        assert browser.cookies.get("hd_csrf") == csrf
        # reading needs no CSRF token
        assert browser.get("/api/auth/me").json()["username"] == p.username
        # a state-changing request with only the cookie is refused ...
        r = browser.post("/api/games", json={"scenario": "1861", "side": "union"})
        assert r.status_code == 403 and r.json()["code"] == "csrf"
        r = browser.post("/api/games", json={"scenario": "1861", "side": "union"},
                         headers={"X-CSRF-Token": "0" * 64})
        assert r.status_code == 403
        # ... and accepted with the token echoed in the header
        r = browser.post("/api/games", json={"scenario": "1861", "side": "union"}, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 201
        # a bearer token needs no CSRF token (browsers never send it by themselves)
        r = p.http.post("/api/games", json={"scenario": "1861", "side": "union"})
        assert r.status_code == 201
        # logging out ends the cookie session
        assert browser.post("/api/auth/logout", headers={"X-CSRF-Token": csrf}).status_code == 200
        browser.cookies.clear()
        assert browser.get("/api/auth/me").status_code == 401


def test_personal_api_tokens(server):
    p = Player(server.base)
    r = p.http.post("/api/auth/tokens", json={"name": "my bot"})
    assert r.status_code == 201
    tok = r.json()["token"]
    h = {"Authorization": f"Bearer {tok}"}
    assert httpx.get(server.base + "/api/auth/me", headers=h).json()["username"] == p.username
    listed = p.http.get("/api/auth/tokens").json()["tokens"]
    assert [t["name"] for t in listed] == ["my bot"]
    assert p.http.delete(f"/api/auth/tokens/{listed[0]['id']}").status_code == 200
    assert httpx.get(server.base + "/api/auth/me", headers=h).status_code == 401


def test_no_look_alike_names_and_no_way_off_the_site_after_login(server):
    name = uname("Lee")
    assert httpx.post(server.base + "/api/auth/register",
                      json={"username": name, "password": "password123"}).status_code == 201
    # "$" would have let a trailing newline through; a full-width spelling is the same name
    r = httpx.post(server.base + "/api/auth/register", json={"username": name + "\n", "password": "password123"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_username"
    wide = "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in name)
    r = httpx.post(server.base + "/api/auth/login", json={"username": wide, "password": "password123"})
    assert r.status_code == 200
    # /login?next=/%5Cevil.example/x would have sent the browser to evil.example
    for target in ("/%5Cevil.example/x", "//evil.example/x", "https://evil.example/"):
        page = httpx.get(server.base + "/login", params={"next": target.replace("%5C", "\\")}).text
        assert 'data-next="/"' in page, target
    assert 'data-next="/games/x"' in httpx.get(server.base + "/login", params={"next": "/games/x"}).text
