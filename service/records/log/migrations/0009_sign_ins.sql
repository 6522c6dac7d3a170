-- Member sign-ins (one per player, issued by the club's admin), web sessions
-- held server-side (the browser keeps only a random id; the row keeps its
-- hash and the token it came from, so rotating or revoking that token ends
-- the session with it), retired players and closed league seasons.

ALTER TABLE tokens DROP CONSTRAINT tokens_kind_check;
ALTER TABLE tokens ADD CONSTRAINT tokens_kind_check CHECK (kind IN ('admin', 'seat', 'member'));
ALTER TABLE tokens ADD COLUMN player_id uuid REFERENCES players(id);
ALTER TABLE tokens ADD CONSTRAINT tokens_member_player CHECK ((kind = 'member') = (player_id IS NOT NULL));
CREATE UNIQUE INDEX tokens_one_admin ON tokens (club_id) WHERE kind = 'admin';
CREATE UNIQUE INDEX tokens_one_member ON tokens (player_id) WHERE kind = 'member';

CREATE TABLE web_sessions (
    hash        text PRIMARY KEY,            -- sha256 of the session id in the cookie
    token_hash  text NOT NULL REFERENCES tokens(hash) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL
);
CREATE INDEX web_sessions_token ON web_sessions (token_hash);
CREATE INDEX web_sessions_expiry ON web_sessions (expires_at);

ALTER TABLE players ADD COLUMN retired_at timestamptz;
ALTER TABLE leagues ADD COLUMN closed_at timestamptz;
