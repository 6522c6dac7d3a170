-- App tokens: a named token the club's organiser makes for an app (a club
-- website, a bot), holding only the scopes it was given. Revoking an app
-- deletes its row, and its token with it.
CREATE TABLE apps (
    id            uuid PRIMARY KEY,
    club_id       uuid NOT NULL REFERENCES clubs(id),
    name          text NOT NULL,
    scopes        text[] NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz
);
CREATE INDEX apps_club ON apps (club_id, created_at);

ALTER TABLE tokens DROP CONSTRAINT tokens_kind_check;
ALTER TABLE tokens ADD CONSTRAINT tokens_kind_check CHECK (kind IN ('admin', 'seat', 'member', 'app'));
ALTER TABLE tokens ADD COLUMN app_id uuid REFERENCES apps(id) ON DELETE CASCADE;
ALTER TABLE tokens ADD CONSTRAINT tokens_app CHECK ((kind = 'app') = (app_id IS NOT NULL));
CREATE UNIQUE INDEX tokens_one_app ON tokens (app_id) WHERE kind = 'app';

-- Idempotency keys of every write of the API but actions (which keep theirs
-- with their events): the key belongs to the token that sent it (its
-- hash; 'anonymous' for a write that needs none), is kept as its hash, and the
-- answer is sealed under a key made of the token and the Idempotency-Key, so
-- what is stored signs nobody in (a new game's seat tokens, an app's token).
-- A claim whose answer never came (status NULL: the process died) is taken
-- over after a minute.
CREATE TABLE request_keys (
    principal     text NOT NULL,
    key_hash      text NOT NULL,
    request_hash  text NOT NULL,
    status        integer,
    answer        bytea,
    headers       jsonb,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (principal, key_hash)
);
