"""`python -m corr` runs the command line."""

from corr.cli import main

main()
