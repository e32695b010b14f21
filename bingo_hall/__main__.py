"""`python -m bingo_hall` is the `bingo-hall` command, for when the script is not on PATH."""

from .cli import main

if __name__ == "__main__":
    main()
