-- Game nights: each one a stream of its own events (posted, members'
-- answers, who came, tables started), kept append-only as a tournament's
-- are. The night's row orders its writers (one at a time, under its row
-- lock) and holds its stream's version.
CREATE TABLE game_nights (
    id          uuid PRIMARY KEY,
    club_id     uuid NOT NULL REFERENCES clubs(id),
    day         date NOT NULL,
    version     integer NOT NULL DEFAULT 0,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (id, club_id)
);
CREATE INDEX game_nights_club ON game_nights (club_id, day);

CREATE TABLE game_night_events (
    night_id      uuid NOT NULL,
    club_id       uuid NOT NULL,
    version       integer NOT NULL CHECK (version >= 1),
    type          text NOT NULL,
    data          jsonb NOT NULL,
    metadata      jsonb NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (night_id, version),
    FOREIGN KEY (night_id, club_id) REFERENCES game_nights (id, club_id)
);

CREATE TRIGGER game_night_events_no_update BEFORE UPDATE OR DELETE ON game_night_events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
CREATE TRIGGER game_night_events_no_truncate BEFORE TRUNCATE ON game_night_events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();
