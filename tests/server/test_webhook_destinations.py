"""Webhooks reach only public addresses: refused when saved, again when sent (the name
may resolve elsewhere by then) and on every redirect; the far side's answer is never
stored or shown. Real listeners on loopback stand in for the internal services a
stranger would like the server to reach; the operator allow-lists "localhost" as if it
were a public chat server."""
from __future__ import annotations

import socket
import sqlite3
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from .helpers import Player, ServerProc
from .mailkit import by_turn_match

SECRET_PAGE = b"internal admin page: password=hunter2"


class Listener:
    """An HTTP server on 127.0.0.1 that records every request. It answers a path
    starting /redirect with 302 to `redirect_to`, /fail with 500 and a body that must
    never be shown, anything else with 204."""

    def __init__(self, redirect_to: str = ""):
        self.hits: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("content-length") or 0))
                outer.hits.append(self.path)
                if self.path.startswith("/redirect"):
                    self.send_response(302)
                    self.send_header("Location", redirect_to)
                    self.send_header("content-length", "0")
                    self.end_headers()
                elif self.path.startswith("/fail"):
                    self.send_response(500)
                    self.send_header("content-length", str(len(SECRET_PAGE)))
                    self.end_headers()
                    self.wfile.write(SECRET_PAGE)
                else:
                    self.send_response(204)
                    self.end_headers()

            def log_message(self, *args):
                pass

        self.srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.srv.server_address[1]
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()

    def close(self):
        self.srv.shutdown()
        self.srv.server_close()


@pytest.fixture(scope="module")
def hook_server(tmp_path_factory):
    path = tmp_path_factory.mktemp("hooks") / "hd.sqlite3"
    srv = ServerProc(f"sqlite:///{path}", log_dir=path.parent, webhook_allow_hosts="localhost",
                     mail_poll_seconds=0.1, mail_retry_seconds=0.2).start()
    srv.db_path = path
    yield srv
    srv.stop()


@pytest.fixture
def internal():
    """The internal service nobody outside may reach."""
    listener = Listener()
    yield listener
    listener.close()


def _loopback_names() -> list[str]:
    """Names of this machine that resolve to a loopback address (other than the allowed one)."""
    names = []
    for name in {socket.gethostname(), "ip6-localhost", "localhost.localdomain"}:
        try:
            addresses = {info[4][0] for info in socket.getaddrinfo(name, 80)}
        except OSError:
            continue
        if addresses and all(a.startswith("127.") or a == "::1" for a in addresses) and name != "localhost":
            names.append(name)
    return names


def _wait_for_error(p: Player, timeout: float = 10.0) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        hook = p.http.get("/api/me/notifications").json()["webhook"]
        if hook["last_error"]:
            return hook
        time.sleep(0.05)
    raise AssertionError("the webhook delivery never failed")


def test_local_private_and_metadata_addresses_are_refused_when_saved(hook_server, internal):
    p = Player(hook_server.base)
    port = internal.port
    urls = [f"http://127.0.0.1:{port}/hook", f"http://[::1]:{port}/hook", f"http://0.0.0.0:{port}/hook",
            f"http://2130706433:{port}/hook", f"http://0x7f.1:{port}/hook", "http://10.0.0.7/hook",
            "http://192.168.1.1/hook", "http://169.254.169.254/latest/meta-data/",
            f"http://[::ffff:127.0.0.1]:{port}/hook"]
    urls += [f"http://{name}:{port}/hook" for name in _loopback_names()]
    for url in urls:
        r = p.http.put("/api/me/webhook", json={"url": url})
        assert r.status_code == 422, (url, r.text)
        assert r.json()["code"] == "blocked_destination" and "public addresses" in r.json()["detail"], r.text
    assert p.http.get("/api/me/notifications").json()["webhook"] is None   # nothing was saved
    time.sleep(0.3)
    assert internal.hits == []


def test_an_address_that_turned_private_is_refused_when_sending(hook_server, internal):
    a, b = Player(hook_server.base), Player(hook_server.base)
    assert a.http.put("/api/me/webhook", json={"url": f"http://localhost:{internal.port}/ok"}).status_code == 200
    # the stored address now leads to loopback (as a name may re-resolve after it was checked)
    with sqlite3.connect(hook_server.db_path) as db:
        db.execute("UPDATE webhooks SET url = ? WHERE user_id = ?", (f"http://127.0.0.1:{internal.port}/x", a.user_id))
    r = a.http.post("/api/me/webhook/test")
    assert r.status_code == 422 and "public addresses" in r.json()["detail"], r.text
    by_turn_match(hook_server.base, a, b)          # the game waits for a: a notice is due
    hook = _wait_for_error(a)
    assert "public addresses" in hook["last_error"]
    time.sleep(0.5)
    assert internal.hits == []


def test_an_allowed_host_that_redirects_to_loopback_is_not_followed(hook_server, internal):
    allowed = Listener(redirect_to=f"http://127.0.0.1:{internal.port}/admin")
    try:
        a = Player(hook_server.base)
        r = a.http.put("/api/me/webhook", json={"url": f"http://localhost:{allowed.port}/redirect"})
        assert r.status_code == 200, r.text
        assert a.http.post("/api/me/webhook/test").status_code == 200
        hook = _wait_for_error(a)
        assert "public addresses" in hook["last_error"]
        assert allowed.hits == ["/redirect"]            # one call, the redirect not followed
        time.sleep(0.5)
        assert internal.hits == [] and allowed.hits == ["/redirect"]   # refused for good, not retried
    finally:
        allowed.close()


def test_the_answer_of_the_far_side_is_never_shown(hook_server):
    allowed = Listener()
    try:
        a = Player(hook_server.base)
        assert a.http.put("/api/me/webhook", json={"url": f"http://localhost:{allowed.port}/fail"}).status_code == 200
        assert a.http.post("/api/me/webhook/test").status_code == 200
        hook = _wait_for_error(a)
        assert hook["last_error"].endswith("HTTP 500"), hook
        for page in ("/api/me/notifications", "/settings"):
            assert "hunter2" not in a.http.get(page).text
    finally:
        allowed.close()
