"""The app factory and the language switch that every page shares."""

from bingo_hall.app import create_app


def test_app_factory_builds_independent_apps(tmp_path):
    a = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "a.sqlite"),
            "SECRET_KEY": "x",
        },
        instance_path=str(tmp_path),
    )
    b = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "b.sqlite"),
            "SECRET_KEY": "x",
        },
        instance_path=str(tmp_path),
    )
    assert a is not b and a.config["DATABASE"] != b.config["DATABASE"]


def test_language_switch_sets_a_cookie_and_returns_to_the_page(client):
    r = client.get("/lang/es?next=/display")
    assert r.status_code == 302 and r.headers["Location"].endswith("/display")
    assert "lang=es" in r.headers["Set-Cookie"]


def test_language_switch_refuses_unknown_languages_and_foreign_redirects(client):
    assert client.get("/lang/xx").status_code == 404
    r = client.get("/lang/en?next=//evil.example/")
    assert r.headers["Location"] == "/"


def test_a_new_instance_folder_is_private_to_its_owner(tmp_path):
    """It keeps the session key, the caller PIN and the demo deck's signing secret."""
    folder = tmp_path / "station"
    create_app(instance_path=folder, settings={"SECRET_KEY": "x"})
    assert folder.stat().st_mode & 0o777 == 0o700
