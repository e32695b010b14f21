"""The 75-ball game's rules, the game the kit was built for: the cards (5x5 under B I N G O, the
1933 rules, `cards`), a deck of line-unique cards (`deck`), the claims the Tabla Confrontadora
checks (`claims`), and the patterns a hall plays (`patterns`, from the pattern book's data:
`pattern_book`, pattern_book.toml). They need the shared core only (`bingo_hall.errors`,
`rng`); the 90-ball rules are `bingo_hall.ninety`, and the variant seam (`bingo_hall.variants`)
joins the two."""
