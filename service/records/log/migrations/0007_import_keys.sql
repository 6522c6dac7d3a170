-- Idempotency keys of game imports: per club, since the game does not exist
-- before the import. The answer is kept with the key in the import's
-- transaction (without the seat tokens, which are shown once).
CREATE TABLE import_keys (
    club_id       uuid NOT NULL REFERENCES clubs(id),
    key           text NOT NULL,
    request_hash  text NOT NULL,
    response      jsonb,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, key)
);
