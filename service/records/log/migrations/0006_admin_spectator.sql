-- A server-dealt game may be created with its club's admin token as a mere
-- spectator (for clubs whose admin also plays): nobody at the table can peek.
ALTER TABLE games ADD COLUMN admin_spectator boolean NOT NULL DEFAULT false;
