"""Canvas set-up shared by the card and kit PDFs."""

from __future__ import annotations

import io
from collections.abc import Callable

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas


def pdf_bytes(pagesize: tuple[float, float], title: str, draw: Callable[[Canvas], None]) -> bytes:
    """Run `draw` on a fresh compressed canvas and return the finished PDF.

    reportlab wraps compressed streams in ASCII85 by default, which makes them 25% bigger and,
    in pure Python, slow; a PDF is binary-safe, so it is switched off for the save. The setting
    is global in reportlab, so it is restored afterwards.
    """
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=pagesize, pageCompression=1, invariant=1)
    c.setTitle(title)
    c.setAuthor("Bingo Hall Kit")
    saved, rl_config.useA85 = rl_config.useA85, 0
    try:
        draw(c)
        c.save()
    finally:
        rl_config.useA85 = saved
    return buf.getvalue()
