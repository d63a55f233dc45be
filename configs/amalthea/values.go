package amalthea

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// Values of an Amalthea model: discrete value distributions (ticks,
// instruction counts, latencies in cycles), time distributions (stimulus
// jitter, the distance between activations) and data sizes. hetmap
// analyses worst and best cases, so a distribution stands for its bounds:
// the worst case is its upper bound and the best case its lower bound. A
// distribution whose upper bound is not given (a truncated Gauss
// distribution without upperBound) has no worst case and is an error naming
// it.

// discrete is a discrete value as hetmap uses it.
type discrete struct {
	lower, upper int64
	average      float64
}

// discreteValue reads an IDiscreteValueDeviation element. In the metamodel
// the bounds of the bounded distributions default to 0 (EMF does not write
// a default value), so a missing lowerBound or upperBound there is 0; the
// truncated Gauss distribution has no default and needs its upperBound.
func (im *importer) discreteValue(where string, v *xnode) (discrete, error) {
	var d discrete
	if v == nil {
		return d, im.errAt(nil, where, "missing value")
	}
	var err error
	switch t := v.typ(); t {
	case "DiscreteValueConstant":
		if d.upper, err = im.discreteBound(where, v, "value", false); err != nil {
			return d, err
		}
		d.lower, d.average = d.upper, float64(d.upper)
	case "DiscreteValueBoundaries", "DiscreteValueStatistics", "DiscreteValueUniformDistribution",
		"DiscreteValueWeibullEstimatorsDistribution", "DiscreteValueBetaDistribution":
		if d.lower, err = im.discreteBound(where, v, "lowerBound", false); err != nil {
			return d, err
		}
		if d.upper, err = im.discreteBound(where, v, "upperBound", false); err != nil {
			return d, err
		}
		if d.average, err = im.discreteAverage(where, v, float64(d.lower+d.upper)/2); err != nil {
			return d, err
		}
	case "DiscreteValueGaussDistribution":
		if d.upper, err = im.discreteBound(where, v, "upperBound", true); err != nil {
			return d, err
		}
		if d.lower, err = im.discreteBound(where, v, "lowerBound", false); err != nil {
			return d, err
		}
		d.average = float64(d.lower+d.upper) / 2
		if m := v.attr("mean"); m != "" {
			if a, perr := strconv.ParseFloat(m, 64); perr == nil && a >= float64(d.lower) && a <= float64(d.upper) {
				d.average = a
			}
		}
	case "DiscreteValueHistogram":
		if err := im.discreteHistogram(where, v, &d); err != nil {
			return d, err
		}
	case "":
		return d, im.errAt(v, where, "value has no xsi:type")
	default:
		return d, im.errAt(v, where, "value type %q is not supported (a DiscreteValue: Constant, Boundaries, Statistics, UniformDistribution, WeibullEstimatorsDistribution, BetaDistribution, GaussDistribution, Histogram)", t)
	}
	if d.lower < 0 || d.upper < d.lower {
		return d, im.errAt(v, where, "%s needs 0 ≤ lowerBound ≤ upperBound, got %d and %d", v.typ(), d.lower, d.upper)
	}
	return d, nil
}

// discreteBound reads the integer attribute attr of value v (at where): 0
// when it is missing, unless required.
func (im *importer) discreteBound(where string, v *xnode, attr string, required bool) (int64, error) {
	s := v.attr(attr)
	if s == "" {
		if required {
			return 0, im.errAt(v, where, "%s has no %s: hetmap needs bounds (the worst case is the upper bound)", v.typ(), attr)
		}
		return 0, nil
	}
	n, err := configs.ScaleDecimal(strings.TrimSpace(s), 1)
	if err != nil {
		return 0, im.errAt(v, where, "%s=%q is not an integer", attr, s)
	}
	return n, nil
}

// discreteAverage reads the average attribute of value v (at where), a
// finite number; fallback when it is missing.
func (im *importer) discreteAverage(where string, v *xnode, fallback float64) (float64, error) {
	s := v.attr("average")
	if s == "" {
		return fallback, nil
	}
	a, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(a) || math.IsInf(a, 0) {
		return 0, im.errAt(v, where, "average=%q is not a number", s)
	}
	return a, nil
}

