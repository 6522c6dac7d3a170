-- A club's webhooks and their deliveries (service/records/hooks/).
--
-- A webhook hears of what happens in its club after it was made: the webhook
-- outbox (workers/projections/webhooks.py) reads the log from its checkpoint
-- and writes one delivery per event and webhook in the same transaction as
-- that checkpoint, so no event is missed or doubled; the senders then post
-- each delivery until it is answered 2xx (at least once, under one
-- webhook-id).
CREATE TABLE webhooks (
    id              uuid PRIMARY KEY,
    club_id         uuid NOT NULL REFERENCES clubs(id),
    url             text NOT NULL,
    events          text[] NOT NULL,
    format          text NOT NULL CHECK (format IN ('standard', 'discord')),
    secret          text NOT NULL,
    after_position  bigint NOT NULL,          -- it hears of events after this position
    failures        integer NOT NULL DEFAULT 0,  -- failed attempts since the last success
    disabled_at     timestamptz,
    disabled_reason text,
    ended_at        timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_club ON webhooks (club_id) WHERE ended_at IS NULL;

CREATE TABLE webhook_deliveries (
    id              uuid PRIMARY KEY,         -- the webhook-id, as msg_<hex>: the same on every attempt
    webhook_id      uuid NOT NULL REFERENCES webhooks(id),
    position        bigint NOT NULL,          -- the log position it tells of
    event           text NOT NULL,            -- game.started, game.ended, ...
    data            jsonb NOT NULL,
    occurred_at     timestamptz NOT NULL,
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_status     integer,                  -- the receiver's last HTTP status
    last_error      text,
    delivered_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, position);

-- The outbox's checkpoint: the last log position whose deliveries are
-- written. It starts at the log's head: nothing before any webhook existed is news.
CREATE TABLE webhook_outbox (
    only_row    boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    position    bigint NOT NULL CHECK (position >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO webhook_outbox (position) SELECT coalesce(max(position), 0) FROM events;

-- A player added is not an event of the log (players are the club's rows):
-- its deliveries are written by the transaction that adds the player,
-- whatever door it came in by, at that transaction's place in the log.
CREATE FUNCTION webhooks_player_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO webhook_deliveries (id, webhook_id, position, event, data, occurred_at)
    SELECT gen_random_uuid(), w.id, pg_current_xact_id()::text::bigint << 20, 'player.added',
           jsonb_build_object('club', NEW.club_id, 'player', jsonb_build_object('id', NEW.id, 'name', NEW.name)),
           NEW.created_at
    FROM webhooks w
    WHERE w.club_id = NEW.club_id AND w.ended_at IS NULL AND 'player.added' = ANY (w.events);
    RETURN NEW;
END $$;
CREATE TRIGGER players_webhooks AFTER INSERT ON players
    FOR EACH ROW EXECUTE FUNCTION webhooks_player_added();
