"""A club's competitions beyond the league table: tournaments seated at tables
of the game's own sizes (``seating``, ``tournament_points``), and game nights
answered by members and played at tables proposed from who came
(``game_nights``, ``night_tables``). The seating and the
points are pure functions of what the log holds, so a round's tables and a
tournament's standings are the same on every replay. A club's backup
carries them (``carried``: history imports this room, never the other way).
It may import reading, recording, the club, the log and the shared modules.
"""
