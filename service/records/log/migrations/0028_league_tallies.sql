-- A league's statistics summed over its finished games (the statistics page's
-- ``Tally``), kept by the statistics projection in the transaction that writes
-- the games' rows, so a new process reads it instead of summing the league.
-- ``games``, ``last`` and ``total`` name the games it holds (their count, and
-- their end positions' highest value and sum).
CREATE TABLE stats_tallies (
    league_id  uuid PRIMARY KEY,
    games      integer NOT NULL,
    last       bigint NOT NULL,
    total      numeric NOT NULL,
    tally      jsonb NOT NULL
);
