package amalthea

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// Amalthea 0.9.0, 0.9.1 and 0.9.2 are read as APP4MC's model migration
// converts them to 0.9.3 (the converters of APP4MC's plugins
// org.eclipse.app4mc.amalthea.converters.091, .092 and .093):
//
//   - 0.9.0 → 0.9.1 changes the type of custom property values (TimeObject
//     becomes Time), 0.9.1 → 0.9.2 only the namespace. hetmap reads past
//     custom properties, so these versions read as 0.9.2.
//   - 0.9.2 → 0.9.3 (SwConverter) turns an ExecutionNeed into Ticks: the
//     default entry of key "Instructions" becomes the default ticks as it
//     is (the migration divides by no IPC there); an extended entry
//     (key: a ProcessingUnitDefinition) with a value of key "Instructions"
//     becomes the extended ticks of that definition, divided by the
//     definition's instructions per cycle (the value of the first feature
//     it references whose name starts with "Instructions/IPC" or
//     "Instructions/ipc"; 1 without one); default entries of other keys
//     become the needs of a 0.9.3 ExecutionNeed; extended values of other
//     keys are dropped. A NeedConstant value= becomes a
//     DiscreteValueConstant, a NeedDeviation the discrete distribution of
//     its deviation.
//   - (HwConverter) an access latency LatencyConstant cycles= becomes a
//     DiscreteValueConstant value=, a LatencyDeviation (a deviation named
//     cycles) a discrete distribution.
//   - (StimulusConverter) a PeriodicStimulus's jitter and a
//     RelativePeriodicStimulus's nextOccurrence, deviations of Time, become
//     time distributions.
//   - chunkProcessingInstructions of a transmission policy becomes
//     chunkProcessingTicks, OS overheads become ticks, measurements'
//     runtime deviations time distributions: hetmap reads past all three.
//
// A 0.9.2 deviation is an element with the children lowerBound and
// upperBound (am:LongObject or am:Time values) and a distribution, whose
// xsi:type names it: Boundaries, UniformDistribution, GaussDistribution
// (mean and sd children), BetaDistribution, WeibullEstimators (a mean
// child) or WeibullParameters. The migration maps them to the 0.9.3
// distribution of the same name; hetmap then reads them as it reads 0.9.3
// (the upper bound is the worst case, the lower bound the best case). Where
// the migration loses a value — a deviation without a distribution, or
// with WeibullParameters, which it drops — hetmap refuses the element
// instead, as it would change the timing; and a deviation without an
// upperBound (null in 0.9.2, where the migration writes 0) is refused, as
// hetmap needs the worst case. A missing lowerBound is 0, as the migration
// writes it.
//
// The migration divides instructions by the IPC in floating point and
// truncates the quotient, (long)(Double.parseDouble(value) / ipc)
// (AbstractConverter.getValueAfterApplyingIPC of the 0.9.3 converter),
// every bound alike, the default entry's by an IPC of 1. hetmap reads the
// ticks the migration writes, so it does the same, and says in a warning
// how many quotients were not whole (the ticks read are then the
// migration's, below the exact quotient by less than a cycle).

var version093 = version{0, 9, 3}

// before093 reports whether the model is one of 0.9.0, 0.9.1 or 0.9.2.
func (im *importer) before093() bool { return im.version.less(version093) }

// distributions092 maps the distributions of a 0.9.2 deviation to the
// suffix of their 0.9.3 names (DiscreteValue…, Time…).
var distributions092 = map[string]string{
	"Boundaries":          "Boundaries",
	"UniformDistribution": "UniformDistribution",
	"GaussDistribution":   "GaussDistribution",
	"BetaDistribution":    "BetaDistribution",
	"WeibullEstimators":   "WeibullEstimatorsDistribution",
}

// deviation092 is a deviation of 0.9.0 to 0.9.2.
type deviation092 struct {
	dist         string // the distribution's xsi:type, without prefix
	lower, upper *xnode // lower is nil when not given
	mean         *xnode // the distribution's mean (Gauss, WeibullEstimators), or nil
}

