-- A player's games (profiles) and a club's games (search): finished games by
-- the players in their seats, and a club's games newest first.
CREATE INDEX stats_games_seats ON stats_games USING gin (seats jsonb_path_ops);
CREATE INDEX stats_games_club ON stats_games (club_id, created_at DESC);
-- A player's rating history across leagues (profiles).
CREATE INDEX rating_history_by_player ON rating_history (player_id, league_id, seq);
