"""The computer at the table: its levels, the seats it plays (`FILE.bots.json`) and how
it answers. Each game's own opponents are in its package (`corr.games.<game>.bot`).

A bot sees a position only through the seat view, the same one boards and mail are
drawn from: it never holds the replay, another seat's hand, the pile or the dealer's
secret.
"""
