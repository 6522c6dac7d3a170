-- An append names the version it was decided at, and the game's row moves
-- only from that version: a write prepared without the game's lock (on a
-- state this process remembered) fails whole if the game has moved on, and
-- is redone under the lock (see service/records/acting.py). The row is
-- updated before any event is inserted, so such a write takes its locks in
-- the same order as a locked one (row, then events) and cannot deadlock
-- with it.
CREATE FUNCTION games_advance(game uuid, after integer, n integer, new_status text) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    UPDATE games SET version = after + n, status = coalesce(new_status, status)
    WHERE id = game AND version = after;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'game % is no longer at version %', game, after
            USING ERRCODE = 'serialization_failure';
    END IF;
END $$;
