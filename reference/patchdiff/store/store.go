// Package store keeps PatchDIFF histories (replay.History) where operators
// keep them: an embedded SQLite file by default (modernc.org/sqlite, pure
// Go), PostgreSQL when given a postgres:// URL (jackc/pgx), with the
// tables and columns the seed names, created by the migration embedded
// here (spec/patchdiff REPLAY-002); and the JSON-lines history file
// (REPLAY-021). Reading a store never changes it.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff/replay"
)

//go:embed migrations
var migrations embed.FS

// Kind names where a history lives.
type Kind string

const (
	SQLite   Kind = "sqlite"
	Postgres Kind = "postgres"
	JSONL    Kind = "jsonl"
)

// KindOf says where location keeps a history: a postgres:// or
// postgresql:// URL is PostgreSQL, a path ending in .jsonl a history file,
// anything else an SQLite file.
func KindOf(location string) Kind {
	switch {
	case strings.HasPrefix(location, "postgres://"), strings.HasPrefix(location, "postgresql://"):
		return Postgres
	case strings.HasSuffix(location, ".jsonl"):
		return JSONL
	}
	return SQLite
}

// Save writes h to location, creating the schema of a database first. A
// database must not hold a history yet; a history file is replaced.
func Save(ctx context.Context, location string, h *replay.History) error {
	if KindOf(location) == JSONL {
		f, err := os.Create(location)
		if err != nil {
			return err
		}
		if err := replay.WriteJSONL(f, h); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	db, err := Open(ctx, location)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Write(ctx, h)
}

// Load reads the history kept at location.
func Load(ctx context.Context, location string) (*replay.History, error) {
	if KindOf(location) == JSONL {
		f, err := os.Open(location)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return replay.ReadJSONL(f)
	}
	db, err := Open(ctx, location)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return db.Read(ctx)
}

// DB is a history database.
type DB struct {
	db   *sql.DB
	kind Kind
}

// Open opens the database at location (an SQLite path or a postgres://
// URL) and applies the migration when it has not been applied.
func Open(ctx context.Context, location string) (*DB, error) {
	kind := KindOf(location)
	var d *DB
	switch kind {
	case Postgres:
		db, err := sql.Open("pgx", location)
		if err != nil {
			return nil, err
		}
		d = &DB{db, kind}
	case SQLite:
		db, err := sql.Open("sqlite", location)
		if err != nil {
			return nil, err
		}
		db.SetMaxOpenConns(1)
		d = &DB{db, kind}
	default:
		return nil, fmt.Errorf("%s is a history file, not a database", location)
	}
	if err := d.migrate(ctx); err != nil {
		d.db.Close()
		return nil, err
	}
	return d, nil
}

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

// migrate applies every migration file of the database's kind, in name
// order, once.
func (d *DB) migrate(ctx context.Context) error {
	if _, err := d.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY)`); err != nil {
		return fmt.Errorf("migration: %w", err)
	}
	dir := "migrations/" + string(d.kind)
	entries, err := migrations.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		var n int
		if err := d.db.QueryRowContext(ctx, d.q(`SELECT COUNT(*) FROM schema_migrations WHERE name = ?`), e.Name()).Scan(&n); err != nil {
			return fmt.Errorf("migration: %w", err)
		}
		if n > 0 {
			continue
		}
		script, _ := migrations.ReadFile(dir + "/" + e.Name())
		tx, err := d.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		for _, stmt := range strings.Split(stripComments(string(script)), ";") {
			if strings.TrimSpace(stmt) == "" {
				continue
			}
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				tx.Rollback()
				return fmt.Errorf("migration %s: %w", e.Name(), err)
			}
		}
		if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO schema_migrations (name) VALUES (?)`), e.Name()); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

