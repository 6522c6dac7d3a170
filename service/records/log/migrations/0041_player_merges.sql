-- Players merged: a club's stream of PlayersMerged and PlayersUnmerged
-- events, kept append-only as the games' are, numbered 1, 2, 3 … per club
-- (its writers ordered by the club's row lock). ``player_merges`` is what
-- the stream says now, written in the same transaction as each event: every
-- merged-in player and the player they follow (the last one kept, through
-- merges of merges). Readers and projections map seats through it.
CREATE TABLE player_merge_events (
    club_id      uuid NOT NULL REFERENCES clubs(id),
    version      integer NOT NULL CHECK (version >= 1),
    type         text NOT NULL,
    data         jsonb NOT NULL,
    metadata     jsonb NOT NULL,
    recorded_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, version)
);

CREATE TRIGGER player_merge_events_no_update BEFORE UPDATE OR DELETE ON player_merge_events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
CREATE TRIGGER player_merge_events_no_truncate BEFORE TRUNCATE ON player_merge_events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();

CREATE TABLE player_merges (
    merged_id  uuid PRIMARY KEY REFERENCES players(id),
    club_id    uuid NOT NULL REFERENCES clubs(id),
    kept_id    uuid NOT NULL REFERENCES players(id)
);
CREATE INDEX player_merges_kept ON player_merges (kept_id);
CREATE INDEX player_merges_club ON player_merges (club_id);

-- What the standings projection last folded: a change here recomputes the
-- club's leagues (ratings from history, not patched).
CREATE TABLE standings_merges (
    merged_id  uuid PRIMARY KEY,
    club_id    uuid NOT NULL,
    kept_id    uuid NOT NULL
);

-- The same for the statistics projection's per-league sums.
CREATE TABLE stats_merges (
    merged_id  uuid PRIMARY KEY,
    club_id    uuid NOT NULL,
    kept_id    uuid NOT NULL
);
