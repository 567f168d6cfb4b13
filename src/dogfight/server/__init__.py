"""Play in the browser: a FastAPI app storing games in SQL, a table page served as plain
files, live updates over WebSockets.

``store`` keeps games (setup, seats, plans, phase answers, resolved steps) in SQL, one
transaction per change; ``games`` runs them on the pure rules core and decides what each
seat may see; ``app`` exposes both over HTTP and WebSockets. See ``docs/web.md``.
"""
