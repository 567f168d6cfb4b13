"""The server's games in SQL: tables, the store, its batched commits and hot writes,
PostgreSQL's statements and notifications between processes."""
