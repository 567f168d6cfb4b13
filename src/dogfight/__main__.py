"""``python -m dogfight`` runs the command line."""

from dogfight.cli.app import main

main()
