"""The abuse-resistance building blocks on their own (the server tests check them wired in)."""
from __future__ import annotations

import pytest

from app.guard.destinations import BlockedDestination, check_url, is_public
from app.guard.names import safe_next, username_key, username_problem
from app.guard.ratelimit import RateLimited, RateLimiter, parse_limits


def fixed(*addresses):
    return lambda host, port: list(addresses)


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "172.16.0.9", "192.168.1.1",
                                     "169.254.169.254", "0.0.0.0", "::1", "::", "fe80::1",
                                     "fc00::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
                                     "224.0.0.1", "100.64.0.1", "240.0.0.1",
                                     "2002:7f00:1::", "64:ff9b::a00:1"])
def test_local_private_and_reserved_addresses_are_refused(address):
    assert not is_public(address)
    with pytest.raises(BlockedDestination, match="only to public addresses"):
        check_url("https://hooks.example.org/x", resolve=fixed(address))


def test_a_name_with_one_private_address_among_public_ones_is_refused():
    with pytest.raises(BlockedDestination):
        check_url("https://hooks.example.org/x", resolve=fixed("93.184.216.34", "127.0.0.1"))


@pytest.mark.parametrize("url", ["http://2130706433/", "http://0177.0.0.1/", "http://[::1]:8000/x",
                                 "http://127.1/", "http://0x7f000001/"])
def test_numeric_spellings_of_loopback_are_refused_through_the_real_resolver(url):
    with pytest.raises(BlockedDestination):
        check_url(url)


def test_a_public_address_is_fetched_at_the_address_that_was_checked():
    d = check_url("https://Hooks.Example.org:8443/path?q=1", resolve=fixed("93.184.216.34"))
    assert (d.scheme, d.host, d.port, d.address) == ("https", "hooks.example.org", 8443, "93.184.216.34")


def test_operator_allow_list_admits_an_internal_host():
    d = check_url("http://chat.internal/hook", allow_hosts=["chat.internal"], resolve=fixed("10.0.0.5"))
    assert d.allowed_by_operator and d.address == "10.0.0.5"


@pytest.mark.parametrize("url, why", [("ftp://example.org/", "http"), ("file:///etc/passwd", "http"),
                                      ("http://user:pw@example.org/", "user name"),
                                      ("http:///nohost", "host name"), ("http://example.org:99999/", "port"),
                                      ("http://example.org:0/", "port"), ("http://example.org:x/", "port")])
def test_other_urls_are_refused_with_a_reason(url, why):
    with pytest.raises(BlockedDestination, match=why):
        check_url(url, resolve=fixed("93.184.216.34"))


def test_rate_limit_counts_per_key_and_says_when_to_retry():
    now = [0.0]
    limiter = RateLimiter(parse_limits("chat=3/60"), clock=lambda: now[0])
    for _ in range(3):
        limiter.hit("chat", "user-1")
    with pytest.raises(RateLimited) as refused:
        limiter.hit("chat", "user-1")
    assert refused.value.retry_after == 60
    limiter.hit("chat", "user-2")                   # another account is not affected
    now[0] = 60.5
    limiter.hit("chat", "user-1")                   # the window has moved on


def test_a_name_with_a_nul_does_not_resolve():
    with pytest.raises(BlockedDestination, match="does not resolve"):
        check_url("http://exa\x00mple.org/")


def test_checking_a_limit_counts_nothing():
    limiter = RateLimiter(parse_limits("login_account=2/60"), clock=lambda: 0.0)
    for _ in range(5):
        limiter.check("login_account", "name:alice")
    limiter.hit("login_account", "name:alice")
    limiter.hit("login_account", "name:alice")
    with pytest.raises(RateLimited):
        limiter.check("login_account", "name:alice")


def test_a_flood_of_keys_is_forgotten_oldest_first():
    limiter = RateLimiter(parse_limits(""), clock=lambda: 0.0, max_keys=100)
    for n in range(1000):
        limiter.hit("socket", f"10.0.{n // 250}.{n % 250}")
    assert len(limiter) <= 100


