package runwrite

import (
	"bytes"
	"context"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/results/runfolder"
)

// TestProofAgreesEverywhere checks that the console, report.html,
// manifest.json, front.json and RunProof (which a sweep's summary states:
// results/sweep's TestSummaryStatesRunProof) state the same proof, from
// the one optimizer.Proof, for an exhaustive run that is exact, one
// stopped by a bound (search.max_joint_orders too small to decide the
// mappings whose derived orders miss, and search.max_evaluations), a
// genetic run and an interrupted one.
func TestProofAgreesEverywhere(t *testing.T) {
	cases := []struct {
		name      string
		yaml      string
		algorithm configs.Algorithm
		cancel    bool
		want      optimizer.Exactness
		reason    string // a part of the reasons, for a front that is not exact
	}{
		{name: "exhaustive, exact", yaml: "model: builtin\n", algorithm: configs.AlgorithmExhaustive, want: optimizer.Exact},
		{name: "exhaustive, joint orders bounded", yaml: "model: builtin\nanalysis: {contention: request}\nsearch: {max_joint_orders: 1}\n", algorithm: configs.AlgorithmExhaustive,
			want: optimizer.NotExact, reason: "search.max_joint_orders (1)"},
		{name: "exhaustive, evaluations bounded", yaml: "model: builtin\nsearch: {max_evaluations: 300}\n", algorithm: configs.AlgorithmExhaustive,
			want: optimizer.NotExact, reason: "stopped at search.max_evaluations (300)"},
		{name: "genetic", yaml: "model: builtin\nsearch: {generations: 3, population: 20}\n", algorithm: configs.AlgorithmNSGA2, want: optimizer.Heuristic},
		{name: "interrupted", yaml: "model: builtin\n", algorithm: configs.AlgorithmExhaustive, cancel: true, want: optimizer.Stopped},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := configs.LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			e, err := evaluate.NewEvaluator(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.cancel {
				cancel()
			}
			out, err := optimizer.Run(ctx, e, optimizer.Options{Algorithm: tc.algorithm, Workers: 1})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if out.Proof.Exactness != tc.want {
				t.Fatalf("proof %v (%s), want %v", out.Proof.Exactness, out.Proof.Statement(out.Feasible), tc.want)
			}
			statement := out.Proof.Statement(out.Feasible)
			if tc.reason != "" && !strings.Contains(statement, tc.reason) {
				t.Errorf("the statement %q does not give the reason %q", statement, tc.reason)
			}
			if tc.name == "exhaustive, joint orders bounded" && (out.Proof.UndecidedCount == 0 || len(out.Proof.Undecided) == 0) {
				t.Errorf("no undecided mapping named: %+v", out.Proof)
			}
			dir := filepath.Join(t.TempDir(), "run")
			if err := Write(dir, cfg, out, results.RunInfo{Version: "test", Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Workers: 1}); err != nil {
				t.Fatal(err)
			}
			var console bytes.Buffer
			if err := results.WriteFrontText(&console, cfg, out, results.TextOptions{}); err != nil {
				t.Fatal(err)
			}
			// The console wraps its lines: compare with the spaces joined.
			flat := strings.Join(strings.Fields(console.String()), " ")
			switch {
			case !out.Feasible && tc.want == optimizer.Stopped:
				if !strings.Contains(flat, "before the interruption") {
					t.Errorf("the console does not say the run was interrupted:\n%s", console.String())
				}
			case out.Feasible && !strings.Contains(flat, strings.Join(strings.Fields(statement), " ")):
				t.Errorf("the console does not state %q:\n%s", statement, console.String())
			}
			run, err := runfolder.Open(dir, func(*runfolder.Run, *results.FrontPointJSON) error { return nil })
			if err != nil {
				t.Fatal(err)
			}
			m, f := run.Manifest, run.Front // manifest.json and front.json's head
			for what, p := range map[string]results.ProofJSON{"manifest.json": m.Proof, "front.json": f.Proof, "RunProof": results.RunProof(&m)} {
				if p.Exactness != tc.want || p.Statement != statement || p.UndecidedCount != out.Proof.UndecidedCount {
					t.Errorf("%s states %v, %q (%d undecided); the run %v, %q (%d)", what, p.Exactness, p.Statement, p.UndecidedCount, tc.want, statement, out.Proof.UndecidedCount)
				}
			}
			report, err := os.ReadFile(filepath.Join(dir, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			top := string(report)
			if i := strings.Index(top, "<nav>"); i >= 0 {
				top = top[:i] // near the top: before the navigation
			}
			if !strings.Contains(html.UnescapeString(top), "Front "+statement) {
				t.Errorf("report.html does not state %q before its navigation", statement)
			}
			for _, u := range out.Proof.Undecided {
				if !strings.Contains(html.UnescapeString(string(report)), u) {
					t.Errorf("report.html does not name the undecided mapping %q", u)
				}
			}
		})
	}
}
