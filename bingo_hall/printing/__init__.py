"""The printable kit: card PDFs (margin totals, signed QR codes), the Tabla Confrontadora, the 75
tokens and the rules sheet. Each is a function from data to PDF bytes; the CLI in
`printing.cli` and the station's `demo` are thin callers.
"""

from __future__ import annotations

from .base_url import default_base_url
from .deck_pdf import render_deck_pdf
from .kit import render_kit_pdf

__all__ = ["default_base_url", "render_deck_pdf", "render_kit_pdf"]
