// Package results writes what hetmap found for people and programs: the
// readable summary of a system and its JSON form, with units always shown
// (ms, µs, ns) and tables aligned. Times inside hetmap are integer
// picoseconds; JSON fields ending in _ns are nanoseconds rounded up, so a
// printed bound is still a bound. A utilisation is kept exact in JSON and
// rounded once, to one decimal of a percent, wherever it is printed.
//
// It defines the formats of a run folder's files (Manifest, which
// records the size and SHA-256 of every file written before it; FrontJSON;
// the analysis JSON of mappings/point-N.json; front.csv's FrontCSV;
// sweep-run.json) with the words and numbers every writer shares, and the
// claims on an output folder. A run folder (and each run of a sweep)
// appears only complete, written by one run: the run claims it when it
// starts (ClaimDir), writes into a work folder of its own beside it, with
// the user's umask, and renames that into place at the end, which
// succeeds only while no later claim has taken the folder over (claim.go
// describes the claims, their leases and fencing). What dead runs left is
// removed by the next claim in the same folder. Text for a terminal fits
// TextWidth columns; every page's plots are drawn alike (RenderSVG).
//
// The packages above it: results/runfolder reads a run folder back and
// checks its files against the manifest (report and compare refuse a
// folder whose files do not match, naming the file); results/report
// writes the HTML report of a run folder; results/runwrite writes the
// folder, report.html last; results/sweep runs sweeps and summarises
// them, results/compare compares two designs.
package results
