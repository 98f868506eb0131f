"""The game log: pydantic line models and the append-only file store."""
