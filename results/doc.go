// Package results writes what hetmap found for people and programs: the
// readable summary of a system and its JSON form, with units always shown
// (ms, µs, ns) and tables aligned. Times inside hetmap are integer
// picoseconds; JSON fields ending in _ns are nanoseconds rounded up, so a
// printed bound is still a bound. A utilisation is kept exact in JSON and
// rounded once, to one decimal of a percent, wherever it is printed.
//
// A run folder (WriteRun, and each run of a sweep) appears only complete,
// written by one run: the run claims it when it starts (ClaimDir), writes
// into a work folder of its own beside it, with the user's umask, and
// renames that into place at the end, which succeeds only while no later
// claim has taken the folder over (claim.go describes the claims, their
// leases and fencing). What dead runs left is removed by the next claim in
// the same folder. Its manifest.json records the size and SHA-256 of every
// file written before it (Manifest.Files), and report and compare refuse a
// folder whose files do not match, naming the file; every file of a run
// folder is read through configs.OpenInput (regular files only). Text for
// a terminal fits TextWidth columns.
//
// The HTML report of a run folder is here (WriteReportFile, written with
// the folder); a sweep's summary is results/sweep's, and the comparison of
// two designs results/compare's: both read the run folders this package
// writes.
package results
