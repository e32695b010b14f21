"""The card page's one script (web/static_files.bundled) carries every name its imports take,
`$` included (a JavaScript name may hold `$`): the bundle is run by Node, as the phone's browser
would run it."""

from __future__ import annotations

import shutil
import subprocess

from bingo_hall.web.static_files import bundled

NODE = shutil.which("node")


def test_a_module_that_exports_a_dollar_name_is_inlined_with_it(tmp_path):
    # `make test` installs Debian's npm (and with it Node) for the accessibility tests
    assert NODE is not None, "Node is missing: `make test` installs it with Debian's npm"
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
