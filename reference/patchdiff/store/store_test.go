package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/pgtest"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff/replay"
)

// server is the PostgreSQL server the tests start, nil where none is
// installed (noServer says why).
var (
	server   *pgtest.Server
	noServer error
	dbs      atomic.Int64
)

func TestMain(m *testing.M) {
	server, noServer = pgtest.Start()
	if noServer != nil && !errors.Is(noServer, pgtest.ErrNoServer) {
		fmt.Fprintln(os.Stderr, "starting PostgreSQL:", noServer)
		os.Exit(1)
	}
	code := m.Run()
	if server != nil {
		server.Stop()
	}
	os.Exit(code)
}

// locations returns one fresh location of each kind the test can use.
func locations(t testing.TB) map[Kind]string {
	t.Helper()
	dir := t.TempDir()
	out := map[Kind]string{SQLite: filepath.Join(dir, "history.db"), JSONL: filepath.Join(dir, "history.jsonl")}
	if server == nil {
		t.Logf("PostgreSQL not tested: %v", noServer)
		return out
	}
	url, err := server.CreateDB(fmt.Sprintf("h%d", dbs.Add(1)))
	if err != nil {
		t.Fatal(err)
	}
	out[Postgres] = url
	return out
}

func historyRows(t testing.TB) int {
	if testing.Short() {
		return 1000
	}
	return 10000
}

// TestStoresAgree: a 10,000-row history saved in SQLite, PostgreSQL and a
// history file reads back with every row intact and replays to the same
// report byte for byte.
func TestStoresAgree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := replay.SampleHistory(historyRows(t))
	want, _ := replay.Verify(h).MarshalJSON()
	for kind, loc := range locations(t) {
		if err := Save(ctx, loc, h); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		back, err := Load(ctx, loc)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		got, _ := replay.Verify(back).MarshalJSON()
		if string(got) != string(want) {
			t.Errorf("%s: report\n%s\nwant\n%s", kind, got, want)
		}
		if kind == Postgres {
			// JSONB keeps values, not spellings: compare the other columns.
			for i := range back.Logs {
				back.Logs[i].DiagnosticJSON = h.Logs[i].DiagnosticJSON
			}
			for i := range back.Ledger {
				back.Ledger[i].DerivedJSON = h.Ledger[i].DerivedJSON
			}
		}
		if d := cmp.Diff(h, back); d != "" {
			t.Errorf("%s: rows differ (-want +got)\n%s", kind, d)
		}
	}
}

// TestStoredCorruptionSeen: a field changed in the database itself (an
// UPDATE, as an operator's mistake would) is reported like the same
// change in memory, from every database.
func TestStoredCorruptionSeen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := replay.SampleHistory(12)
	for kind, loc := range locations(t) {
		if kind == JSONL {
			continue
		}
		if err := Save(ctx, loc, h); err != nil {
			t.Fatal(err)
		}
		db, err := Open(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.db.ExecContext(ctx, db.q(`UPDATE append_only_pdcp_logs SET after_hash = ? WHERE pdcp_log_id = 5`), flip(*h.Logs[4].AfterHash)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.db.ExecContext(ctx, `UPDATE cloud_target_files SET current_content = REPLACE(current_content, 'body', 'BODY')`); err != nil {
			t.Fatal(err)
		}
		db.Close()
		back, err := Load(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		rep := replay.Verify(back)
		if rep.Failure == nil || rep.Failure.Check != "after_hash" || *rep.Failure.RowID != 5 {
			t.Errorf("%s: %+v", kind, rep.Failure)
		}
	}
}

// TestMigrationOnce: opening a database twice applies its migration once
// and keeps its rows.
func TestMigrationOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for kind, loc := range locations(t) {
		if kind == JSONL {
			continue
		}
		if err := Save(ctx, loc, replay.SampleHistory(3)); err != nil {
			t.Fatal(err)
		}
		db, err := Open(ctx, loc)
		if err != nil {
			t.Fatalf("%s: reopening: %v", kind, err)
		}
		var n int
		db.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n)
		h, err := db.Read(ctx)
		db.Close()
		if err != nil || n != 1 || len(h.Logs) != 3 {
			t.Errorf("%s: %d migrations, %v, %v", kind, n, h, err)
		}
	}
}

func flip(h string) string {
	if h[0] == '0' {
		return "1" + h[1:]
	}
	return "0" + h[1:]
}
