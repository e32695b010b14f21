"""Table scorekeepers for the games played around a bingo night: one pure engine per game
(burako, rummy, qwinto, domino_bingo, clue) plus the phone pages in `companions.web`."""
