package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/moo"
)

// InterruptedText says that, and where, a run was interrupted, for the
// console: the search (what it had found is the front), or a stage after
// it (the front is complete, or what of it was analysed in time).
func InterruptedText(out *optimizer.Outcome) string {
	switch out.InterruptedIn {
	case optimizer.StageFront:
		return fmt.Sprintf("Interrupted while analysing the front's mappings, after the search had ended: %d of its %d points analysed in time are shown, the others dropped.",
			len(out.Front), len(out.Front)+out.Dropped)
	case optimizer.StageMargins:
		return fmt.Sprintf("Interrupted while computing the margins, after the search had ended: the front is complete; %d of its %d points have their margin, the others say that it was not computed.",
			out.Margins, len(out.Front))
	case optimizer.StageWriting:
		return "Interrupted while writing the run's files, after the search had ended: the front is complete."
	}
	return fmt.Sprintf("Interrupted after %d evaluations: what the search had found by then.", out.Evaluations)
}

// StopText says why a genetic search stopped, in a sentence ("" for an
// exhaustive search, whose proof says it, and for an interrupted one).
func StopText(out *optimizer.Outcome) string {
	s := out.Search
	if s.Algorithm == configs.AlgorithmExhaustive || out.Status == moo.Interrupted {
		return ""
	}
	return stopSentence(statusToken(out.Status), out.Generations, out.Analyses, s)
}

// stopSentence is StopText from a manifest's tokens and counts.
func stopSentence(status string, generations, analyses int, s configs.Search) string {
	window, tol := 0, s.StallTolerance
	if s.StallGenerations != nil {
		window = *s.StallGenerations
	}
	switch status {
	case StatusConverged:
		return fmt.Sprintf("Stopped at generation %d: over the last %d generations the front improved by at most %s of its extent (search.stall_generations and stall_tolerance; the limit was %d generations).",
			generations, window, shareText(tol), s.Generations)
	case StatusGenerationLimit:
		if window > 0 {
			return fmt.Sprintf("Stopped at the generation limit, %d (search.generations), the front still improving by more than %s of its extent over %d generations (search.stall_generations and stall_tolerance).",
				s.Generations, shareText(tol), window)
		}
		return fmt.Sprintf("Stopped at the generation limit, %d (search.generations).", s.Generations)
	case StatusEvaluationLimit:
		return fmt.Sprintf("Stopped at the evaluation limit, %d analyses (search.max_evaluations), after %d generations.", analyses, generations)
	case StatusExhausted:
		return "Stopped: every mapping of the search space was evaluated."
	}
	return ""
}

// shareText writes a share of a front's extent: "0.5 %".
func shareText(v float64) string {
	return strconv.FormatFloat(100*v, 'f', -1, 64) + " %"
}

// CoverageText says what a bounded front (search.max_front) loses, in the
// objectives' units: every feasible mapping met has a reported point less
// than ε worse on every objective. "" for a front that holds every
// non-dominated mapping met.
func CoverageText(out *optimizer.Outcome) string {
	if out.Epsilon == nil {
		return ""
	}
	limit := 0
	if out.Search.MaxFront != nil {
		limit = *out.Search.MaxFront
	}
	return coverageSentence(limit, out.FrontFound, len(out.Front), EpsilonText(out.Search.Objectives, out.Epsilon))
}

// ManifestCoverageText is CoverageText from a run folder's manifest.
func ManifestCoverageText(m *Manifest) string {
	if m.EpsilonText == "" {
		return ""
	}
	limit := 0
	if m.Settings.MaxFront != nil {
		limit = *m.Settings.MaxFront
	}
	return coverageSentence(limit, m.FrontFound, m.FrontSize, m.EpsilonText)
}

func coverageSentence(limit, found, shown int, eps string) string {
	if found > 0 {
		return fmt.Sprintf("The exact front's %d points are thinned to these %d (search.max_front): every feasible mapping has one of them less than ε worse on each objective, ε: %s.",
			found, shown, eps)
	}
	return fmt.Sprintf("The front keeps at most %d points (search.max_front): every feasible mapping the search met, under every priority order it evaluated, has one of them less than ε worse on each objective, ε: %s.",
		limit, eps)
}

// EpsilonText writes the ε of a bounded front per objective, in the
// objectives' units, each rounded up (so that it still bounds):
// "C0 8 ms, C1 0.25 ms, cores-used 1 core".
func EpsilonText(objs []configs.Objective, eps []float64) string {
	var parts []string
	for k, e := range eps {
		if k >= len(objs) {
			break
		}
		parts = append(parts, objectiveLabel(objs, k)+" "+epsilonValue(objs[k], e))
	}
	return strings.Join(parts, ", ")
}

// objectiveLabel names objective k briefly: the chain for chain
// objectives, the kind otherwise.
func objectiveLabel(objs []configs.Objective, k int) string {
	if o := objs[k]; o.Kind == configs.ObjectiveChain {
		return o.Chain
	}
	return objs[k].Name()
}

// epsilonValue writes ε of objective o in its unit, rounded up to three
// significant digits.
func epsilonValue(o configs.Objective, e float64) string {
	switch o.Kind {
	case configs.ObjectiveChain:
		ms := e
		switch {
		case ms >= 1:
			return ceilSignificant(ms) + " ms"
		case ms >= 1e-3:
			return ceilSignificant(ms*1e3) + " µs"
		}
		return ceilSignificant(ms*1e6) + " ns"
	case configs.ObjectiveMaxUtilisation:
		return ceilSignificant(100*e) + " %"
	case configs.ObjectiveMargin:
		return "×" + ceilSignificant(e)
	case configs.ObjectiveCoresUsed:
		if e == 1 {
			return "1 core"
		}
		return ceilSignificant(e) + " cores"
	}
	return ceilSignificant(e)
}

// ceilSignificant writes v > 0 rounded up to three significant digits,
// without trailing zeros: 0.9765625 → "0.977", 8 → "8".
func ceilSignificant(v float64) string {
	if !(v > 0) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	exp := int(math.Floor(math.Log10(v))) - 2
	scale := math.Pow(10, float64(-exp))
	r := math.Ceil(v*scale*(1-1e-12)) / scale
	decimals := max(0, -exp)
	s := strconv.FormatFloat(r, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
