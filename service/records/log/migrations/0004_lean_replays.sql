-- Lean replays: the replays projection keeps a game's state every few steps
-- (and at each retraction) instead of at every step. A step's event is read
-- from the log, and its state is folded from the nearest kept state at or
-- before it (see service/records/steps.py). The projection starts again from
-- the beginning of the log.

DROP TABLE replay_steps;

-- The state after step `step` (on the live line as it stood then).
CREATE TABLE replay_states (
    game_id  uuid NOT NULL,
    step     integer NOT NULL,
    state    jsonb NOT NULL,
    PRIMARY KEY (game_id, step)
);

-- [[step, to_step], ...]: each ActionsRetracted step and the step it went back to, in log order.
ALTER TABLE replay_games ADD COLUMN retractions jsonb NOT NULL DEFAULT '[]';

TRUNCATE replay_games;
DELETE FROM projection_errors WHERE projection = 'replays';
UPDATE projection_checkpoints SET position = 0, updated_at = now() WHERE projection = 'replays';
