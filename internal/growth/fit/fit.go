// Package fit reads benchmark results and fits the growth exponent of
// their cost in a size parameter (see command growth).
package fit

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
)

// Group is the benchmarks of one name but for the size parameter.
type Group struct {
	Name  string
	sizes []float64
	logNs map[float64][]float64 // per size, log ns/op of every run
}

// Read parses `go test -bench` lines ("BenchmarkX/a=1/tasks=60-2  N  123 ns/op …")
// and groups them by name without the size parameter param, the
// parameters named in drop (which vary with the size, as the number of
// cores of a larger system) and the GOMAXPROCS suffix, in the order first
// met.
func Read(sc *bufio.Scanner, param string, drop ...string) ([]*Group, error) {
	var out []*Group
	byName := map[string]*Group{}
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		ns := -1.0
		for k := 2; k+1 < len(f); k++ {
			if f[k+1] == "ns/op" {
				v, err := strconv.ParseFloat(f[k], 64)
				if err != nil {
					return nil, fmt.Errorf("%q: ns/op %q: %v", f[0], f[k], err)
				}
				ns = v
			}
		}
		if ns <= 0 {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		var rest []string
		size := -1.0
		for _, part := range strings.Split(name, "/") {
			if v, ok := strings.CutPrefix(part, param+"="); ok {
				s, err := strconv.ParseFloat(v, 64)
				if err != nil || s <= 0 {
					return nil, fmt.Errorf("%q: %s=%q is not a positive number", f[0], param, v)
				}
				size = s
				continue
			}
			if k, _, ok := strings.Cut(part, "="); ok && slices.Contains(drop, k) {
				continue
			}
			rest = append(rest, part)
		}
		if size < 0 {
			continue
		}
		key := strings.Join(rest, "/")
		g := byName[key]
		if g == nil {
			g = &Group{Name: key, logNs: map[float64][]float64{}}
			byName[key] = g
			out = append(out, g)
		}
		if _, ok := g.logNs[size]; !ok {
			g.sizes = append(g.sizes, size)
		}
		g.logNs[size] = append(g.logNs[size], math.Log(ns))
	}
	return out, sc.Err()
}

// Exponent fits log ns/op = a + b·log size over the sizes at or above from
// (each size's runs averaged in logs) and returns b and how many sizes it
// used; it needs two sizes at least.
func (g *Group) Exponent(from float64) (b float64, n int, err error) {
	var xs, ys []float64
	for _, s := range g.sizes {
		if s < from {
			continue
		}
		xs = append(xs, math.Log(s))
		ys = append(ys, stat.Mean(g.logNs[s], nil))
	}
	if len(xs) < 2 {
		return 0, len(xs), errors.New("fewer than two sizes to fit")
	}
	_, b = stat.LinearRegression(xs, ys, nil, false)
	return b, len(xs), nil
}

// Points lists the sizes with their mean ns/op (geometric), ascending.
func (g *Group) Points() string {
	sizes := slices.Clone(g.sizes)
	slices.Sort(sizes)
	var parts []string
	for _, s := range sizes {
		parts = append(parts, fmt.Sprintf("%g: %.4g", s, math.Exp(stat.Mean(g.logNs[s], nil))))
	}
	return strings.Join(parts, ", ")
}
