"""The caller station: a Flask app (flaskr-style app factory with blueprints) around the rules."""
