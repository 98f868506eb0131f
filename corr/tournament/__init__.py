"""Tournaments: events of many games, their pairings and standings."""
