-- A history file an organiser chose on the import page, kept between the
-- page that shows what will come in and the confirmation that imports it
-- (one a club: choosing another replaces it), with the import's progress
-- while it judges. Not part of the record: a row is deleted once its import
-- has stored its plays, and nothing reads it but the import page.
CREATE TABLE history_uploads (
    id                  uuid PRIMARY KEY,
    club_id             uuid NOT NULL UNIQUE REFERENCES clubs(id),
    format              text NOT NULL,
    filename            text NOT NULL,
    content             bytea NOT NULL,
    league_id           uuid REFERENCES leagues(id),
    judged              integer NOT NULL DEFAULT 0,
    plays               integer NOT NULL DEFAULT 0,
    created_at          timestamptz NOT NULL DEFAULT now()
);
