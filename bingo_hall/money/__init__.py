"""The night's money as pure rules: the ledger (prices, prizes, payouts in cents), the
night's summary, the raffle, the program of the night's games with their prices and prizes,
and the spreadsheet-safe cells they export. They build on the root's rules and variants;
nothing at the root imports them (docs/dev/architecture.md)."""
