-- Every statement that appends events tells the listeners of the channel
-- 'tablerecord_events', one notice per game it appended to: the club, the
-- game, its last version and the last position appended. PostgreSQL delivers
-- a notice when (and only if) its transaction commits, in commit order, to
-- every session listening then (the event streams' processes): a notice only
-- wakes a reader, which reads the log itself from its own position.
CREATE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tablerecord_events', club_id::text || ' ' || game_id::text || ' ' || version || ' ' || position)
    FROM (
        SELECT club_id, game_id, max(version) AS version, max(position) AS position
        FROM appended GROUP BY club_id, game_id
    ) AS each_game;
    RETURN NULL;
END
$$;

CREATE TRIGGER events_notify AFTER INSERT ON events
    REFERENCING NEW TABLE AS appended FOR EACH STATEMENT EXECUTE FUNCTION events_notify();