def test_tokens_in_query_strings_are_redacted():
    from app.guard.logs import redact
    assert redact("GET /unsubscribe?t=abc123 HTTP/1.1") == "GET /unsubscribe?t=[redacted] HTTP/1.1"
    assert redact("/ws/games/x?after=3&token=SECRET&state=0") == "/ws/games/x?after=3&token=[redacted]&state=0"
    assert redact("/games/x?invite=zz#top") == "/games/x?invite=[redacted]#top"
    assert redact("/api/games?view=mine&title=t") == "/api/games?view=mine&title=t"


def test_webhook_addresses_lose_their_secret_path_in_the_log(caplog):
    import logging

    from app.guard.logs import install
    install()
    hook = "https://hooks.example.org/services/T0/B0/SECRETPART"
    with caplog.at_level(logging.WARNING, logger="app.mailer"):
        logging.getLogger("app.mailer").warning("outbox %s (%s to %s) attempt %s failed: %s",
                                                7, "webhook", hook, 1, f"404 for url {hook}")
    text = caplog.text
    assert "SECRETPART" not in text
    assert "(webhook to https://hooks.example.org/[redacted]) attempt 1" in text


def test_rate_limits_from_the_environment_are_checked():
    assert parse_limits("login_account=3/10")["login_account"].events == 3
    for bad in ("nonsense=1/1", "chat=0/10", "chat=ten/60", "chat", "chat=5/nan", "chat=5/inf"):
        with pytest.raises(ValueError, match="RATE_LIMITS"):
            parse_limits(bad)


@pytest.mark.parametrize("name", ["alice\n", "a", "a" * 33, "-alice", "ali ce", "alíce", "alice\x00"])
def test_bad_user_names_are_refused(name):
    assert username_problem(name)


def test_look_alike_names_compare_equal():
    assert username_key("Alice") == username_key("ALICE") == username_key("Ａｌｉｃｅ")
    assert username_problem("alice.b-2") is None


@pytest.mark.parametrize("target", ["/\\evil.example/x", "/\\/evil.example", "//evil.example",
                                    "https://evil.example", "/\t/evil.example", "/\n/evil.example",
                                    "javascript:alert(1)", "", None])
def test_after_login_links_stay_on_the_site(target):
    # "/%5Cevil.example/x" in a query string arrives decoded, as "/\evil.example/x"
    assert safe_next(target) == "/"


def test_after_login_links_keep_ordinary_paths():
    assert safe_next("/games/abc?invite=x#top") == "/games/abc?invite=x#top"


# ------------------------------------------------------------------ middleware
async def echo_length(scope, receive, send):
    """A tiny app that reads the whole body and answers with its length."""
    size, more = 0, True
    while more:
        message = await receive()
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    await send({"type": "http.response.start", "status": 200, "headers": [(b"x-frame-options", b"SAMEORIGIN")]})
    await send({"type": "http.response.body", "body": str(size).encode()})


def client(app):
    import httpx
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")


async def test_bodies_over_the_limit_are_refused_before_they_are_read():
    from app.guard.http import BodyLimit
    async with client(BodyLimit(echo_length, limit=1000)) as c:
        assert (await c.post("/", content=b"x" * 1000)).text == "1000"
        big = await c.post("/", content=b"x" * 1001)
        assert big.status_code == 413 and "1000 bytes" in big.json()["detail"]

        async def chunks():                          # no Content-Length: counted as it streams
            for _ in range(5):
                yield b"y" * 400
        streamed = await c.post("/", content=chunks())
        assert streamed.status_code == 413


async def test_every_answer_carries_the_security_headers():
    from app.guard.http import SecurityHeaders
    async with client(SecurityHeaders(echo_length)) as c:
        r = await c.get("/")
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "same-origin"
    assert r.headers["x-frame-options"] == "SAMEORIGIN"          # an answer's own header wins


async def test_a_larger_body_is_taken_only_where_it_is_allowed():
    from app.guard.http import BodyLimit
    async with client(BodyLimit(echo_length, limit=1000, larger={"/files": 5000})) as c:
        assert (await c.post("/files", content=b"x" * 4000)).text == "4000"
        assert (await c.post("/files", content=b"x" * 5001)).status_code == 413
        assert (await c.post("/other", content=b"x" * 4000)).status_code == 413


