"""Fixtures for the companions shell: an app serving only the companions (as
`bingo-hall companions` does), so these tests do not depend on the station's other areas."""

from __future__ import annotations

import pytest

from bingo_hall.app import create_app


@pytest.fixture
def companions_app(tmp_path):
    return create_app(
        {
            "TESTING": True,
            "COMPANIONS_ONLY": True,
            "DATABASE": str(tmp_path / "companions.sqlite"),
            "SECRET_KEY": "test-secret",
            "COMPANIONS_STREAM_SECONDS": 20,
        },
        instance_path=str(tmp_path),
    )


@pytest.fixture
def panel_app(companions_app):
    """The same app with short event streams, so browser tests end quickly."""
    companions_app.config["COMPANIONS_STREAM_SECONDS"] = 2
    return companions_app


@pytest.fixture
def tclient(companions_app):
    return companions_app.test_client()


@pytest.fixture
def new_table():
    """`new_table(client, "burako", teams=[...], settings={...})` -> the new table's code."""

    def make(client, game: str, **body) -> str:
        r = client.post(f"/t/new/{game}", json=body)
        assert r.status_code == 201, r.get_json()
        return r.get_json()["code"]

    return make
