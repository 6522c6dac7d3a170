-- Result-only games: a game recorded by its result alone (who played, their
-- scores and places), its events in the log like any game's. This row keeps
-- what the record says about the play itself, and the key an import gave it
-- (a second import of the same play finds it and adds nothing).
CREATE TABLE result_games (
    game_id     uuid PRIMARY KEY REFERENCES games(id),
    club_id     uuid NOT NULL REFERENCES clubs(id),
    played_on   date NOT NULL,
    minutes     integer CHECK (minutes IS NULL OR minutes >= 0),
    note        text,
    import_key  text,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX result_games_club ON result_games (club_id, played_on, game_id);
CREATE UNIQUE INDEX result_games_import_key ON result_games (club_id, import_key) WHERE import_key IS NOT NULL;
