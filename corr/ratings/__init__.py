"""Ratings over finished games (`corr ratings`): every log audited first, then each
game's players rated by a published system from a well-kept library, one game at a
time in the order the games ended, kept apart per game and per number of seats.

`finished` reads the logs, `systems` rates them, `report` shows the tables.
"""