// deviation092 reads a Deviation element of 0.9.0 to 0.9.2.
func (im *importer) deviation092(where string, d *xnode) (deviation092, error) {
	var dv deviation092
	if d == nil {
		return dv, im.errAt(nil, where, "missing deviation")
	}
	if t := d.typ(); t != "" && t != "Deviation" {
		return dv, im.errAt(d, where, "xsi:type %q where Amalthea %s has a Deviation (lowerBound, upperBound, distribution)", t, im.version)
	}
	dist := d.child("distribution")
	if dist == nil {
		return dv, im.errAt(d, where, "the deviation has no distribution: APP4MC's migration to 0.9.3 drops such a value, and hetmap does not guess its meaning (give a distribution, am:Boundaries for plain bounds)")
	}
	dv.dist = dist.typ()
	switch dv.dist {
	case "WeibullParameters":
		return dv, im.errAt(dist, where+"/distribution", "a WeibullParameters distribution has no bounds hetmap can analyse (APP4MC's migration to 0.9.3 drops it): give Boundaries, UniformDistribution, GaussDistribution, BetaDistribution or WeibullEstimators with bounds")
	case "":
		return dv, im.errAt(dist, where+"/distribution", "the distribution has no xsi:type")
	}
	if _, ok := distributions092[dv.dist]; !ok {
		return dv, im.errAt(dist, where+"/distribution", "distribution %q is not supported (Boundaries, UniformDistribution, GaussDistribution, BetaDistribution, WeibullEstimators)", "am:"+dv.dist)
	}
	dv.lower, dv.upper = d.child("lowerBound"), d.child("upperBound")
	if dv.upper == nil {
		return dv, im.errAt(d, where, "the deviation (%s) has no upperBound: hetmap needs bounds (the worst case is the upper bound)", dv.dist)
	}
	if dv.dist == "GaussDistribution" || dv.dist == "WeibullEstimators" {
		dv.mean = dist.child("mean")
	}
	return dv, nil
}

// timeBounds092 reads a deviation of Time (a jitter, a nextOccurrence) of
// 0.9.0 to 0.9.2: its lower and upper bound.
func (im *importer) timeBounds092(where string, d *xnode) (lo, hi configs.Duration, err error) {
	dv, err := im.deviation092(where, d)
	if err != nil {
		return 0, 0, err
	}
	if dv.lower != nil {
		if lo, err = im.timeValue(where+"/lowerBound", dv.lower); err != nil {
			return 0, 0, err
		}
	}
	if hi, err = im.timeValue(where+"/upperBound", dv.upper); err != nil {
		return 0, 0, err
	}
	if hi < lo {
		return 0, 0, im.errAt(d, where, "needs lowerBound ≤ upperBound, got %s and %s", lo, hi)
	}
	return lo, hi, nil
}

// ipcRange is the instructions per cycle a count is divided by: the
// smallest for the upper bound, the largest for the lower bound.
type ipcRange struct{ lo, hi float64 }

var ipcOne = ipcRange{1, 1}

// perCycle divides a count of instructions by ipc as APP4MC's migration
// does: in floating point (a count beyond 2^53 rounded to a double first),
// the quotient truncated towards zero as Java's (long) cast truncates it.
// rounded says whether the quotient was not whole; ok is false when it
// does not fit an int64 (the cast would saturate there).
func perCycle(n int64, ipc float64) (v int64, rounded bool, ok bool) {
	q := float64(n) / ipc
	if math.IsNaN(q) || q >= math.MaxInt64 {
		return 0, false, false
	}
	t := math.Trunc(q)
	lossy := float64(n) >= 1<<53 && int64(float64(n)) != n // the count itself rounded
	return int64(t), t != q || lossy, true
}

