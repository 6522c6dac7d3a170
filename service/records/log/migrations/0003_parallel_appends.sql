-- Appends of different games commit in parallel (see service/records/store.py
-- and docs/architecture.md).
--
-- A position is now the appending transaction's id (xid8) times 2^20 plus the
-- event's ordinal in that transaction, so positions follow transaction ids,
-- and readers read only below the horizon of the oldest transaction still in
-- progress (events_horizon()). The position sequence is no longer used.
--
-- Each event also names its club, so a club's feed is one range of the
-- (club_id, position) index, whatever the size of the log; the pair
-- (game_id, club_id) must be a game of that club.

DO $$
BEGIN
    IF (SELECT coalesce(max(position), 0) FROM events) >= (pg_current_xact_id()::text::bigint << 20) THEN
        RAISE EXCEPTION 'event positions already reach the transaction-id range';
    END IF;
END $$;

ALTER TABLE games ADD CONSTRAINT games_id_club UNIQUE (id, club_id);

ALTER TABLE events ADD COLUMN club_id uuid;
ALTER TABLE events DISABLE TRIGGER events_no_update;
UPDATE events e SET club_id = g.club_id FROM games g WHERE g.id = e.game_id;
ALTER TABLE events ENABLE TRIGGER events_no_update;
ALTER TABLE events ALTER COLUMN club_id SET NOT NULL;
ALTER TABLE events DROP CONSTRAINT events_game_id_fkey;
ALTER TABLE events ADD CONSTRAINT events_game_club FOREIGN KEY (game_id, club_id) REFERENCES games (id, club_id);
CREATE INDEX events_club_position ON events (club_id, position);
DROP SEQUENCE events_position_seq;

-- Every transaction older than the oldest one still in progress has settled
-- (committed or rolled back), and every transaction yet to write gets a
-- larger id: the events below this position are all there will ever be.
CREATE FUNCTION events_horizon() RETURNS bigint LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 20
$$;

-- The first of ``n`` new positions for this transaction, after any it has
-- already used.
CREATE FUNCTION events_claim_positions(n integer) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    base bigint := pg_current_xact_id()::text::bigint << 20;
    first bigint;
BEGIN
    SELECT max(position) + 1 INTO first FROM events WHERE position >= base AND position < base + 1048576;
    first := coalesce(first, base);
    IF first + n > base + 1048576 THEN
        RAISE EXCEPTION 'one transaction appends at most 1048576 events';
    END IF;
    RETURN first;
END $$;
