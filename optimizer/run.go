package optimizer

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/optimizer/moo"
)

func Check(e *evaluate.Evaluator, opts Options) error {
	_, err := problemOf(e, opts)
	return err
}

// problemOf applies the options to the configuration's search settings
// and builds the search problem.
func problemOf(e *evaluate.Evaluator, opts Options) (*Problem, error) {
	s := e.Model().Config().Search
	if opts.Algorithm != "" {
		s.Algorithm = opts.Algorithm
	}
	if opts.Seed != nil {
		s.Seed = *opts.Seed
	}
	switch {
	case opts.Workers > 0:
		s.Workers = opts.Workers
	case opts.Workers < 0:
		return nil, fmt.Errorf("workers: must not be negative, got %d", opts.Workers)
	}
	if s.Algorithm != "" && !slices.Contains(configs.Algorithms, s.Algorithm) {
		// The configuration and the flags are checked where they are read
		// (configs.ParseAlgorithm); this guards a caller that set the
		// options by hand.
		return nil, fmt.Errorf("unknown algorithm %q (auto, nsga2 or exhaustive)", s.Algorithm)
	}
	return NewProblem(e, s)
}

// AutoExhaustiveNodes is the size, in nodes the enumeration examines
// (offered values, cut or not), up to which the auto algorithm chooses the
// exhaustive search: on the WATERS problems a node costs a few
// microseconds, so this is a few seconds of search.
const AutoExhaustiveNodes = 500_000

// chooseAlgorithm decides an auto search: the exhaustive search when
// Knuth's estimate of its size (moo.Exhaustive.EstimateUpTo, drawn from
// the search's seed) is at most AutoExhaustiveNodes, NSGA-II otherwise; it
// records the choice and why in p.search and p.choice. It does nothing
// unless the algorithm is auto. The estimate stops as soon as it is sure
// to exceed AutoExhaustiveNodes, so that it costs little however large
// the space (a 250-task system took 53 s to be estimated in full at
// 10^191 nodes).
func (p *Problem) chooseAlgorithm() {
	if p.search.Algorithm != configs.AlgorithmAuto {
		return
	}
	est, over, err := p.Exhaustive().EstimateUpTo(p, rand.New(rand.NewSource(p.search.Seed)), AutoExhaustiveNodes)
	switch {
	case err != nil:
		p.setAlgorithm(configs.AlgorithmNSGA2)
		p.choice = fmt.Sprintf("auto: NSGA-II (the size of the exhaustive search could not be estimated: %v)", err)
	case !over && est <= AutoExhaustiveNodes:
		p.setAlgorithm(configs.AlgorithmExhaustive)
		p.choice = fmt.Sprintf("auto: the exhaustive search, estimated at %s nodes (at most %s)", countWords(est), countWords(AutoExhaustiveNodes))
	default:
		p.setAlgorithm(configs.AlgorithmNSGA2)
		p.choice = fmt.Sprintf("auto: NSGA-II, since the exhaustive search is estimated at more than %s nodes; --algorithm exhaustive runs it anyway", countWords(AutoExhaustiveNodes))
	}
}

