// Package results writes what hetmap found for people and programs: the
// readable summary of a system and its JSON form, with units always shown
// (ms, µs, ns) and tables aligned. Times inside hetmap are integer
// picoseconds; JSON fields ending in _ns are nanoseconds rounded up, so a
// printed bound is still a bound.
package results
