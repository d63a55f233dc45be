// Package runwrite writes an optimize run folder (hetmap optimize, and
// each run of a sweep): config.yaml (the configuration's canonical text),
// front.json (compact, a line per point), front.csv, mappings/
// (point-N.yaml for every point, accepted by analyze --mapping;
// point-N.json, the full evaluation, for the first results.DetailPoints;
// point-N.amxmi for an Amalthea input), manifest.json, which records the
// size and SHA-256 of every file written before it, and last report.html,
// which results/report writes from the files just written, as
// `hetmap report` does: the same bytes. A sweep's run adds sweep-run.json
// (CommitSweepRun).
//
// The folder is written through a claim (results.ClaimDir: Write claims
// the folder, Commit writes through a claim the caller holds) into a work
// folder renamed into place at the end, so that it appears only complete.
// The files are written point by point: what the writer holds does not
// grow with the front beyond the outcome. An interruption while writing
// (RunInfo.Context) marks the run interrupted in its writing stage: no
// more model files, the manifest and the report say so, and the folder is
// still complete and consistent. Folders and files are created with modes
// 0777 and 0666: the user's umask decides.
package runwrite
