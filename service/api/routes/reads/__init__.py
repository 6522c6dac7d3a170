"""The routes that answer from the projections (standings, statistics, profiles,
replays) and report on them: each may lag the log, so each takes ``min_position``
(``projections.documents_behind``) to wait for a write the reader has seen."""
