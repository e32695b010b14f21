"""The 90-ball rules (Spanish halls, UK clubs): tickets, strips of six, and the prizes as
data over a ticket and the calls. Pure: they import the shared core at the root and nothing
of the 75-ball rules (docs/dev/architecture.md)."""
