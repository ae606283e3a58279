"""The compiled engine (rules_engine/native.py) against the pure one: the same random
games, played in two processes, one importing the compiled build and one the .py files
(RULES_ENGINE_PURE=1), offer the same legal actions, refuse the same near misses with
the same words, record the same events and reach the same final states, for every
scenario, engine version and kind of option set. And a build that no longer matches its
sources, or this Python, is not used.

Without a build the comparison skips, unless REQUIRE_NATIVE_ENGINE=1 (CI builds one):
then it fails."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine import native

ROOT = Path(__file__).resolve().parents[2]
DECISIONS_PER_GAME = 2000           # whole games: the longest random game here has about 1,300

# Run in a fresh process: prints whether the engine it imported is compiled, then a
# digest of everything the engine said while playing.
PLAY = r"""
import hashlib, json, random, sys
import rules_engine
from rules_engine import native
from rules_engine.options import IMPLEMENTED
from rules_engine.map import scenario_ids

rule_options = sorted(o for o in IMPLEMENTED if not o.startswith("11.3"))
digest = hashlib.sha256()

def note(value):
    digest.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())

def near_miss(action, legal, rng):
    # a legal action with one argument taken from another legal action (or made up)
    keys = [k for k in action if k != "type"]
    if not keys:
        return {"type": rng.choice(["end_movement", "roll_marches", "no_such_action"])}
    key = rng.choice(keys)
    others = [a[key] for a in legal if key in a and a[key] != action[key]]
    return dict(action, **{key: rng.choice(others) if others else "nowhere"})

for engine in rules_engine.DATA_VERSIONS:
    for scenario in scenario_ids(engine):
        for options in ([], rule_options):
            rng = random.Random(f"{engine}-{scenario}-{len(options)}")
            g = rules_engine.new_game(scenario, options=options, seed=f"native-{scenario}", engine=engine)
            for _ in range(DECISIONS):
                if g.result is not None:
                    break
                legal = g.legal_actions()
                note(legal)
                miss = near_miss(rng.choice(legal), legal, rng)
                if miss not in legal:
                    try:
                        g.apply(miss)
                    except rules_engine.IllegalAction as refusal:
                        note(str(refusal))
                g.apply(rng.choice(legal))
            note(g.events)
            note(g.state())
            again = rules_engine.replay(g.header, g.events)
            note(again.state() == g.state())
print(json.dumps({"compiled": native.is_compiled(), "digest": digest.hexdigest()}))
"""


def play_in_process(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    if pure:
        env[native.PURE_ENV] = "1"
    script = PLAY.replace("DECISIONS", str(DECISIONS_PER_GAME))
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600, check=True)
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.slow   # every scenario, both engines, in two processes
def test_the_compiled_engine_plays_exactly_as_the_pure_one() -> None:
    if native.stale_reason() is not None:
        message = f"no current compiled engine: {native.stale_reason()}"
        if os.environ.get("REQUIRE_NATIVE_ENGINE") == "1":
            pytest.fail(message + " (REQUIRE_NATIVE_ENGINE=1)")
        pytest.skip(message)
    compiled, pure = play_in_process(pure=False), play_in_process(pure=True)
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert compiled["digest"] == pure["digest"]


def _current_build(tmp_path: Path) -> Path:
    """A build folder whose manifest matches this Python and today's sources."""
    manifest = {**native._this_python(), "sources": native._source_hashes(), "cython": "test"}
    (tmp_path / native.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return tmp_path


def _edit_manifest(build: Path, **changes: object) -> None:
    path = build / native.MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest.update(changes)
    path.write_text(json.dumps(manifest), encoding="utf-8")


def test_a_build_is_used_only_while_it_matches_its_sources_and_this_python(tmp_path: Path) -> None:
    build = _current_build(tmp_path)
    assert native.stale_reason(build) is None

    sources = native._source_hashes()
    _edit_manifest(build, sources=dict(sources, movement="0" * 64))
    assert native.stale_reason(build) == "sources changed since the build: movement"

    del sources["combat"]                 # a module added to the package since the build
    _edit_manifest(build, sources=sources)
    assert native.stale_reason(build) == "sources changed since the build: combat"

    _edit_manifest(build, sources=native._source_hashes(), python="cpython-312")
    assert "another Python" in str(native.stale_reason(build))

    (build / native.MANIFEST).write_text("{", encoding="utf-8")
    assert "unreadable" in str(native.stale_reason(build))

    shutil.rmtree(build)
    assert "no compiled build" in str(native.stale_reason(build))


def test_the_pure_engine_is_imported_when_asked_for_or_when_the_build_is_stale(monkeypatch) -> None:
    package_path = [str(ROOT / "rules_engine")]
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.search_path(package_path) == package_path
    monkeypatch.delenv(native.PURE_ENV)
    monkeypatch.setattr(native, "stale_reason", lambda build_dir=native.BUILD_DIR: "stale")
    assert native.search_path(package_path) == package_path
    monkeypatch.setattr(native, "stale_reason", lambda build_dir=native.BUILD_DIR: None)
    assert native.search_path(package_path) == [str(native.BUILD_DIR), *package_path]