// need092 reads the value of a need entry of 0.9.0 to 0.9.2 (NeedConstant
// value=, or NeedDeviation with a deviation of LongObjects) divided by ipc,
// as a discrete value of 0.9.3 is read (see discreteValue).
func (im *importer) need092(where string, v *xnode, ipc ipcRange) (discrete, error) {
	if v == nil {
		return discrete{}, im.errAt(nil, where, "missing value")
	}
	switch t := v.typ(); t {
	case "NeedConstant":
		x, err := im.count092(where, v)
		if err != nil {
			return discrete{}, err
		}
		var d discrete
		if d.lower, err = im.perCycle092(where, v, x, ipc.hi); err != nil {
			return d, err
		}
		if d.upper, err = im.perCycle092(where, v, x, ipc.lo); err != nil {
			return d, err
		}
		d.average = float64(x) / ((ipc.lo + ipc.hi) / 2)
		return d, nil
	case "NeedDeviation":
		return im.countDeviation092(where+"/deviation", v, v.child("deviation"), ipc)
	case "":
		return discrete{}, im.errAt(v, where, "value has no xsi:type (NeedConstant or NeedDeviation)")
	default:
		return discrete{}, im.errAt(v, where, "value type %q is not supported (NeedConstant or NeedDeviation)", "am:"+t)
	}
}

// count092 reads the value= of a NeedConstant or LongObject.
func (im *importer) count092(where string, n *xnode) (int64, error) {
	x, err := configs.ScaleDecimal(strings.TrimSpace(orZero(n.attr("value"))), 1)
	if err != nil {
		return 0, im.errAt(n, where, "value=%q is not an integer", n.attr("value"))
	}
	if x < 0 {
		return 0, im.errAt(n, where, "value=%d is negative", x)
	}
	return x, nil
}

// perCycle092 divides a count by ipc (see perCycle), counting the
// quotients that are not whole for summary092.
func (im *importer) perCycle092(where string, n *xnode, x int64, ipc float64) (int64, error) {
	q, rounded, ok := perCycle(x, ipc)
	if !ok {
		return 0, im.errAt(n, where, "%d instructions at %g per cycle are more cycles than hetmap counts", x, ipc)
	}
	if rounded {
		im.rounded092++
		if im.roundedAt092 == "" {
			im.roundedAt092 = fmt.Sprintf("%s: %d / %g", where, x, ipc)
		}
	}
	return q, nil
}

// countDeviation092 reads a deviation of counts (LongObjects) of 0.9.0 to
// 0.9.2, divided by ipc, as discreteValue reads the distribution the
// migration makes of it: the mean of a Gauss distribution when within the
// bounds, the mean of WeibullEstimators (its average), else the middle of
// the bounds as the average.
func (im *importer) countDeviation092(where string, owner, dev *xnode, ipc ipcRange) (discrete, error) {
	var d discrete
	if dev == nil {
		return d, im.errAt(owner, where, "missing deviation")
	}
	dv, err := im.deviation092(where, dev)
	if err != nil {
		return d, err
	}
	var lo, hi int64
	if dv.lower != nil {
		if lo, err = im.count092(where+"/lowerBound", dv.lower); err != nil {
			return d, err
		}
		if d.lower, err = im.perCycle092(where+"/lowerBound", dv.lower, lo, ipc.hi); err != nil {
			return d, err
		}
	}
	if hi, err = im.count092(where+"/upperBound", dv.upper); err != nil {
		return d, err
	}
	if d.upper, err = im.perCycle092(where+"/upperBound", dv.upper, hi, ipc.lo); err != nil {
		return d, err
	}
	if hi < lo {
		return d, im.errAt(dev, where, "needs lowerBound ≤ upperBound, got %d and %d", lo, hi)
	}
	d.average = float64(d.lower+d.upper) / 2
	if dv.mean != nil {
		m, perr := strconv.ParseFloat(strings.TrimSpace(orZero(dv.mean.attr("value"))), 64)
		if perr != nil || math.IsNaN(m) || math.IsInf(m, 0) {
			return d, im.errAt(dv.mean, where+"/distribution/mean", "value=%q is not a number", dv.mean.attr("value"))
		}
		m /= (ipc.lo + ipc.hi) / 2
		if dv.dist == "WeibullEstimators" || (m >= float64(d.lower) && m <= float64(d.upper)) {
			d.average = m
		}
	}
	return d, nil
}

