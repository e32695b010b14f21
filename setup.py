"""Build hooks: compile the Spanish catalogs into the wheel (issue 16), and fetch the pinned
browser libraries the pages serve from the npm registry (issue 15).

The `.po` catalogs are the source; the `.mo` files Flask-Babel reads are generated and never
committed. `make catalogs` compiles them in a clone. Here `build_py` compiles every
`translations/<lang>/LC_MESSAGES/messages.po` it has copied into the build folder, so a wheel
built from the repository or from the sdist carries a `.mo` beside each `.po`. Everything else
about the package is declared in pyproject.toml; Babel comes from `[build-system] requires`.

A browser library (jsQR for the caller page's "Scan card") is an npm dependency pinned in
`bingo_hall/station/static/vendor/package.json` and `package-lock.json` (version, tarball and its
sha512). `fetch_browser_libs` downloads the tarball, checks it against the lock and unpacks the
files package.json's `"ship"` names (the built file and its licence) beside them; they are not
committed. `make` runs it in a clone, `build_py` in the build folder when they are missing, so a
wheel carries them and the hall needs no internet.
"""

import base64
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py


def compile_catalogs(root: Path) -> list[Path]:
    """Write messages.mo beside every messages.po under `root`; a broken catalog stops the build."""
    written = []
    for po in sorted(root.rglob("translations/*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        with po.open("rb") as src:
            catalog = read_po(src, abort_invalid=True)
        with mo.open("wb") as out:
            write_mo(out, catalog)
        written.append(mo)
    return written


VENDOR = Path(__file__).resolve().parent / "bingo_hall/station/static/vendor"
VENDOR_IN_PACKAGE = "bingo_hall/station/static/vendor"


def fetch_browser_libs(vendor: Path = VENDOR) -> list[Path]:
    """Unpack every pinned npm package's shipped files into `vendor` (by default the source folder
    beside package.json and package-lock.json); files already there are kept. Returns them."""
    manifest = json.loads((VENDOR / "package.json").read_text("utf-8"))
    lock = json.loads((VENDOR / "package-lock.json").read_text("utf-8"))["packages"]
    written = []
    for name, files in manifest["ship"].items():
        targets = {inner: vendor / out for inner, out in files.items()}
        written += targets.values()
        if all(t.is_file() for t in targets.values()):
            continue
        pinned = lock[f"node_modules/{name}"]
        if pinned["version"] != manifest["dependencies"][name]:
            sys.exit(
                f"{name}: package.json pins {manifest['dependencies'][name]}, the lock has "
                f"{pinned['version']}"
            )
        try:
            with urllib.request.urlopen(pinned["resolved"], timeout=60) as resp:
                tgz = resp.read()
        except OSError as exc:
            sys.exit(
                f"cannot download {pinned['resolved']} ({exc}); the npm registry is needed once"
            )
        algo, _, want = pinned["integrity"].partition("-")
        if base64.b64encode(hashlib.new(algo, tgz).digest()).decode() != want:
            sys.exit(f"{pinned['resolved']} does not match the integrity in package-lock.json")
        with tarfile.open(fileobj=io.BytesIO(tgz)) as tar:
            for inner, target in targets.items():
                target.write_bytes(tar.extractfile(inner).read())
    return written


class BuildPyWithCatalogs(build_py):
    """setuptools' build_py, then the catalogs compiled and the browser libraries fetched."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            self.catalogs = []
            fetch_browser_libs()
        else:
            self.catalogs = compile_catalogs(Path(self.build_lib))
            self.catalogs += fetch_browser_libs(Path(self.build_lib) / VENDOR_IN_PACKAGE)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        return outputs + [str(p) for p in getattr(self, "catalogs", []) if str(p) not in outputs]


if __name__ == "__main__":  # setuptools runs this file as __main__; `make` imports it
    setup(cmdclass={"build_py": BuildPyWithCatalogs})