async def test_a_server_error_is_answered_with_the_security_headers_and_no_trace():
    from app.guard.http import SecurityHeaders, ServerErrors, security_headers

    async def broken(scope, receive, send):
        raise RuntimeError("internal detail")
    async with client(SecurityHeaders(ServerErrors(broken), security_headers("https://ahd.example.org"))) as c:
        r = await c.get("/")
    assert r.status_code == 500 and r.json()["code"] == "server_error"
    assert "internal detail" not in r.text
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["strict-transport-security"].startswith("max-age=")


def test_hsts_only_for_a_site_served_over_https():
    from app.guard.http import security_headers
    assert b"strict-transport-security" in dict(security_headers("https://ahd.example.org"))
    assert b"strict-transport-security" not in dict(security_headers("http://127.0.0.1:8000"))


# ------------------------------------------------------------------ outbound, real listeners
import http.server
import threading


class _Recorder(http.server.BaseHTTPRequestHandler):
    hits: list = []
    redirect_to: str | None = None

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        type(self).hits.append((self.headers.get("host"), self.rfile.read(length)))
        if type(self).redirect_to:
            self.send_response(302)
            self.send_header("Location", type(self).redirect_to)
            self.end_headers()
            return
        body = b"secret internal page"
        self.send_response(200)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def listener():
    _Recorder.hits, _Recorder.redirect_to = [], None
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv.server_address[1]
    srv.shutdown()


def test_a_loopback_listener_is_never_reached(listener):
    from app.guard.outbound import DeliveryFailed, post_json
    for url in (f"http://127.0.0.1:{listener}/x", f"http://localhost:{listener}/x",
                f"http://2130706433:{listener}/x"):
        with pytest.raises(DeliveryFailed, match="public addresses"):
            post_json(url, {"a": 1})
    assert _Recorder.hits == []


def test_an_allowed_host_gets_the_post_and_the_answer_stays_hidden(listener):
    from app.guard.outbound import post_json
    got = post_json(f"http://localhost:{listener}/hook", {"a": 1}, allow_hosts=["localhost"])
    assert got.status == 200 and not hasattr(got, "text")
    assert _Recorder.hits == [(f"localhost:{listener}", b'{"a":1}')]


def test_a_redirect_to_a_private_address_is_refused(listener):
    from app.guard.outbound import DeliveryFailed, post_json
    _Recorder.redirect_to = f"http://127.0.0.1:{listener}/elsewhere"
    with pytest.raises(DeliveryFailed, match="public addresses"):
        post_json(f"http://localhost:{listener}/hook", {"a": 1}, allow_hosts=["localhost"])
    assert len(_Recorder.hits) == 1



def test_a_flood_of_keys_leaves_no_refusals_or_allowances_behind_past_the_cap():
    """Every key this process keeps (its window, its shared allowance, a refusal the
    shared store gave) is one entry under the same cap."""
    class Counts:      # a shared store that always has room
        takes = 0

        def take(self, *args):
            self.takes += 1
            return True
    counts = Counts()
    limiter = RateLimiter(parse_limits("action=6400/60"), clock=lambda: 0.0, wall=lambda: 0.0, max_keys=100,
                          shared=counts)
    for n in range(1000):
        limiter.hit("action", f"user:{n}")
    assert len(limiter) <= 100
    for _ in range(199):     # a kept key uses its allowance: one take per 200 events
        limiter.hit("action", "user:999")
    assert counts.takes == 1000
    limiter.hit("action", "user:999")
    assert counts.takes == 1001


def test_open_sockets_are_counted_per_holder_and_forgotten_when_closed():
    from app.guard.sockets import OpenSockets
    sockets = OpenSockets(per_address=2, per_account=1)
    crowd, player = sockets.holder(None, "203.0.113.9"), sockets.holder(7, "203.0.113.9")
    assert sockets.take(crowd) and sockets.take(crowd) and not sockets.take(crowd)
    assert sockets.take(player) and not sockets.take(player)     # the account's own cap, not the address's
    for n in range(5000):                                         # a flood of addresses, each closing again
        holder = sockets.holder(None, f"10.2.{n // 250}.{n % 250}")
        assert sockets.take(holder)
        sockets.give_back(holder)
    assert len(sockets) == 2
    sockets.give_back(crowd)
    assert sockets.take(crowd) and not sockets.take(crowd)