// ipc092 returns the instructions per cycle of a processing-unit definition
// as APP4MC's migration to 0.9.3 finds them: the value of a feature the
// definition references whose name starts with "Instructions/IPC" or
// "Instructions/ipc"; 1 without one (warned once per definition). Where
// several such features are referenced (the migration takes one and logs an
// error), the worst case takes the smallest.
func (im *importer) ipc092(where string, at *xnode, def string) (ipcRange, error) {
	r := ipcRange{math.Inf(1), 0}
	var names []string
	for _, f := range im.defFeats[def] {
		if !strings.HasPrefix(f, "Instructions/IPC") && !strings.HasPrefix(f, "Instructions/ipc") {
			continue
		}
		v, ok := im.features[f]
		if !ok {
			continue // a reference to no feature: the migration finds no value either
		}
		if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return r, im.errAt(at, where, "the instructions per cycle of %s (feature %s) are %g: they must be positive", def, f, v)
		}
		names = append(names, f)
		r.lo, r.hi = math.Min(r.lo, v), math.Max(r.hi, v)
	}
	if im.ipcNoted092 == nil {
		im.ipcNoted092 = map[string]bool{}
	}
	switch {
	case len(names) == 0:
		if !im.ipcNoted092[def] {
			im.ipcNoted092[def] = true
			im.warn(where, "the processing-unit definition %s references no feature Instructions/IPC…: its instructions are taken as ticks (1 per cycle), as APP4MC's migration to 0.9.3 does", def)
		}
		return ipcOne, nil
	case len(names) > 1 && r.lo != r.hi && !im.ipcNoted092[def]:
		im.ipcNoted092[def] = true
		im.warn(where, "the processing-unit definition %s references %d IPC features (%s): the worst case takes the smallest, %g, the best case the largest, %g (APP4MC's migration takes one of them)", def, len(names), strings.Join(names, ", "), r.lo, r.hi)
	}
	return r, nil
}

