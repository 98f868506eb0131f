"""Computer opponents: one module per game, each with the levels random, greedy, strong.

A bot sees a position only through `corr.bots.base.seat_view`, the same seat view that
boards and mail are drawn from: it never holds the replay, another seat's hand, the
pile or the dealer's secret.
"""
