"""What every SQL store of the project shares (games, campaigns, match series)."""