// graceAfter returns a stop function that says stop once ctx has been
// done for longer than grace (counted from the first call that finds it
// done); it may be called from several goroutines.
func graceAfter(ctx context.Context, grace time.Duration) func() bool {
	var mu sync.Mutex
	var noticed time.Time
	return func() bool {
		if ctx.Err() == nil {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		if noticed.IsZero() {
			noticed = time.Now()
		}
		return time.Since(noticed) > grace
	}
}

// countWords writes a count for people: 4 100, 3.2 million, 12.5
// billion; from 10^12 on the power of ten ("about 10^14"), and from
// moo.MaxEstimate on "more than 10^18".
func countWords(v float64) string {
	switch {
	case v >= moo.MaxEstimate:
		return fmt.Sprintf("more than 10^%d", int(math.Round(math.Log10(moo.MaxEstimate))))
	case v >= 1e12:
		return fmt.Sprintf("about 10^%d", int(math.Floor(math.Log10(v))))
	case v >= 1e9:
		return strconv.FormatFloat(v/1e9, 'f', 1, 64) + " billion"
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', 1, 64) + " million"
	case v >= 1e4:
		return strconv.FormatFloat(math.Round(v/1e3), 'f', 0, 64) + " thousand"
	}
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
}

// The stages of Run other than the search, as moo.Progress.Stage names
// them.
const (
	StageChoose    = "estimating the size of the exhaustive search, to choose the algorithm"
	StageConstruct = "building the initial population"
	StageFront     = "analysing the front's mappings in full"
	StageMargins   = "computing the margins of the front's mappings"
)

// frontGrace is how long an interrupted run still analyses its front's
// points in full, to write them, once it notices the interruption: a
// bounded front (search.max_front) takes well under a second on a system
// of 250 tasks; the points of a larger front not analysed by then are
// dropped, and the outcome says how many (Outcome.Dropped). A variable for
// the tests.
var frontGrace = time.Second

// Run searches the mappings of the evaluator's configuration. The search
// stops early when ctx is done (cancelled, or past its deadline): Run then
// returns, without error, what it found so far, with Status
// moo.Interrupted (see moo.Settings.Context for how soon each algorithm
// notices).
func Run(ctx context.Context, e *evaluate.Evaluator, opts Options) (*Outcome, error) {
	p, err := problemOf(e, opts)
	if err != nil {
		return nil, err
	}
	p.runState = &runState{stop: func() bool { return ctx.Err() != nil }}
	stage := func(name string, step, steps int, since time.Time) {
		if opts.Progress != nil {
			opts.Progress(moo.Progress{Stage: name, Step: step, Steps: steps, Elapsed: time.Since(since)})
		}
	}
	if p.search.Algorithm == configs.AlgorithmAuto {
		stage(StageChoose, 0, 0, time.Now())
	}
	p.chooseAlgorithm()
	s, settings := p.runSettings(ctx, opts)
	start := time.Now()
	var method moo.Method
	constructed := 0
	cp, resumed, err := mooCheckpoint(opts.Checkpoint, configHash(e.Model().Config(), s), s, &constructed)
	if err != nil {
		return nil, err
	}
	if s.Algorithm == configs.AlgorithmExhaustive {
		method = p.Exhaustive()
		settings.Checkpoint = cp
	} else {
		settings.Checkpoint = cp
		// A resumed search continues from its checkpoint's population, not
		// from constructions, and counts those of the run it continues
		// (mooCheckpoint restored them).
		nsga, built := p.geneticMethod(ctx, e, s, resumed == nil, stage)
		if resumed == nil {
			constructed = built
		}
		method = nsga
		if settings.MaxEvaluations > 0 {
			settings.MaxEvaluations = max(1, settings.MaxEvaluations-constructed)
		}
	}
	p.mu.Lock()
	p.workers = nil
	p.mu.Unlock()
	interruptedIn := ""
	if ctx.Err() != nil && s.Algorithm != configs.AlgorithmExhaustive {
		interruptedIn = StageConstruct
	}
	res, err := moo.Minimize(p, method, settings)
	if err != nil {
		return nil, err
	}
	if res.Status == moo.Interrupted && interruptedIn == "" {
		interruptedIn = StageSearch
	}
	out := &Outcome{Search: s, AlgorithmChoice: p.choice, Objectives: p.ObjectiveNames(), Status: res.Status, Feasible: res.Feasible,
		Evaluations: res.Evaluations + constructed, Analyses: res.Analyses + constructed, ConstructionEvaluations: constructed, FeasibleEvaluations: res.FeasibleEvaluations, Pruned: res.Pruned, Generations: res.Generations,
		Epsilon: res.Epsilon, InterruptedIn: interruptedIn}
	out.Front, out.Dropped = p.front(res.Front, out, s.Workers, graceAfter(ctx, frontGrace), func(done, total int, since time.Time) { stage(StageFront, done, total, since) })
	if ctx.Err() != nil && out.InterruptedIn == "" {
		out.InterruptedIn = StageFront
	}
	if !opts.NoMargins && ctx.Err() == nil {
		n, err := p.frontMargins(ctx, out.Front, s.Workers, func(done, total int, since time.Time) { stage(StageMargins, done, total, since) })
		if err != nil {
			return nil, err
		}
		out.Margins = n
	}
	if ctx.Err() != nil && out.InterruptedIn == "" {
		out.InterruptedIn = StageMargins
	}
	out.Proof = p.proof(e, res.Status, out)
	out.LeastViolatingBy = s.Algorithm
	if !res.Feasible && len(res.LeastViolating) == 0 && s.Algorithm == configs.AlgorithmExhaustive && ctx.Err() == nil {
		p.leastViolatingByGenetic(res, out, settings)
	}
	out.LeastViolating = p.distinctLeastViolating(res.LeastViolating)
	out.Wall = time.Since(start)
	return out, nil
}

// runSettings derives the settings of moo.Minimize from the search
// settings in force (p.search: the configuration's, with Options'
// overrides and the defaults, resolved by problemOf and chooseAlgorithm),
// and returns them with the search settings the outcome records.
func (p *Problem) runSettings(ctx context.Context, opts Options) (configs.Search, *moo.Settings) {
	s := p.search
	settings := &moo.Settings{Generations: s.Generations, MaxEvaluations: s.MaxEvaluations, Workers: s.Workers, Seed: s.Seed,
		Progress: opts.Progress, Context: ctx, KeepInfeasible: leastViolatingKept}
	if s.Algorithm != configs.AlgorithmExhaustive {
		// The genetic search's archive is bounded (search.max_front); the
		// limit in force goes to the outcome's settings. It stops when its
		// front stops improving.
		limit := s.FrontLimit(false)
		settings.MaxFront, s.MaxFront = limit, &limit
		settings.Stall = moo.Stall{Generations: *s.StallGenerations, Tolerance: s.StallTolerance}
		s.Selection = s.SelectionFor(len(p.objectives))
	} else {
		// Settings of the genetic search only, left out of what the
		// exhaustive search's outcome records.
		s.StallGenerations, s.StallTolerance, s.Selection = nil, 0, ""
	}
	return s, settings
}

// geneticMethod makes the genetic search of settings s, with its initial
// population of constructions unless the run continues from a checkpoint
// (construct false), and returns it with the number of analyses its
// constructions made (0 without).
func (p *Problem) geneticMethod(ctx context.Context, e *evaluate.Evaluator, s configs.Search, construct bool, stage func(name string, step, steps int, since time.Time)) (*moo.NSGA2, int) {
	nsga := &moo.NSGA2{Population: s.Population, Mutate: p.SwapMutation}
	if s.Selection == configs.SelectionReference {
		nsga.Selection = moo.ReferenceSelection
	}
	// Open the population with the model's own mapping, when the search
	// can reach it, and with greedy constructions (half the population;
	// random genomes fill the rest, for diversity). The constructions
	// draw from their own generator, seeded from the search's seed.
	if g, ok := p.genomeOf(e); ok {
		nsga.Initial = [][]int{g}
	}
	rng := rand.New(rand.NewSource(s.Seed))
	// The constructions take at most half of an evaluation budget,
	// and run on the search's workers.
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	constructed := 0
	if construct {
		began := time.Now()
		stage(StageConstruct, 0, s.Population/2, began)
		var built atomic.Int64
		var genomes [][]int
		// Half of a budget of 1 is none, not 0, which is moo.NoLimit.
		half := s.MaxEvaluations / 2
		if s.MaxEvaluations != moo.NoLimit && half == 0 {
			half = noEvaluationsLeft
		}
		genomes, constructed = p.construct(ctx, rng, s.Population/2, half, workers, func() {
			stage(StageConstruct, int(built.Add(1)), s.Population/2, began)
		})
		nsga.Initial = append(nsga.Initial, genomes...)
	}
	return nsga, constructed
}

// leastViolatingByGenetic looks for the least-violating mappings with a
// short genetic search, after an exhaustive search that found no feasible
// mapping and kept none (its settings, at most 200 generations, no
// progress).
func (p *Problem) leastViolatingByGenetic(res *moo.Result, out *Outcome, settings *moo.Settings) {
	s := p.search
	nsga := &moo.NSGA2{Population: s.Population, Mutate: p.SwapMutation}
	short := *settings
	short.Generations, short.Progress = min(s.Generations, 200), nil
	if more, err := moo.Minimize(p, nsga, &short); err == nil {
		res.LeastViolating = more.LeastViolating
		out.LeastViolatingBy = configs.AlgorithmNSGA2
	}
}

// front merges the search's front (derived priorities) with the workers'
// priority-order variants into the front over mappings and orders, and
// gathers the workers' counts into out. Of points with equal objectives the
// one with derived priorities is kept, then the one whose genome and
// priorities come first, so the front does not depend on the number of
// workers or the order in which they met the mappings. The points are
// analysed in full on workers goroutines (0: GOMAXPROCS), each with a
