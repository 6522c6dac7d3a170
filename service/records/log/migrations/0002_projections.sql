-- Projections fed from the event log by the Celery workers (see docs/workers.md).
--
-- Every projection table is derived from `events` alone (plus the slowly
-- changing club data: leagues, players, catalogs) and can be rebuilt from
-- zero. No projection table holds a foreign key: a rebuild builds copies in a
-- side schema and moves them in, so they must stand alone.

-- The last global position each projection has applied, written in the same
-- transaction as the projection's rows.
CREATE TABLE projection_checkpoints (
    projection  text PRIMARY KEY,
    position    bigint NOT NULL DEFAULT 0 CHECK (position >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO projection_checkpoints (projection) VALUES ('standings'), ('replays'), ('statistics');

-- Games a projection could not apply (an engine error: a "poison" event).
-- The game is skipped by that projection from that event on; others go on.
CREATE TABLE projection_errors (
    projection  text NOT NULL,
    game_id     uuid NOT NULL,
    position    bigint NOT NULL,
    event_type  text NOT NULL,
    error       text NOT NULL,
    PRIMARY KEY (projection, game_id)
);

-- Deliveries of each Celery task message, to cap redeliveries: a message that
-- keeps killing its worker is set aside (and reported) instead of looping.
CREATE TABLE task_deliveries (
    task_id      text PRIMARY KEY,
    task_name    text NOT NULL,
    args         jsonb NOT NULL,
    deliveries   integer NOT NULL,
    first_seen   timestamptz NOT NULL DEFAULT now(),
    last_seen    timestamptz NOT NULL DEFAULT now(),
    set_aside_at timestamptz,
    reason       text
);
CREATE INDEX task_deliveries_set_aside ON task_deliveries (set_aside_at) WHERE set_aside_at IS NOT NULL;

-- Standings ------------------------------------------------------------------

-- One row per game of a league: its live result, if any.
CREATE TABLE standings_games (
    game_id            uuid PRIMARY KEY,
    league_id          uuid NOT NULL,
    seats              jsonb NOT NULL,            -- player ids in seat order
    status             text NOT NULL,             -- active | finished | abandoned
    ended_version      integer,
    ended_position     bigint,
    first_end_position bigint,                    -- rating order: when the game first ended
    places             jsonb,
    scores             jsonb,
    ended_by           text,
    ended_at           timestamptz
);
CREATE INDEX standings_games_league ON standings_games (league_id, first_end_position);

-- Rating history: one row per player per rated game, in the league's order.
CREATE TABLE rating_history (
    league_id     uuid NOT NULL,
    seq           integer NOT NULL,               -- 1, 2, ... the game's rank in the league's order
    game_id       uuid NOT NULL,
    player_id     uuid NOT NULL,
    seat          integer NOT NULL,
    place         integer NOT NULL,
    mu_before     double precision NOT NULL,
    sigma_before  double precision NOT NULL,
    mu_after      double precision NOT NULL,
    sigma_after   double precision NOT NULL,
    PRIMARY KEY (league_id, seq, player_id)
);
CREATE INDEX rating_history_player ON rating_history (league_id, player_id, seq);

CREATE TABLE standings (
    league_id     uuid NOT NULL,
    player_id     uuid NOT NULL,
    games         integer NOT NULL,
    wins          integer NOT NULL,
    placements    jsonb NOT NULL,                 -- {"1": 3, "2": 1, ...}
    points        double precision NOT NULL,
    score_total   double precision NOT NULL,
    average_score double precision NOT NULL,
    mu            double precision NOT NULL,
    sigma         double precision NOT NULL,
    rating        double precision NOT NULL,      -- openskill ordinal: mu - 3 sigma
    ranked        boolean NOT NULL,
    rank          integer,                        -- null while below the league's min_games
    PRIMARY KEY (league_id, player_id)
);

-- Replays --------------------------------------------------------------------

CREATE TABLE replay_games (
    game_id        uuid PRIMARY KEY,
    club_id        uuid NOT NULL,
    engine         text NOT NULL,
    seats          jsonb NOT NULL,
    names          jsonb NOT NULL,                -- player names in seat order
    options        jsonb NOT NULL,
    dealer         text NOT NULL,
    catalog        jsonb,
    status         text NOT NULL,                 -- active | finished | abandoned
    steps          integer NOT NULL,              -- the last step stored
    live_version   integer NOT NULL,              -- the live line's last version
    seed           text
);

-- Step n is the game's event of version n and the state after it (on the live
-- line as it stood then; a retraction's state is the state it went back to).
CREATE TABLE replay_steps (
    game_id       uuid NOT NULL,
    step          integer NOT NULL,
    position      bigint NOT NULL,
    type          text NOT NULL,
    data          jsonb NOT NULL,
    recorded_at   timestamptz NOT NULL,
    description   text NOT NULL,
    state         jsonb NOT NULL,
    retracted_by  integer,                        -- the step that took this one back
    PRIMARY KEY (game_id, step)
);

-- Statistics -----------------------------------------------------------------

-- One row per game; the figures are filled when it ends (its live line folded once).
CREATE TABLE stats_games (
    game_id       uuid PRIMARY KEY,
    club_id       uuid NOT NULL,
    league_id     uuid,
    engine        text NOT NULL,
    seats         jsonb NOT NULL,
    status        text NOT NULL,                  -- active | finished | abandoned
    created_at    timestamptz NOT NULL,
    ended_at      timestamptz,
    end_version   integer,
    end_position  bigint,
    events        integer,                        -- engine events on the live line
    turns         integer,
    first_seat    integer,
    places        jsonb,
    scores        jsonb,
    ended_by      text,
    engine_stats  jsonb,
    luck          jsonb                           -- {"seat": {"sum": s, "count": n}}
);
CREATE INDEX stats_games_league ON stats_games (league_id, end_position);
