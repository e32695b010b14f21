"""Adapters to the machine the hall runs on: its address on the hall's network
(`netaddr`), the folders the kit keeps its files in (`paths`), and the address a deck's
printed QR codes point at (`printed`) (docs/dev/architecture.md)."""
