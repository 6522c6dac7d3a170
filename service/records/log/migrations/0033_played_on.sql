-- The day each game was played. A result gives its day, an imported game the
-- moment it was played; a game recorded as it is played was played the day it
-- ended. Ratings follow that order (then the log's, within a day), so a
-- history logged after newer games takes its own place; a game that arrives
-- after games played later than it is marked ``arrived_late``, and the league
-- page says when ratings were recomputed for it. Both projections are read
-- again from the log, from its start.
ALTER TABLE standings_games ADD COLUMN played_on date;
ALTER TABLE standings_games ADD COLUMN arrived_late boolean NOT NULL DEFAULT false;
ALTER TABLE stats_games ADD COLUMN played_on date;
CREATE INDEX stats_games_club_played ON stats_games (club_id, played_on DESC NULLS FIRST, created_at DESC);
TRUNCATE stats_games, stats_tallies, standings_games, rating_history, standings;
DELETE FROM projection_errors WHERE projection IN ('standings', 'statistics');
UPDATE projection_checkpoints SET position = 0, updated_at = now() WHERE projection IN ('standings', 'statistics');
