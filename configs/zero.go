package configs

import (
	"maps"
	"slices"
	"strings"

	"github.com/spf13/viper"
)

// A key given the zero value of its type is read as the key left out
// (the default) only where the documentation says so: search.workers: 0
// (the number of CPUs) and search.max_evaluations: 0 (no limit). Elsewhere
// 0 or an empty list given explicitly is an error, not a silent default.
var zeroMeansDefault = map[string]string{
	// key: what to write instead, for the message
	"search.population":         "give at least 2, or leave the key out for the default, 100",
	"search.generations":        "give at least 1, or leave the key out for the default, 1000",
	"search.seed":               "give a seed other than 0, or leave the key out for the default, 1",
	"search.max_joint_orders":   "give at least 1, or leave the key out for the default, 4096",
	"search.stall_tolerance":    "give a share of the front's extent above 0 such as 0.005, or leave the key out for the default, 0.005",
	"search.checkpoint_seconds": "give at least 1, or leave the key out for the default, 300",
	"search.free":               "list the genes the search may change (units, offloading, gpu_priorities, time_slices), or leave the key out for all of them",
	"search.objectives":         "list what to minimise, or leave the key out for every chain's latency",
	"analysis.execution_scale":  "give a factor above 0, or leave the key out for the default, 1",
	"analysis.time_slice_step":  "give a positive duration, or leave the key out for the default, 1ms",
	"memory.line_size":          "give the bytes per DRAM access, a positive size such as 64",
}

// checkNoZeroDefaults reports a key of zeroMeansDefault given as 0 or as an
// empty list in what v read; prefix is prepended to the keys, for a
// section read on its own (the sweep file's search: "" and "search." alike).
func checkNoZeroDefaults(v *viper.Viper, prefix string) *InputError {
	for _, key := range slices.Sorted(maps.Keys(zeroMeansDefault)) {
		if prefix != "" && !strings.HasPrefix(key, prefix) {
			continue
		}
		if !v.IsSet(key) {
			continue
		}
		raw := v.Get(key)
		zero := false
		switch x := raw.(type) {
		case int:
			zero = x == 0
		case int64:
			zero = x == 0
		case uint64:
			zero = x == 0
		case float64:
			zero = x == 0
		case string:
			zero = x == "0" || x == "" || zeroQuantity(x)
		case []any:
			zero = len(x) == 0
		case nil:
			zero = true
		}
		if zero {
			what := "0"
			if s, ok := raw.(string); ok && s != "" {
				what = s
			}
			if _, list := raw.([]any); list || strings.HasSuffix(key, "free") || strings.HasSuffix(key, "objectives") {
				what = "empty"
			}
			return inputErrorf(key, "%s: %s", what, zeroMeansDefault[key])
		}
	}
	return nil
}

// zeroQuantity reports a duration or size written with a unit that is 0
// ("0ms", "0 B").
func zeroQuantity(s string) bool {
	if d, err := ParseDuration(s); err == nil && d == 0 {
		return true
	}
	if n, err := ParseSize(s); err == nil && n == 0 {
		return true
	}
	return false
}
