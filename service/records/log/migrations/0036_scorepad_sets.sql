-- A half-entered set on the scorepad (the cards chosen so far of a draw, the
-- answers given so far of a seat's entry), kept for whoever is entering it:
-- one row per game, sign-in and actor, so that a reload, a refused entry or
-- another phone's entry leaves it as it was. ``awaiting`` names what the game
-- awaited from that actor when it was kept: once that has changed, the set
-- is stale and shown no more.
CREATE TABLE scorepad_sets (
    game_id    uuid NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    holder     text NOT NULL,            -- the sign-in entering it (the recorder, a seat, a member)
    actor      text NOT NULL,            -- 'table', or a seat's number
    picks      jsonb NOT NULL,
    awaiting   text NOT NULL,
    PRIMARY KEY (game_id, holder, actor)
);
