-- Clubs, players, leagues, catalogs, games, the event log, idempotency and snapshots.

CREATE TABLE clubs (
    id          uuid PRIMARY KEY,
    name        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE players (
    id          uuid PRIMARY KEY,
    club_id     uuid NOT NULL REFERENCES clubs(id),
    name        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (club_id, name)
);

CREATE TABLE leagues (
    id           uuid PRIMARY KEY,
    club_id      uuid NOT NULL REFERENCES clubs(id),
    name         text NOT NULL,
    engine       text,
    season       text NOT NULL DEFAULT '',
    points_table jsonb NOT NULL,
    min_games    integer NOT NULL DEFAULT 1,
    public       boolean NOT NULL DEFAULT false,
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (club_id, name, season)
);

-- A catalog version is immutable once registered: games replay with the exact
-- content they were created with.
CREATE TABLE catalogs (
    kind        text NOT NULL,
    id          text NOT NULL,
    version     integer NOT NULL,
    club_id     uuid REFERENCES clubs(id),
    content     jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, id, version)
);

CREATE TABLE games (
    id              uuid PRIMARY KEY,
    club_id         uuid NOT NULL REFERENCES clubs(id),
    league_id       uuid REFERENCES leagues(id),
    engine          text NOT NULL,
    seats           jsonb NOT NULL,          -- player ids in seat order
    options         jsonb NOT NULL,
    dealer          text NOT NULL CHECK (dealer IN ('server', 'table')),
    seed            text NOT NULL,           -- secret until the game ends
    public          boolean NOT NULL DEFAULT false,
    catalog_kind    text,
    catalog_id      text,
    catalog_version integer,
    status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished', 'abandoned')),
    version         integer NOT NULL DEFAULT 0,  -- the stream's latest version
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX games_club ON games (club_id, created_at);

CREATE TABLE tokens (
    hash        text PRIMARY KEY,            -- sha256 of the bearer token
    club_id     uuid NOT NULL REFERENCES clubs(id),
    kind        text NOT NULL CHECK (kind IN ('admin', 'seat')),
    game_id     uuid REFERENCES games(id),
    seat        integer,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- The event log. Positions come from a sequence drawn only while holding the
-- append lock (see docs/architecture.md), so commit order is position order.
CREATE SEQUENCE events_position_seq;
CREATE TABLE events (
    position    bigint PRIMARY KEY,
    game_id     uuid NOT NULL REFERENCES games(id),
    version     integer NOT NULL CHECK (version >= 1),
    type        text NOT NULL,
    data        jsonb NOT NULL,
    metadata    jsonb NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (game_id, version)
);

CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();

CREATE TABLE idempotency_keys (
    game_id       uuid NOT NULL REFERENCES games(id),
    key           text NOT NULL,
    request_hash  text NOT NULL,
    status        integer,
    response      jsonb,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, key)
);

-- A cache of folded state; always equal to a full replay of the same version.
CREATE TABLE snapshots (
    game_id         uuid NOT NULL REFERENCES games(id),
    version         integer NOT NULL,
    engine_version  text NOT NULL,
    state           jsonb NOT NULL,
    PRIMARY KEY (game_id, engine_version, version)
);
