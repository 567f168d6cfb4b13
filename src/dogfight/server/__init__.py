"""Play in the browser: a FastAPI app storing games in SQL, a table page served as plain
files, live updates over WebSockets.

``db`` keeps games (setup, seats, plans, phase answers, resolved steps) in SQL, one
transaction per change; ``play`` runs them on the pure rules core and decides what each
seat may see; ``web`` exposes both over HTTP and WebSockets; ``static`` holds the pages
the browser loads. See ``docs/web.md``.
"""
