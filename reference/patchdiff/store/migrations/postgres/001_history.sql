-- PatchDIFF history (postgres): the target, its snapshots, the append-only
-- attempt log and the accepted-only manifest ledger, with the tables and
-- columns the seed names (spec/patchdiff REPLAY-002). Applied once by
-- package store; schema_migrations records it.
CREATE TABLE IF NOT EXISTS cloud_target_files (
  target_file_id  TEXT PRIMARY KEY,
  current_content TEXT NOT NULL,
  current_hash    TEXT NOT NULL,
  version         BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS "TargetSnapshots" (
  snapshot_id     BIGINT PRIMARY KEY,
  target_file_id  TEXT NOT NULL,
  snapshot_reason TEXT NOT NULL,
  content         TEXT NOT NULL,
  content_hash    TEXT NOT NULL,
  version         BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS append_only_pdcp_logs (
  pdcp_log_id        BIGINT PRIMARY KEY,
  target_file_id     TEXT NOT NULL,
  protocol_version   TEXT NOT NULL,
  runtime_version    TEXT NOT NULL,
  pdcp_content       TEXT NOT NULL,
  pdcp_content_hash  TEXT NOT NULL,
  before_version     BIGINT NOT NULL,
  after_version      BIGINT,
  before_hash        TEXT NOT NULL,
  after_hash         TEXT,
  status             TEXT NOT NULL,
  failure_reason     TEXT,
  diagnostic_json    JSONB,
  client_request_id  TEXT,
  parent_pdcp_log_id TEXT,
  attempt            BIGINT
);

CREATE TABLE IF NOT EXISTS append_only_manifest_ledger (
  ledger_id      BIGINT PRIMARY KEY,
  pdcp_log_id    BIGINT NOT NULL,
  target_file_id TEXT NOT NULL,
  origin         TEXT NOT NULL,
  derived_json   JSONB NOT NULL
);
