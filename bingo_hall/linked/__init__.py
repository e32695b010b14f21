"""The linked game: many halls play one committed order, and the lowest call count wins.

An organiser writes the game (`game`): its window, balls and pattern, prize tiers, the halls with
their region and their station key's fingerprint, and the commitment to a seed only the
organiser holds. At the window the organiser publishes the seed as a short code (`seed`); every
hall's station checks it against the commitment and calls the order it derives, by the same
algorithm as every draw (`bingo_hall.draw.draw_order`, docs/fairness.md). A hall's result
(`result`) is the call count of its first valid claim on the pattern, signed with the station's
book key and carrying the book's signed head. The tally (`tally`) checks every result, awards the
tiers (ties share) and is signed by the organiser, so any hall can check it (docs/linked.md).

Pure: no Flask, no SQLite, no click. The command line is `bingo_hall.cli.linked`.
"""
