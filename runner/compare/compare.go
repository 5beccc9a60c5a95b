// Package compare runs several implementations of one suite over the same
// cases and lays the results out as one matrix, case × implementation: a
// Markdown table for a README or a pull request, and a self-contained
// static HTML page (no server, no network) that filters by verdict and
// requirement, expands a failure to its expected-versus-got report, and
// sums up each implementation. It reads only runner.Reports, so both
// suites, and a single certification (one column), use it alike.
package compare

import (
	"context"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Impl is one implementation to compare: a name for its column and the
// run that certifies it (a suite's Runner.Run with its settings).
type Impl struct {
	Name string
	// Profile is the profile it is certified at, for the summary.
	Profile string
	Run     func(ctx context.Context) (*runner.Report, error)
}

// Column is what one implementation's run gave.
type Column struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	Profile string `json:"profile,omitempty"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Skipped int    `json:"skipped"`
	// Partial says why the run did not cover every case.
	Partial []string `json:"partial,omitempty"`
	// Problems are the run-level failures of the report.
	Problems []string `json:"problems,omitempty"`
	// Error is why the run gave no report at all (the implementation
	// could not be started); its cells are empty.
	Error string `json:"error,omitempty"`
}

// Cell is one case on one implementation.
type Cell struct {
	// Verdict is empty when the implementation did not run the case.
	Verdict runner.Verdict `json:"verdict,omitempty"`
	Reason  string         `json:"reason,omitempty"`
	// Detail is the failure as the human report prints it: the command,
	// its output and each problem with its diff (-want +got).
	Detail string `json:"detail,omitempty"`
}

// Row is one case across the implementations.
type Row struct {
	Name         string   `json:"name"`
	Requirements []string `json:"requirements,omitempty"`
	Description  string   `json:"description,omitempty"`
	Cells        []Cell   `json:"cells"`
}

// Matrix is the comparison: one column per implementation, one row per
// case any of them ran, sorted by name.
type Matrix struct {
	Suite   string   `json:"suite"`
	Corpus  string   `json:"corpus,omitempty"`
	Module  string   `json:"module"`
	Columns []Column `json:"columns"`
	Rows    []Row    `json:"rows"`
}

// Run certifies each implementation in turn and builds the matrix. A run
// that gives no report (an implementation that cannot be started) becomes
// a column with its error; only an interrupted run returns an error.
func Run(ctx context.Context, impls []Impl) (*Matrix, error) {
	reps := make([]*runner.Report, len(impls))
	cols := make([]Column, len(impls))
	for i, im := range impls {
		rep, err := im.Run(ctx)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		cols[i] = Column{Name: im.Name, Profile: im.Profile}
		if err != nil {
			cols[i].Error = err.Error()
			continue
		}
		reps[i] = rep
	}
	return Build(cols, reps), nil
}

// Build lays out reports side by side: cols[i] names reports[i], which
// may be nil for a run that gave none (its Error says why).
func Build(cols []Column, reports []*runner.Report) *Matrix {
	m := &Matrix{Module: runner.ModuleVersion()}
	rows := map[string]*Row{}
	for i, rep := range reports {
		col := cols[i]
		if rep == nil {
			m.Columns = append(m.Columns, col)
			continue
		}
		c := rep.Certificate
		m.Suite = c.Suite
		if m.Corpus == "" {
			m.Corpus = corpusLine(c.Corpus)
		}
		col.Version = oneLine(c.Version)
		if col.Profile == "" {
			col.Profile = c.Profile
		}
		col.Passed, col.Failed, col.Skipped, col.Partial, col.Problems = c.Passed, c.Failed, c.Skipped, c.Partial, rep.Problems
		m.Columns = append(m.Columns, col)
		for _, res := range rep.Results {
			row := rows[res.Name]
			if row == nil {
				row = &Row{Name: res.Name, Requirements: res.Requirements, Description: res.Description, Cells: make([]Cell, len(reports))}
				rows[res.Name] = row
			}
			cell := Cell{Verdict: res.Verdict, Reason: firstNonEmpty(res.Reason, res.SkipReason)}
			if res.Verdict.Failed() || res.Verdict == runner.Skip {
				cell.Detail = res.Text()
			}
			row.Cells[i] = cell
		}
	}
	for _, row := range rows {
		m.Rows = append(m.Rows, *row)
	}
	slices.SortFunc(m.Rows, func(a, b Row) int { return strings.Compare(a.Name, b.Name) })
	return m
}

func corpusLine(c runner.CorpusInfo) string {
	s := strings.Join(c.Sources, ", ") + ", sha256:" + c.SHA256
	return s
}

// AllPassed reports whether every implementation passed the row.
func (r Row) AllPassed() bool {
	for _, c := range r.Cells {
		if c.Verdict != runner.Pass {
			return false
		}
	}
	return true
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " / ")), " ")
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
