"""Fixtures for the companions shell: an app serving only the companions (as
`bingo-hall companions` does), so these tests do not depend on the station's other areas."""

from __future__ import annotations

import pytest

from bingo_hall.app import create_app


def companions_only(tmp_path, stream_seconds: float):
    return create_app(
        {
            "TESTING": True,
            "COMPANIONS_ONLY": True,
            "DATABASE": str(tmp_path / "companions.sqlite"),
            "SECRET_KEY": "test-secret",
            "COMPANIONS_STREAM_SECONDS": stream_seconds,
        },
        instance_path=str(tmp_path),
    )


@pytest.fixture
def companions_app(tmp_path):
    return companions_only(tmp_path, 20)


@pytest.fixture
def panel_app(tmp_path):
    """The same app with short event streams, so browser tests end quickly."""
    return companions_only(tmp_path, 2)


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
