"""Words for players: card and side names, the narration of events, a scenario's
briefing and a game's ending. Every text a player reads is written here."""
