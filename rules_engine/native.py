"""The engine compiled to C by Cython, and the check that decides whether it is used.

A build is a folder of extension modules, one for each module of this package, made
from the very .py files beside them: Cython compiles plain Python, so the compiled
engine decides exactly as the pure one (tests/engine/test_native.py plays random games
with both and compares every legal list, event and final state) and makes more
decisions per second (bench/engine_bench.py prints which engine it timed).

    python -m rules_engine build-native     # needs the "native" extra and a C compiler
    python -m rules_engine native-status

The package puts the build first on its import path only while the build is current:
made for this Python, from sources that have not changed since. An edited source is
therefore never shadowed by a stale build, and without a build (or with
RULES_ENGINE_PURE=1 in the environment) the engine runs its .py files as before.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
BUILD_DIR = PACKAGE_DIR / "_native"
MANIFEST = "manifest.json"
PURE_ENV = "RULES_ENGINE_PURE"
# the package's front door, the command line and this module stay Python: they run
# before a build is chosen, or build it
NOT_COMPILED = frozenset({"__init__", "__main__", "native"})
# annotation_typing off: the annotations are for mypy; Cython would otherwise enforce
# some of them at run time (a str subclass refused where "str" is written).
# binding on: compiled functions keep Python's introspection (inspect.signature).
COMPILER_DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}


def compiled_modules() -> dict[str, Path]:
    """The modules a build holds, by name, with their sources."""
    return {p.stem: p for p in sorted(PACKAGE_DIR.glob("*.py")) if p.stem not in NOT_COMPILED}


def _source_hashes() -> dict[str, str]:
    return {name: hashlib.sha256(path.read_bytes()).hexdigest() for name, path in compiled_modules().items()}


def _this_python() -> dict[str, str]:
    """What a build's extension modules must have been made for to load here."""
    return {"python": sys.implementation.cache_tag, "ext_suffix": str(sysconfig.get_config_var("EXT_SUFFIX"))}


def stale_reason(build_dir: Path = BUILD_DIR) -> str | None:
    """Why the build in build_dir may not be used (None: it is current)."""
    try:
        manifest = json.loads((build_dir / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "no compiled build (python -m rules_engine build-native makes one)"
    except (OSError, ValueError) as exc:
        return f"the build's manifest is unreadable: {exc}"
    for key, value in _this_python().items():
        if manifest.get(key) != value:
            return f"the build was made for another Python ({key} {manifest.get(key)!r}, here {value!r})"
    built, now = manifest.get("sources") or {}, _source_hashes()
    changed = sorted(name for name in set(built) | set(now) if built.get(name) != now.get(name))
    if changed:
        return "sources changed since the build: " + ", ".join(changed)
    return None


def status() -> str:
    """One line: which engine this process imports, and why not the compiled one."""
    reason = f"{PURE_ENV} is set" if os.environ.get(PURE_ENV) else stale_reason()
    return "compiled engine in use" if reason is None else f"pure Python engine: {reason}"


def in_use() -> bool:
    """True when the compiled build should be imported instead of the .py files."""
    return not os.environ.get(PURE_ENV) and stale_reason() is None


def search_path(package_path: list[str]) -> list[str]:
    """The package's import path: the build's folder first when it is in use."""
    return [str(BUILD_DIR), *package_path] if in_use() else list(package_path)


def is_compiled() -> bool:
    """True when the engine running in this process is the compiled build."""
    game = importlib.import_module(".game", __package__)
    return str(game.__file__).endswith(_this_python()["ext_suffix"])


def build(jobs: int | None = None) -> Path:
    """Compile every module in compiled_modules() and install the build (replacing
    any earlier one only once the new one is complete)."""
    from Cython import __version__ as cython_version
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    jobs = jobs or os.cpu_count() or 1
    # hashed before compiling: a source edited while the build runs leaves it stale, never
    # a build of other code passing for current
    manifest = {**_this_python(), "sources": _source_hashes()}
    with tempfile.TemporaryDirectory(prefix="engine-build-") as tmp:
        work = Path(tmp)
        extensions = [Extension(f"{__package__}.{name}", [str(path)])
                      for name, path in compiled_modules().items()]
        cythonized = cythonize(extensions, compiler_directives=COMPILER_DIRECTIVES,
                               build_dir=str(work / "c"), nthreads=jobs, quiet=True)
        command = Distribution({"ext_modules": cythonized}).get_command_obj("build_ext")
        command.build_lib, command.build_temp = str(work / "lib"), str(work / "obj")
        command.parallel = jobs
        command.ensure_finalized()
        command.run()
        staged = work / "staged"
        shutil.copytree(work / "lib" / str(__package__), staged)
        manifest["cython"] = cython_version
        (staged / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
        shutil.rmtree(BUILD_DIR, ignore_errors=True)
        shutil.move(str(staged), BUILD_DIR)
    return BUILD_DIR
