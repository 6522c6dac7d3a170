"""A club's records in and out: play histories from other apps (``formats``,
``imports``), spreadsheets of its finished games and standings (``exports``),
whole games (``interchange``) and the whole club as one file (``backup``). It
may import every room below it (competitions, whose tournaments and game
nights a backup carries; reading, recording, the club, the log), nothing of
``pages`` or ``hooks``.
"""
