"""Tournaments kept as logs: an event is a hash-chained log like a game's, whose records
say who plays whom in each round (`round`, `bye`), how each game ended (`result`, with
the game log's id and final line hash), who left (`withdraw`) and what the director
decided (`ruling`, signed). Everything else - the pairings, the standings - follows from
the log, so anyone holding it and the games' logs can check the crosstable.

One idea per module: `eventlog` (lines, chain, locks), `event` (the event a log
describes), `pairing` (Berger tables, knockout brackets, tables of N seats; `swiss` the FIDE Dutch system), `placing`
(a finished game's places and points), `standings`, `director` (what the commands do)
and `audit`.
"""
