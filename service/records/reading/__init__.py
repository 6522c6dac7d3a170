"""What members and apps read: a game's view, legal commands and log
(``game_views``), replays (``steps``), league standings, ratings and statistics
from the projections (``league``, ``league_tables``, ``league_figures``,
``ratings``, ``projection_state``), searches and profiles, and what the event
streams send each reader (``streams``). It may import
recording, the club, the log and the shared modules; it does not import
``scorepad``, nor anything above.
"""
