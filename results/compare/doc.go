// Package compare says how two designs compare (hetmap compare): two
// optimize run folders, or a run folder and one mapping of a
// configuration. Each side's points are evaluated again for their
// objectives and their execution-scale margin (ReadRun, MappingSide); New
// finds which feasible points dominate which on the objectives both sides
// minimise, what differs between the two configurations and each side's
// best values; WriteText and WriteHTML write the comparison for people.
// A run folder is read through runfolder.ReadPoints, which checks its
// files against its manifest as a report does.
package compare
