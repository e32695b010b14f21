"""The card page's one script (web/static_files.bundled) carries every name its imports take,
`$` included (a JavaScript name may hold `$`): the bundle is run by Node, as the phone's browser
would run it."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from bingo_hall.web.static_files import bundled

NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="needs Node to run the bundle")
def test_a_module_that_exports_a_dollar_name_is_inlined_with_it(tmp_path):
    helpers = tmp_path / "dom.js"
    helpers.write_text(
        'export const $ = (id) => "element " + id;\nexport function el(t) { return "new " + t; }\n'
    )
    entry = tmp_path / "card.js"
    entry.write_text(
        'import { $, el } from "/web/static/dom.js";\nconsole.log($("verify") + "|" + el("p"));\n'
    )
    files = {"/web/static/dom.js": str(helpers), "/verify/static/card.js": str(entry)}
    script = bundled("/verify/static/card.js", files)
    assert script is not None
    ran = subprocess.run(
        [NODE, "-e", script.decode()], capture_output=True, text=True, timeout=60, check=True
    )
    assert ran.stdout.strip() == "element verify|new p"