// executionNeed092 reads an ExecutionNeed of 0.9.0 to 0.9.2 as the
// migration converts it (see the top of this file): a Ticks item of its
// Instructions, followed by a 0.9.3 ExecutionNeed of its other default
// entries.
func (im *importer) executionNeed092(where string, it *xnode) (*demand, error) {
	var instr *xnode
	var others []needEntry
	var exts []*xnode
	seen := map[string]*xnode{}
	for _, k := range it.kids {
		switch k.name {
		case "default":
			key := k.attr("key")
			kw := where + "/default[" + key + "]"
			if prev, dup := seen[key]; dup {
				return nil, im.errAt(k, kw, "key %q is given twice (also at %s)", key, position(prev))
			}
			seen[key] = k
			if key == "Instructions" {
				instr = k
				continue
			}
			dv, err := im.need092(kw+"/value", k.child("value"), ipcOne)
			if err != nil {
				return nil, err
			}
			others = append(others, needEntry{category: key, where: kw, node: k, value: dv})
		case "extended":
			exts = append(exts, k)
		case "customProperties":
		default:
			return nil, im.errAt(k, where+"/"+k.name, "element <%s> is not part of an ExecutionNeed of Amalthea %s (default and extended entries)", k.name, im.version)
		}
	}
	ticks := &demand{compute: true, ticks: map[string]configs.Ticks{}}
	for _, e := range exts {
		def := e.ref("key")
		ew := where + "/extended[" + def + "]"
		var value *xnode
		var dropped []string
		for _, v := range e.children("value") {
			if v.attr("key") != "Instructions" {
				dropped = append(dropped, v.attr("key"))
				continue
			}
			if value != nil {
				return nil, im.errAt(v, ew, "two values of key Instructions (also at %s)", position(value))
			}
			value = v
		}
		if len(dropped) > 0 {
			im.warn(ew, "extended needs of key(s) %s read past: APP4MC's migration to 0.9.3 keeps only the Instructions of an extended entry", strings.Join(dropped, ", "))
		}
		if value == nil {
			continue
		}
		ipc, err := im.ipc092(ew, e, def)
		if err != nil {
			return nil, err
		}
		dv, err := im.need092(ew+"/value[Instructions]", value.child("value"), ipc)
		if err != nil {
			return nil, err
		}
		if _, dup := ticks.ticks[def]; !dup {
			ticks.order = append(ticks.order, def)
		}
		ticks.ticks[def] = configs.Ticks{Kind: def, Lower: dv.lower, Upper: dv.upper, Average: dv.average}
	}
	if instr != nil {
		dv, err := im.need092(where+"/default[Instructions]/value", instr.child("value"), ipcOne)
		if err != nil {
			return nil, err
		}
		for _, k := range im.sys.Kinds() {
			if _, has := ticks.ticks[k]; !has {
				ticks.ticks[k] = configs.Ticks{Kind: k, Lower: dv.lower, Upper: dv.upper, Average: dv.average}
				ticks.order = append(ticks.order, k)
			}
		}
	}
	out := &demand{}
	if len(ticks.ticks) > 0 {
		out = ticks
	}
	if len(others) > 0 {
		nd, err := im.needsDemand(others)
		if err != nil {
			return nil, err
		}
		if err := im.seqAt(out, nd, it, where); err != nil {
			return nil, err
		}
	}
	if !out.compute {
		im.warn(where, "the ExecutionNeed has no Instructions and no other default needs: APP4MC's migration to 0.9.3 converts it to nothing, and so does hetmap")
	}
	im.needs092++
	return out, nil
}

// latency092 reads an access latency of 0.9.0 to 0.9.2 (LatencyConstant
// cycles=, LatencyDeviation with a deviation named cycles): its worst case.
func (im *importer) latency092(where string, v *xnode) (int64, error) {
	switch t := v.typ(); t {
	case "LatencyConstant":
		n, err := configs.ScaleDecimal(strings.TrimSpace(orZero(v.attr("cycles"))), 1)
		if err != nil || n < 0 {
			return 0, im.errAt(v, where, "cycles=%q is not a count", v.attr("cycles"))
		}
		return n, nil
	case "LatencyDeviation":
		d, err := im.countDeviation092(where+"/cycles", v, v.child("cycles"), ipcOne)
		return d.upper, err
	case "":
		return 0, im.errAt(v, where, "the latency has no xsi:type (LatencyConstant or LatencyDeviation)")
	default:
		return 0, im.errAt(v, where, "latency type %q is not supported in Amalthea %s (LatencyConstant or LatencyDeviation)", "am:"+t, im.version)
	}
}

// summary092 says, once per model, how a 0.9.0 to 0.9.2 model was read.
func (im *importer) summary092() {
	if !im.before093() {
		return
	}
	im.warn("Amalthea", "the model is Amalthea %s: read as APP4MC's model migration converts it to 0.9.3 (ExecutionNeed Instructions as Ticks, latencies in cycles and deviations as the distributions of 0.9.3)", im.version)
	if im.needs092 > 0 {
		im.warn("swModel", "%d ExecutionNeed(s) of Amalthea %s read as APP4MC's migration to 0.9.3 converts them: the default Instructions as ticks, the Instructions of an extended entry divided by the IPC feature of its processing-unit definition, other default needs as a 0.9.3 ExecutionNeed", im.needs092, im.version)
	}
	if im.rounded092 > 0 {
		im.warn("swModel", "%d instruction count(s) are not a whole number of cycles (first %s): truncated, as APP4MC's migration to 0.9.3 truncates them, so the ticks read are below the exact quotient by less than a cycle", im.rounded092, im.roundedAt092)
	}
}
