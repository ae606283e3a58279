"""The static manifest: hashed names that follow the content of a file and of every file
it loads, imports rewritten to those names, and a reference cycle that still loads."""
from __future__ import annotations

import re

import pytest

from app.http.assets import Manifest


def write(d, files: dict[str, str]) -> Manifest:
    for name, text in files.items():
        (d / name).write_text(text)
    return Manifest(d)


def test_a_change_in_an_imported_module_renames_the_modules_that_import_it(tmp_path):
    files = {"api.js": "export const x = 1;\n",
             "map.js": 'import { x } from "./api.js";\nconst bg = "/static/bg.svg";\n',
             "game.js": "import { x } from './api.js';\nimport './map.js';\nconst m = await import(\"./map.js\");\n",
             "bg.svg": "<svg/>", "site.css": ".a { background: url(/static/bg.svg); }"}
    m1 = write(tmp_path, files)
    game = m1.by_name["game.js"].body.decode()
    api, mp = m1.by_name["api.js"].hashed, m1.by_name["map.js"].hashed
    assert re.fullmatch(r"api\.[0-9a-f]{10}\.js", api)
    assert f"from './{api}'" in game and f"import './{mp}'" in game and f'import("./{mp}")' in game
    assert m1.by_name["map.js"].body.decode().endswith(f'"/static/{m1.by_name["bg.svg"].hashed}";\n')
    assert m1.url("site.css") == "/static/" + m1.by_name["site.css"].hashed
    m2 = write(tmp_path, {"api.js": "export const x = 2;\n"})
    for name in ("api.js", "map.js", "game.js"):
        assert m2.by_name[name].hashed != m1.by_name[name].hashed
    for name in ("bg.svg", "site.css"):
        assert m2.by_name[name].hashed == m1.by_name[name].hashed


def test_a_reference_cycle_keeps_a_plain_name_and_a_missing_file_is_an_error(tmp_path):
    m = write(tmp_path, {"a.js": 'import "./b.js";\n', "b.js": 'import "./a.js";\n'})
    bodies = m.by_name["a.js"].body.decode() + m.by_name["b.js"].body.decode()
    assert './a.js"' in bodies or './b.js"' in bodies
    with pytest.raises(KeyError):
        m.url("nope.js")


def test_an_old_hash_finds_the_current_file_but_not_for_long(tmp_path):
    m = write(tmp_path, {"a.js": "1;\n"})
    asset = m.by_name["a.js"]
    assert m.find(asset.hashed) == (asset, True)
    assert m.find("a.0123456789.js") == (asset, False)
    assert m.find("a.js") == (None, False)
