"""Fixtures of the server tests: an app over the tiny corpus (tests.server.corpus), for modules that
do not make their own."""
from __future__ import annotations

import pytest

from server import create_app
from tests.server.corpus import tiny_kb


@pytest.fixture(scope="module")
def app():
    return create_app({"KB": tiny_kb()[0], "TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()
