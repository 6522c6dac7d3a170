-- Tournaments: each one a stream of its own events (created, players entered
-- and withdrawn, rounds seated, players swapped, tables' games started), kept
-- append-only as the games' events are. The tournament's row orders its
-- writers (one at a time, under its row lock) and holds its stream's version.
CREATE TABLE tournaments (
    id          uuid PRIMARY KEY,
    club_id     uuid NOT NULL REFERENCES clubs(id),
    version     integer NOT NULL DEFAULT 0,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (id, club_id)
);
CREATE INDEX tournaments_club ON tournaments (club_id, created_at);

CREATE TABLE tournament_events (
    tournament_id uuid NOT NULL,
    club_id       uuid NOT NULL,
    version       integer NOT NULL CHECK (version >= 1),
    type          text NOT NULL,
    data          jsonb NOT NULL,
    metadata      jsonb NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, version),
    FOREIGN KEY (tournament_id, club_id) REFERENCES tournaments (id, club_id)
);

CREATE TRIGGER tournament_events_no_update BEFORE UPDATE OR DELETE ON tournament_events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
CREATE TRIGGER tournament_events_no_truncate BEFORE TRUNCATE ON tournament_events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();
