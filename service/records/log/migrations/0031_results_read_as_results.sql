-- Results read as results. A result-only game is marked in the statistics
-- projection, whose figures of play (length, first player, seats, how games
-- ended, the game's own figures) leave it out; a result logged without scores
-- has no scores (not zeros), and a player with no score has no average score.
-- Both projections are read again from the log, from its start.
ALTER TABLE stats_games ADD COLUMN result_only boolean NOT NULL DEFAULT false;
ALTER TABLE standings ALTER COLUMN score_total DROP NOT NULL;
ALTER TABLE standings ALTER COLUMN average_score DROP NOT NULL;
TRUNCATE stats_games, stats_tallies, standings_games, rating_history, standings;
DELETE FROM projection_errors WHERE projection IN ('standings', 'statistics');
UPDATE projection_checkpoints SET position = 0, updated_at = now() WHERE projection IN ('standings', 'statistics');
