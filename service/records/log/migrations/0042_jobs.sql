-- A history import or a club restore asked to run as a job (`Prefer:
-- respond-async`): the file, who asked, and how far it has come. A worker
-- claims a queued job, runs it in the same all-or-nothing way as an answered
-- import or restore, writing `done`/`total` as it goes, then its result or
-- its problem. Not part of the record: nothing reads it but `GET /jobs/{job}`.
CREATE TABLE jobs (
    id                  uuid PRIMARY KEY,
    kind                text NOT NULL CHECK (kind IN ('history-import', 'club-restore')),
    club_id             uuid REFERENCES clubs(id),
    started_by          jsonb,
    client              text NOT NULL,
    request             jsonb NOT NULL DEFAULT '{}',
    content             bytea,
    status              text NOT NULL DEFAULT 'queued'
                        CHECK (status IN ('queued', 'running', 'done', 'failed')),
    done                integer NOT NULL DEFAULT 0,
    total               integer NOT NULL DEFAULT 0,
    attempts            integer NOT NULL DEFAULT 0,
    result              jsonb,
    problem             jsonb,
    created_at          timestamptz NOT NULL DEFAULT now(),
    started_at          timestamptz,
    finished_at         timestamptz
);
CREATE INDEX jobs_unfinished ON jobs (created_at) WHERE status IN ('queued', 'running');
