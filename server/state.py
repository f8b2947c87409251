"""The loaded knowledge base of this process, as the app factory stored it."""
from __future__ import annotations

from flask import current_app


def get_kb():
    return current_app.extensions["kb"]
