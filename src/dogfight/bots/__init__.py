"""Computer players: they see only their seat's observation and return plans."""
