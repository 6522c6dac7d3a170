-- Catalogs belong to the club that registered them; the shipped defaults
-- (club_id NULL) to no club. A catalog is now named by kind, id, version and
-- owner, so two clubs may each have their own "tuesday-printed" v1, and a
-- club can no longer take (or shadow) an id another club or a default uses.
ALTER TABLE catalogs DROP CONSTRAINT catalogs_pkey;
CREATE UNIQUE INDEX catalogs_owned_version ON catalogs (kind, id, version, club_id) NULLS NOT DISTINCT;

-- The owner of the catalog each game was created with (NULL: a shipped default).
ALTER TABLE games ADD COLUMN catalog_club_id uuid REFERENCES clubs(id);
UPDATE games g SET catalog_club_id = c.club_id
  FROM catalogs c
 WHERE c.kind = g.catalog_kind AND c.id = g.catalog_id AND c.version = g.catalog_version;
