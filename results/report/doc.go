// Package report writes the HTML report of an optimize run folder
// (report.html, `hetmap report DIR`) from the folder's files alone, read
// and checked through results/runfolder: the same folder gives the same
// bytes, whichever hetmap process writes it, so that the report a run
// wrote and the one written again agree. It is a self-contained page for
// an architecture review: the system, the proof of the front near the
// top, the Pareto front as a scatter matrix (a shaded table beyond 4
// objectives), a table of every point with its margin on execution
// demand, and for the points the run details (evaluation files: the first
// results.DetailPoints) the mapping, utilisation and slack bars, the
// response-time table with its terms, the contention of every response
// window, a timeline of one synchronous-release window, each chain's
// latency by hop, and the manifest. WritePointPage writes the same details
// of any other point.
//
// No file holds the timelines: the report evaluates each detailed point's
// mapping again with this hetmap, and says where that differs from the
// evaluation the folder records (a folder of another version). It holds
// one detailed point at a time and stays within MaxBytes, leaving out the
// sections that would pass it and saying how many. Its words and numbers
// are results' (FormatDuration, StatusText, the proof's statement), as the
// console prints them; its plots are drawn as results.RenderSVG draws
// every plot. A page appears only complete (results.WriteFileAtomicFunc);
// an error is a *runfolder.Error.
package report
