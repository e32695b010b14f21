"""Build hook: compile the Spanish catalogs into the wheel (issue 16).

The `.po` catalogs are the source; the `.mo` files Flask-Babel reads are generated and never
committed. `make catalogs` compiles them in a clone. Here `build_py` compiles every
`translations/<lang>/LC_MESSAGES/messages.po` it has copied into the build folder, so a wheel
built from the repository or from the sdist carries a `.mo` beside each `.po`. Everything else
about the package is declared in pyproject.toml; Babel comes from `[build-system] requires`.
"""

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


class BuildPyWithCatalogs(build_py):
    """setuptools' build_py, then the catalogs compiled in the build folder."""

    def run(self) -> None:
        super().run()
        self.catalogs = [] if self.editable_mode else compile_catalogs(Path(self.build_lib))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = super().get_outputs(include_bytecode)
        return outputs + [str(mo) for mo in getattr(self, "catalogs", [])]


setup(cmdclass={"build_py": BuildPyWithCatalogs})
