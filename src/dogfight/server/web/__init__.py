"""The server's HTTP and WebSocket face: the FastAPI app, pages, request bodies,
refusals and the limits on what anyone who can reach it may send."""
