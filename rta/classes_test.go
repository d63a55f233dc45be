package rta

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/hetmap/hetmap/internal/testsize"
)

// classTasks returns a random core of n tasks whose periods come from a
// few values (so that interferers share classes) with a total utilisation
// around u: some suspend, some have one of a few release jitters, some
// block, some have shorter deadlines.
func classTasks(rng *rand.Rand, n int, u float64) []Task {
	periods := []int64{100, 200, 500, 1000, 2000, 5000, 10000}
	jitters := []int64{0, 0, 0, 0, 7, 30}
	ts := make([]Task, n)
	for i := range ts {
		t := periods[rng.Intn(len(periods))]
		c := int64(float64(t) * u / float64(n) * 2 * rng.Float64())
		x := Task{C: c, T: t, D: t, J: jitters[rng.Intn(len(jitters))], Priority: rng.Intn(n)}
		if rng.Intn(4) == 0 {
			x.D = t/2 + rng.Int63n(t/2)
		}
		if rng.Intn(8) == 0 {
			x.S = rng.Int63n(t/4 + 1)
		}
		if rng.Intn(10) == 0 {
			x.B = rng.Int63n(t/20 + 1)
		}
		ts[i] = x
	}
	return ts
}

// classCase returns a random core: small cores of randTasks (below
// classMinTasks: the Analyzer iterates over the tasks) or large ones of
// classTasks (classMinTasks to 60 tasks in a few classes), loaded from
// comfortable to overloaded.
func classCase(rng *rand.Rand) []Task {
	if rng.Intn(3) == 0 {
		return randTasks(rng, 1+rng.Intn(8))
	}
	return classTasks(rng, classMinTasks+rng.Intn(61-classMinTasks), 0.5+0.7*rng.Float64())
}

// TestClassesEqualRespond checks respondClasses against respond, the
// iteration over the tasks, bit for bit: the same R and status for random
// interferers sharing classes and random limits (small ones make the
// iteration stop in its first steps, where the order of the interferers
// decides the R reported: passed.replay's work), and before any replay the
// same verdict Schedulable with the same R, which is all OPA's tests use.
func TestClassesEqualRespond(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	periods := []int64{5, 7, 10, 20, 50, 100}
	jitters := []int64{0, 0, 1, 3, 12}
	replays := 0
	for c := 0; c < 20000; c++ {
		m := rng.Intn(40)
		hp := make([]Interferer, m)
		for k := range hp {
			p := periods[rng.Intn(len(periods))]
			hp[k] = Interferer{C: rng.Int63n(p/3 + 1), T: p, J: jitters[rng.Intn(len(jitters))]}
			if rng.Intn(200) == 0 {
				hp[k].C = p // alone at utilisation 1
			}
		}
		task := Task{C: rng.Int63n(20), T: 1000, D: 1 + rng.Int63n(1000), J: rng.Int63n(3), S: rng.Int63n(3), B: rng.Int63n(2)}
		limit := rng.Int63n(2000)
		if rng.Intn(3) == 0 {
			limit = rng.Int63n(40)
		}
		var set classSet
		for k := range hp {
			set.add(hp[k].C, hp[k].T, hp[k].J)
		}
		if len(set.cls) > m {
			t.Fatalf("%d classes for %d interferers", len(set.cls), m)
		}
		s := make([]int64, 2*m+2)
		wantR, wantSt := respond(&task, hp, limit, s)
		gotR, gotSt, p := respondClasses(&task, set.cls, limit)
		if (gotSt == Schedulable) != (wantSt == Schedulable) || (gotSt == Schedulable && gotR != wantR) {
			t.Fatalf("case %d before the replay: classes (%d, %v), tasks (%d, %v)", c, gotR, gotSt, wantR, wantSt)
		}
		if p.overLimit {
			replays++
			gotR, gotSt = p.replay(&task, set.cls, hp)
		}
		if gotR != wantR || gotSt != wantSt {
			t.Fatalf("case %d: classes (%d, %v), tasks (%d, %v); task %+v, limit %d, hp %+v", c, gotR, gotSt, wantR, wantSt, task, limit, hp)
		}
	}
	if replays < 1000 {
		t.Errorf("only %d of the cases passed their limit", replays)
	}
}

// TestClassesChangeNothing checks that the Analyzer iterating over
// interferer classes gives what it gives iterating over the tasks (the
// obvious path, kept behind noClasses): every Result, the order, the OPA
// levels and the exact search's verdict and node count, for every policy
// and limit, on small random cores and on large ones (12 to 60 tasks,
// self-suspending, jittered, blocking, from lightly loaded to overloaded).
func TestClassesChangeNothing(t *testing.T) {
	rng := rand.New(rand.NewSource(1313))
	limits := []Limit{LimitDeadline, LimitPeriod, LimitNone, LimitRank}
	// The short run draws from the same sequence of cores and stops once it
	// has compared 150 and they covered every case below (at most the full
	// run's 600 cores).
	cases := 600
	var fast, slow Analyzer
	slow.ByTask = true
	// What the cases cover: cores OPA fills, cores where the exact search
	// finds an order, cores it gives up on or rejects, and statuses.
	var opaFull, searchFound, searchFailed, capped int
	statuses := map[Status]int{}
	covered := func() bool {
		return opaFull > 0 && searchFound > 0 && searchFailed > 0 && statuses[Exceeded] > 0 && statuses[Unbounded] > 0 && statuses[DeadlineMiss] > 0
	}
	for c := 0; c < cases; c++ {
		if testsize.Reduced() && c >= 150 && covered() {
			cases = c
			break
		}
		ts := classCase(rng)
		for _, p := range allPolicies {
			for _, l := range limits {
				fast.Limit, slow.Limit = l, l
				fast.MaxSearchNodes, slow.MaxSearchNodes = 512, 512
				outF := make([]Result, len(ts))
				outS := make([]Result, len(ts))
				okF, errF := fast.Analyze(p, ts, outF)
				okS, errS := slow.Analyze(p, ts, outS)
				if errF != nil || errS != nil {
					t.Fatalf("case %d: errors %v, %v", c, errF, errS)
				}
				if okF != okS || !reflect.DeepEqual(outF, outS) {
					t.Fatalf("case %d, %v, limit %d: classes %v %+v, tasks %v %+v; tasks %+v", c, p, l, okF, outF, okS, outS, ts)
				}
				if !reflect.DeepEqual(fast.Order(), slow.Order()) || fast.OPALevels() != slow.OPALevels() ||
					fast.Decided() != slow.Decided() || fast.SearchNodes() != slow.SearchNodes() {
					t.Fatalf("case %d, %v, limit %d: order %v levels %d decided %v nodes %d; reference %v %d %v %d",
						c, p, l, fast.Order(), fast.OPALevels(), fast.Decided(), fast.SearchNodes(),
						slow.Order(), slow.OPALevels(), slow.Decided(), slow.SearchNodes())
				}
				if p == OPA && l == LimitRank {
					switch {
					case fast.OPALevels() == len(ts):
						opaFull++
					case okF:
						searchFound++
					case !fast.Decided():
						capped++
					default:
						searchFailed++
					}
				}
				for _, r := range outF {
					statuses[r.Status]++
				}
			}
		}
	}
	t.Logf("%d cores; OPA: %d filled, %d found by the search, %d failed, %d undecided; statuses %v", cases, opaFull, searchFound, searchFailed, capped, statuses)
	if !covered() {
		t.Errorf("the random cores miss a case the comparison is meant to cover")
	}
}