func stripComments(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// q rewrites ? placeholders as $1, $2, … for PostgreSQL.
func (d *DB) q(query string) string {
	if d.kind != Postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Write adds every row of h in one transaction. The database must hold no
// row of h's target yet.
func (d *DB) Write(ctx context.Context, h *replay.History) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	insert := func(query string, rows int, args func(i int) []any) error {
		if rows == 0 {
			return nil
		}
		st, err := tx.PrepareContext(ctx, d.q(query))
		if err != nil {
			return err
		}
		defer st.Close()
		for i := range rows {
			if _, err := st.ExecContext(ctx, args(i)...); err != nil {
				return err
			}
		}
		return nil
	}
	err = insert(`INSERT INTO cloud_target_files (target_file_id, current_content, current_hash, version) VALUES (?, ?, ?, ?)`,
		len(h.Targets), func(i int) []any {
			r := h.Targets[i]
			return []any{r.TargetFileID, r.CurrentContent, r.CurrentHash, r.Version}
		})
	if err == nil {
		err = insert(`INSERT INTO "TargetSnapshots" (snapshot_id, target_file_id, snapshot_reason, content, content_hash, version) VALUES (?, ?, ?, ?, ?, ?)`,
			len(h.Snapshots), func(i int) []any {
				r := h.Snapshots[i]
				return []any{r.SnapshotID, r.TargetFileID, r.SnapshotReason, r.Content, r.ContentHash, r.Version}
			})
	}
	if err == nil {
		err = insert(`INSERT INTO append_only_pdcp_logs (pdcp_log_id, target_file_id, protocol_version, runtime_version, pdcp_content, pdcp_content_hash,
			before_version, after_version, before_hash, after_hash, status, failure_reason, diagnostic_json, client_request_id, parent_pdcp_log_id, attempt)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			len(h.Logs), func(i int) []any {
				r := h.Logs[i]
				return []any{r.PDCPLogID, r.TargetFileID, r.ProtocolVersion, r.RuntimeVersion, r.PDCPContent, r.PDCPContentHash,
					r.BeforeVersion, r.AfterVersion, r.BeforeHash, r.AfterHash, r.Status, r.FailureReason, r.DiagnosticJSON,
					r.ClientRequestID, r.ParentPDCPLogID, r.Attempt}
			})
	}
	if err == nil {
		err = insert(`INSERT INTO append_only_manifest_ledger (ledger_id, pdcp_log_id, target_file_id, origin, derived_json) VALUES (?, ?, ?, ?, ?)`,
			len(h.Ledger), func(i int) []any {
				r := h.Ledger[i]
				return []any{r.LedgerID, r.PDCPLogID, r.TargetFileID, r.Origin, r.DerivedJSON}
			})
	}
	if err != nil {
		return fmt.Errorf("writing the history: %w", err)
	}
	return tx.Commit()
}

// Read returns every row of the database: targets by target_file_id,
// snapshots, log rows and ledger rows by their keys. JSONB columns come
// back as PostgreSQL writes them, which replay compares by value
// (REPLAY-015).
func (d *DB) Read(ctx context.Context) (*replay.History, error) {
	h := &replay.History{}
	rows, err := d.db.QueryContext(ctx, `SELECT target_file_id, current_content, current_hash, version FROM cloud_target_files ORDER BY target_file_id`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var r replay.Target
		if err := rows.Scan(&r.TargetFileID, &r.CurrentContent, &r.CurrentHash, &r.Version); err != nil {
			rows.Close()
			return nil, err
		}
		h.Targets = append(h.Targets, r)
	}
	if err := done(rows); err != nil {
		return nil, err
	}
	rows, err = d.db.QueryContext(ctx, `SELECT snapshot_id, target_file_id, snapshot_reason, content, content_hash, version FROM "TargetSnapshots" ORDER BY snapshot_id`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var r replay.Snapshot
		if err := rows.Scan(&r.SnapshotID, &r.TargetFileID, &r.SnapshotReason, &r.Content, &r.ContentHash, &r.Version); err != nil {
			rows.Close()
			return nil, err
		}
		h.Snapshots = append(h.Snapshots, r)
	}
	if err := done(rows); err != nil {
		return nil, err
	}
	rows, err = d.db.QueryContext(ctx, `SELECT pdcp_log_id, target_file_id, protocol_version, runtime_version, pdcp_content, pdcp_content_hash,
		before_version, after_version, before_hash, after_hash, status, failure_reason, diagnostic_json, client_request_id, parent_pdcp_log_id, attempt
		FROM append_only_pdcp_logs ORDER BY pdcp_log_id`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var r replay.LogRow
		var afterV, attempt sql.NullInt64
		var afterH, reason, diag, client, parent sql.NullString
		if err := rows.Scan(&r.PDCPLogID, &r.TargetFileID, &r.ProtocolVersion, &r.RuntimeVersion, &r.PDCPContent, &r.PDCPContentHash,
			&r.BeforeVersion, &afterV, &r.BeforeHash, &afterH, &r.Status, &reason, &diag, &client, &parent, &attempt); err != nil {
			rows.Close()
			return nil, err
		}
		r.AfterVersion, r.Attempt = nullInt(afterV), nullInt(attempt)
		r.AfterHash, r.FailureReason, r.DiagnosticJSON = nullString(afterH), nullString(reason), nullString(diag)
		r.ClientRequestID, r.ParentPDCPLogID = nullString(client), nullString(parent)
		h.Logs = append(h.Logs, r)
	}
	if err := done(rows); err != nil {
		return nil, err
	}
	rows, err = d.db.QueryContext(ctx, `SELECT ledger_id, pdcp_log_id, target_file_id, origin, derived_json FROM append_only_manifest_ledger ORDER BY ledger_id`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var r replay.LedgerRow
		if err := rows.Scan(&r.LedgerID, &r.PDCPLogID, &r.TargetFileID, &r.Origin, &r.DerivedJSON); err != nil {
			rows.Close()
			return nil, err
		}
		h.Ledger = append(h.Ledger, r)
	}
	if err := done(rows); err != nil {
		return nil, err
	}
	return h, nil
}

func done(rows *sql.Rows) error {
	err := rows.Err()
	return errors.Join(err, rows.Close())
}

func nullInt(n sql.NullInt64) *int64 {
	if !n.Valid {
		return nil
	}
	return &n.Int64
}

func nullString(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}
