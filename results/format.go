package results

import (
	"strconv"
	"strings"

	"github.com/hetmap/hetmap/configs"
)

// FormatDuration writes a duration for people: "5 ms", "7.2 ms", "12.44 µs",
// "500 ps", with at most four significant decimals and the unit always shown.
func FormatDuration(d configs.Duration) string {
	if d == 0 {
		return "0 ms"
	}
	neg := d < 0
	if neg {
		d = -d
	}
	units := []struct {
		name string
		v    configs.Duration
	}{{"s", configs.Second}, {"ms", configs.Millisecond}, {"µs", configs.Microsecond}, {"ns", configs.Nanosecond}, {"ps", configs.Picosecond}}
	for _, u := range units {
		if d >= u.v || u.v == configs.Picosecond {
			if u.name == "s" && d < 10*configs.Second {
				continue // keep 1–10 s in ms, which is how the model states periods
			}
			s := strconv.FormatFloat(float64(d)/float64(u.v), 'f', 4, 64)
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
			if neg {
				s = "-" + s
			}
			return s + " " + u.name
		}
	}
	return ""
}

// NoBound is what a table shows for a response time the analysis does not
// bound (and for what would be computed from one): words, never a number.
const NoBound = "no bound"

// FormatPercent writes a share (1 = 100 %) for people with one decimal,
// "96.9 %". Every utilisation hetmap prints goes through it, or through the
// same rounding, from the exact value (never from a value rounded before),
// so that one utilisation reads the same in the terminal, the report and
// the reasons of a miss.
func FormatPercent(u float64) string { return strconv.FormatFloat(100*u, 'f', 1, 64) + " %" }

// FormatFrequency writes "2 GHz", "1.5 GHz".
func FormatFrequency(f configs.Frequency) string {
	for _, u := range []struct {
		n string
		v float64
	}{{"GHz", 1e9}, {"MHz", 1e6}, {"kHz", 1e3}} {
		if float64(f) >= u.v {
			return strconv.FormatFloat(float64(f)/u.v, 'f', -1, 64) + " " + u.n
		}
	}
	return strconv.FormatInt(int64(f), 10) + " Hz"
}

// FormatSize writes a size in B, kB or MB (decimal, as Amalthea's kB), or in
// KiB when it is a whole number of them and not of kB.
func FormatSize(s configs.Size) string {
	switch {
	case s >= 1024 && s%1024 == 0 && s%1000 != 0:
		return strconv.FormatInt(int64(s)/1024, 10) + " KiB"
	case s >= 1e6:
		return TrimFloat(float64(s)/1e6, 2) + " MB"
	case s >= 1e3:
		return TrimFloat(float64(s)/1e3, 2) + " kB"
	}
	return strconv.FormatInt(int64(s), 10) + " B"
}

// TrimFloat writes v with at most decimals decimals, without trailing
// zeros: "2.5", "3".
func TrimFloat(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
