-- Refused entries of cards from a pool their maker may not see (a player
-- entering their own draw): how many of one entry (the game's version while
-- it awaits that chance) each seat has had refused. Past a few, the seat's
-- further tries are refused until the recorder lets it try again.
CREATE TABLE entry_refusals (
    game_id   uuid NOT NULL REFERENCES games(id),
    version   integer NOT NULL,
    seat      integer NOT NULL,
    refusals  integer NOT NULL,
    PRIMARY KEY (game_id, version, seat)
);
