"""The game log: line values and their codec, the pydantic models that define them, the file store."""
