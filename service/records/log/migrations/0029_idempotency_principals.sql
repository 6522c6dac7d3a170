-- An idempotency key belongs to the principal that used it: the same key sent
-- by another token is another key, so a replay never answers (or confirms the
-- body of) a request somebody else made. A key kept before now belongs to the
-- actor its events name.
ALTER TABLE idempotency_keys ADD COLUMN principal text NOT NULL DEFAULT '';
UPDATE idempotency_keys k SET principal = e.metadata->>'actor'
    FROM events e
    WHERE e.game_id = k.game_id AND e.metadata->>'idempotency_key' = k.key AND e.metadata ? 'actor';
ALTER TABLE idempotency_keys ALTER COLUMN principal DROP DEFAULT;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (game_id, principal, key);