// discreteHistogram reads a DiscreteValueHistogram v (at where) into d: the
// least lower bound and the greatest upper bound of its entries, and the
// average of their midpoints weighted by their occurrences (the midpoint
// of the bounds when no entry occurs).
func (im *importer) discreteHistogram(where string, v *xnode, d *discrete) error {
	entries := v.children("entries")
	if len(entries) == 0 {
		return im.errAt(v, where, "DiscreteValueHistogram has no entries")
	}
	var weight, sum float64
	for i, e := range entries {
		ew := fmt.Sprintf("%s/entries[%d]", where, i)
		lo, err := configs.ScaleDecimal(orZero(e.attr("lowerBound")), 1)
		if err != nil {
			return im.errAt(e, ew, "lowerBound=%q is not an integer", e.attr("lowerBound"))
		}
		hi, err := configs.ScaleDecimal(orZero(e.attr("upperBound")), 1)
		if err != nil {
			return im.errAt(e, ew, "upperBound=%q is not an integer", e.attr("upperBound"))
		}
		occ := 1.0
		if o := e.attr("occurrences"); o != "" {
			if occ, err = strconv.ParseFloat(o, 64); err != nil || occ < 0 || math.IsInf(occ, 0) {
				return im.errAt(e, ew, "occurrences=%q is not a count", o)
			}
		}
		if hi < lo {
			return im.errAt(e, ew, "needs lowerBound ≤ upperBound, got %d and %d", lo, hi)
		}
		if i == 0 || lo < d.lower {
			d.lower = lo
		}
		if i == 0 || hi > d.upper {
			d.upper = hi
		}
		weight += occ
		sum += occ * (float64(lo) + float64(hi)) / 2
	}
	d.average = float64(d.lower+d.upper) / 2
	if weight > 0 {
		d.average = sum / weight
	}
	return nil
}

func orZero(s string) string {
	if strings.TrimSpace(s) == "" {
		return "0"
	}
	return s
}

// timeUnits are Amalthea's TimeUnit literals.
var timeUnits = map[string]configs.Duration{"s": configs.Second, "ms": configs.Millisecond, "us": configs.Microsecond, "µs": configs.Microsecond, "ns": configs.Nanosecond, "ps": configs.Picosecond}

// timeValue reads a Time element (value and unit). A time that is not a
// whole number of picoseconds is an error, as elsewhere.
func (im *importer) timeValue(where string, t *xnode) (configs.Duration, error) {
	if t == nil {
		return 0, im.errAt(nil, where, "missing time value")
	}
	val := strings.TrimSpace(orZero(t.attr("value")))
	unit := strings.TrimSpace(t.attr("unit"))
	if unit == "" || unit == "_undefined_" {
		if v, err := configs.ScaleDecimal(val, 1); err == nil && v == 0 {
			return 0, nil
		}
		return 0, im.errAt(t, where, "time %s has no unit", val)
	}
	scale, ok := timeUnits[unit]
	if !ok {
		// Keep the message of ParseDuration for units it knows of.
		_, perr := configs.ParseDuration(val + unit)
		return 0, im.errAt(t, where, "%v", perr)
	}
	v, err := configs.ScaleDecimal(val, int64(scale))
	if err != nil {
		return 0, im.errAt(t, where, "duration %q: %v", val+unit, err)
	}
	if v < 0 {
		return 0, im.errAt(t, where, "negative time %s", val+unit)
	}
	return configs.Duration(v), nil
}

