"""The companions blueprint: the shared-table shell on the phone (issue 7)."""

from flask import Blueprint

bp = Blueprint("companions", __name__, url_prefix="/t", template_folder="templates")
