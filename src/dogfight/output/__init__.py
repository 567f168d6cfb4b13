"""What leaves a run as files: whole files or nothing, and transcripts (a game as JSON
lines, byte for byte the same for the same inputs)."""
