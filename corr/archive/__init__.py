"""The archive: many finished (or running) games in one SQLite file, each stored as the
audit saw it, to search, count and export without replaying a log again.

db (the schema and the connection), ingest (audit and store logs), query (the search
both `search` and `export` use), stats, pgn (PGN out and back) and export.
"""
