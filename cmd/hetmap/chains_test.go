package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyzeChainsJSON checks the chains of the feasible mapping against
// hand computations from the response times the same run reports.
func TestAnalyzeChainsJSON(t *testing.T) {
	out, errOut, code := hetmap(t, "analyze", "--mapping", "testdata/waters_feasible.yaml", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	type values struct {
		ReactionFromActivationNs int64 `json:"reaction_from_activation_ns"`
		MaxReactionTimeNs        int64 `json:"max_reaction_time_ns"`
		MaxDataAgeNs             int64 `json:"max_data_age_ns"`
	}
	var rep struct {
		Tasks []struct {
			Name           string `json:"name"`
			ResponseTimeNs int64  `json:"response_time_ns"`
		} `json:"tasks"`
		Chains []struct {
			Name     string  `json:"name"`
			Status   string  `json:"status"`
			Implicit *values `json:"implicit"`
			LET      *values `json:"let"`
			DavareNs *int64  `json:"davare_ns"`
			Members  []struct {
				Task, Unit    string
				RepresentedBy string `json:"represented_by"`
			} `json:"members"`
		} `json:"chains"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Chains) != 8 {
		t.Fatalf("%d chains, want 8", len(rep.Chains))
	}
	R := map[string]int64{}
	for _, tk := range rep.Tasks {
		R[tk.Name] = tk.ResponseTimeNs
	}
	for _, c := range rep.Chains {
		if c.Status != "ok" || c.Implicit == nil || c.LET == nil || c.DavareNs == nil {
			t.Fatalf("chain %s: status %s, values %v %v %v", c.Name, c.Status, c.Implicit, c.LET, c.DavareNs)
		}
		if c.Implicit.MaxReactionTimeNs > *c.DavareNs {
			t.Errorf("%s: job-level reaction %d above Davare's bound %d", c.Name, c.Implicit.MaxReactionTimeNs, *c.DavareNs)
		}
		if c.Name != "CA-P-DA" {
			continue
		}
		can, planner, dasm := R["CANbus_polling"], R["Planner"], R["DASM"]
		// Davare: Σ (T + R) = (10 ms + R_CAN) + (15 ms + R_Planner) + (5 ms + R_DASM).
		if want := 30_000_000 + can + planner + dasm; *c.DavareNs != want {
			t.Errorf("CA-P-DA Davare = %d, want %d", *c.DavareNs, want)
		}
		// Job level, all released at 0, implicit (read at release, write at
		// r + R): CAN's job at 0 writes at R_CAN (< 15 ms); Planner's first
		// job at or after it is at 15 ms and writes at 15 ms + R_Planner
		// (< 30 ms); DASM's job at 30 ms writes at 30 ms + R_DASM. Reaction
		// from activation = 30 ms + R_DASM; reaction time adds T_CAN = 10 ms.
		if c.Implicit.ReactionFromActivationNs != 30_000_000+dasm || c.Implicit.MaxReactionTimeNs != 40_000_000+dasm {
			t.Errorf("CA-P-DA implicit = %+v, want reaction from activation %d", c.Implicit, 30_000_000+dasm)
		}
		// LET: every job reads at r and writes at r + T. Forward from CAN's
		// job at 0: writes 10 → Planner's job at 15 writes 30 → DASM's job at
		// 30 writes 35: 35 ms. From CAN's job at 10: writes 20 → Planner at
		// 30 writes 45 → DASM at 45 writes 50: 40 ms, the worst (jobs at 20,
		// 30, 40 give 30, 35, 40). Reaction time = 40 + T_CAN = 50 ms.
		// Data age, backward: DASM's job at 40 reads Planner's write at 30
		// (its job at 15), which read CAN's write at 10 (its job at 0): age =
		// DASM's write 45 − 0 = 45 ms, the worst (DASM at 55 gives 60 − 20 = 40).
		if c.LET.ReactionFromActivationNs != 40_000_000 || c.LET.MaxReactionTimeNs != 50_000_000 || c.LET.MaxDataAgeNs != 45_000_000 {
			t.Errorf("CA-P-DA LET = %+v", c.LET)
		}
	}
	for _, c := range rep.Chains {
		if c.Name == "SF-P-DA" && (c.Members[0].Task != "SFM" || c.Members[0].RepresentedBy != "PRE_SFM_gpu_POST") {
			t.Errorf("SFM on the GPU must be represented by its offloading task: %+v", c.Members[0])
		}
	}
}

// TestChainWithoutLatencySaysWhyInUnits: under the model's requirements,
// Planner (R = 13.1899 ms in the feasible mapping under the refined count)
// misses its 12 ms, so the chains through it have no latency, and the
// reason is written in ms.
func TestChainWithoutLatencySaysWhyInUnits(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "strict.yaml")
	if err := os.WriteFile(cfg, []byte("model: builtin\nconventions: {deadlines: model}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := hetmap(t, "analyze", "--config", cfg, "--mapping", "testdata/waters_feasible.yaml")
	if code != 1 || !strings.Contains(out, "CA-P-DA: no latency: member 2 (Planner) is not schedulable: R = 13.1899 ms > D = 12 ms") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}
