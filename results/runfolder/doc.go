// Package runfolder is an optimize run folder as hetmap reads it back:
// what the folder holds (config.yaml, manifest.json, front.json,
// front.csv, mappings/ with a mapping file per point and the evaluation
// files of the points the report details, report.html; in a sweep's run,
// sweep-run.json), in the formats results defines, and the checks made
// before anything in it is trusted.
//
// Open checks a folder before it reads it: it must be a folder with
// manifest.json, front.json and config.yaml; the manifest must be
// hetmap's, of a results format this hetmap reads (1 to
// results.ResultsFormat); and every file the manifest lists
// (Manifest.Files: each file the run wrote before the manifest) must be a
// regular file of the recorded size and SHA-256, read through
// configs.OpenInput. A file changed after the run is refused, naming it
// (a *Error, whose message is one line), so that no report or comparison
// is made from a file the run did not write; a folder written before
// hetmap recorded the files has no list and is read as it is. Open then
// reads the configuration (with an evaluator of it) and front.json as a
// stream, one point at a time, so that memory does not grow with the
// front; a report reads a point again by its number (FindPoint) and its
// evaluation file (ReadJSON). ReadPoints gives the mappings of the points
// a report shows, for compare to evaluate again; ReadSweepRun what a
// sweep's summary needs of each run (its record, manifest and front's
// objectives).
//
// Assumptions: nothing writes a folder while it is read (a run folder
// appears only complete, results.ClaimDir); the points a report shows are
// the front's, or the least-violating mappings when none is feasible.
package runfolder
