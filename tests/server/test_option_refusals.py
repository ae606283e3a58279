"""What the create form greys out: the options creating the game would refuse, with the
engine's reason, for the scenario and the options ticked so far."""
from __future__ import annotations

import httpx

from .helpers import Player


def test_option_refusals_follow_the_engine(server):
    url = f"{server.base}/api/options/refusals"
    r = httpx.get(url, params={"scenario": "1861"})
    assert r.status_code == 200 and r.json()["refused"] == {}
    r = httpx.get(url, params=[("scenario", "1861"), ("chosen", "11.3:1862")])
    refused = r.json()["refused"]
    assert set(refused) == {"11.3:1863", "11.3:1864", "11.3:sudden-death"}
    assert "at most one" in refused["11.3:1863"] and "Campaign Game ending" in refused["11.3:sudden-death"]
    # a ticked option that does not go with the scenario is named too
    r = httpx.get(url, params=[("scenario", "1863"), ("chosen", "11.3:1862"), ("chosen", "4.8")])
    assert r.json()["refused"] == {"11.3:1862": "the 1863 scenario starts after 03/1862 (11.3)"}
    # what the form greys out is exactly what creating the game refuses
    p = Player(server.base)
    c = p.http.post("/api/games", json={"scenario": "1861", "side": "union", "mode": "live",
                                        "options": ["11.3:1862", "11.3:sudden-death"]})
    assert c.status_code == 422 and c.json()["detail"] == refused["11.3:sudden-death"]
    # bad input: a clear 422
    for params in ({"scenario": "1999"}, {}):
        r = httpx.get(url, params=params)
        assert r.status_code == 422, r.text
    r = httpx.get(url, params=[("scenario", "1861"), ("chosen", "no-such-option")])
    assert r.status_code == 200 and r.json()["refused"] == {}