// timeBounds reads an ITimeDeviation (a stimulus jitter, the distance to
// the next activation): its lower and upper bound; before 0.9.3 a
// Deviation of Time (timeBounds092).
func (im *importer) timeBounds(where string, v *xnode) (lo, hi configs.Duration, err error) {
	if im.before093() {
		return im.timeBounds092(where, v)
	}
	if v == nil {
		return 0, 0, im.errAt(nil, where, "missing time deviation")
	}
	bound := func(name string, required bool) (configs.Duration, bool, error) {
		c := v.child(name)
		if c == nil {
			if required {
				return 0, false, im.errAt(v, where, "%s has no %s: hetmap needs bounds", v.typ(), name)
			}
			return 0, false, nil
		}
		d, err := im.timeValue(where+"/"+name, c)
		return d, true, err
	}
	switch t := v.typ(); t {
	case "TimeConstant":
		d, _, err := bound("value", true)
		return d, d, err
	case "TimeBoundaries", "TimeStatistics", "TimeUniformDistribution", "TimeWeibullEstimatorsDistribution", "TimeBetaDistribution":
		if lo, _, err = bound("lowerBound", false); err != nil {
			return 0, 0, err
		}
		if hi, _, err = bound("upperBound", false); err != nil {
			return 0, 0, err
		}
	case "TimeGaussDistribution":
		if hi, _, err = bound("upperBound", true); err != nil {
			return 0, 0, err
		}
		if lo, _, err = bound("lowerBound", false); err != nil {
			return 0, 0, err
		}
	case "TimeHistogram":
		entries := v.children("entries")
		if len(entries) == 0 {
			return 0, 0, im.errAt(v, where, "TimeHistogram has no entries")
		}
		for i, e := range entries {
			ew := fmt.Sprintf("%s/entries[%d]", where, i)
			l, err := im.timeValue(ew+"/lowerBound", e.child("lowerBound"))
			if err != nil {
				return 0, 0, err
			}
			h, err := im.timeValue(ew+"/upperBound", e.child("upperBound"))
			if err != nil {
				return 0, 0, err
			}
			if i == 0 || l < lo {
				lo = l
			}
			if i == 0 || h > hi {
				hi = h
			}
		}
	case "":
		// A plain Time where a deviation is expected (older files).
		d, err := im.timeValue(where, v)
		return d, d, err
	default:
		return 0, 0, im.errAt(v, where, "time value type %q is not supported (TimeConstant, TimeBoundaries, TimeStatistics, TimeUniformDistribution, TimeWeibullEstimatorsDistribution, TimeBetaDistribution, TimeGaussDistribution, TimeHistogram)", t)
	}
	if hi < lo {
		return 0, 0, im.errAt(v, where, "needs lowerBound ≤ upperBound, got %s and %s", lo, hi)
	}
	return lo, hi, nil
}

// dataSizeUnits are Amalthea's DataSizeUnit literals in bits: the bit
// family (bit, kbit, Mbit, …, Kibit, Mibit, …) and the byte family (B, kB,
// MB, …, KiB, MiB, …), decimal prefixes being powers of 1000 and binary
// ones powers of 1024, as APP4MC defines them.
var dataSizeUnits = map[string]*big.Int{
	"bit": big.NewInt(1), "kbit": pow(1000, 1), "Mbit": pow(1000, 2), "Gbit": pow(1000, 3), "Tbit": pow(1000, 4),
	"Kibit": pow(1024, 1), "Mibit": pow(1024, 2), "Gibit": pow(1024, 3), "Tibit": pow(1024, 4),
	"B": big.NewInt(8), "kB": mul8(pow(1000, 1)), "MB": mul8(pow(1000, 2)), "GB": mul8(pow(1000, 3)), "TB": mul8(pow(1000, 4)),
	"KiB": mul8(pow(1024, 1)), "MiB": mul8(pow(1024, 2)), "GiB": mul8(pow(1024, 3)), "TiB": mul8(pow(1024, 4)),
}

func pow(b, e int64) *big.Int  { return new(big.Int).Exp(big.NewInt(b), big.NewInt(e), nil) }
func mul8(v *big.Int) *big.Int { return new(big.Int).Mul(v, big.NewInt(8)) }

// dataSizeBytes converts an Amalthea DataSize to bytes. A size in bits is
// rounded up to whole bytes: lines(ceil(b/8) bytes) = ceil(b/(8·L)) for a
// line of L bytes, so the number of memory lines, the only use hetmap makes
// of a size, is exact.
func dataSizeBytes(value, unit string) (configs.Size, error) {
	value, unit = strings.TrimSpace(value), strings.TrimSpace(unit)
	if value == "" {
		value = "0"
	}
	n, ok := new(big.Int).SetString(value, 10)
	if !ok || n.Sign() < 0 {
		return 0, fmt.Errorf("size value %q is not a non-negative integer", value)
	}
	if unit == "" || unit == "_undefined_" {
		if n.Sign() == 0 {
			return 0, nil
		}
		return 0, fmt.Errorf("size %s has no unit", value)
	}
	bits, ok := dataSizeUnits[unit]
	if !ok {
		return 0, fmt.Errorf("%q is not an Amalthea DataSize unit (bit, kbit, Mbit, Gbit, Tbit, Kibit, Mibit, Gibit, Tibit, B, kB, MB, GB, TB, KiB, MiB, GiB, TiB)", unit)
	}
	total := new(big.Int).Mul(n, bits)
	total.Add(total, big.NewInt(7))
	total.Quo(total, big.NewInt(8))
	if !total.IsInt64() {
		return 0, fmt.Errorf("size %s %s is too large", value, unit)
	}
	return configs.Size(total.Int64()), nil
}
