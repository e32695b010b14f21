"""The web core: the services every web area uses and none of them owns.

- `db`: the SQLite connection per request and every area's migrations;
- `hub`: the one event hub (live updates for big screens, phones and the serial bridge);
- `errors`: one error convention (a message template, translated at the edge) and the handlers;
- `inputs`: request bodies and route ids turned into checked values (size, depth, text, numbers);
- `i18n`: Spanish and English for every page;
- `instance`: the instance folder's files (session key, caller PIN) and `HallState`;
- `config`: `HallConfig`, every setting the hall reads, built once (and the environment's).

This package imports no area (station, companions, bridge): the areas import it, and
`bingo_hall.app.create_app` puts them together. See docs/dev/architecture.md.
"""
