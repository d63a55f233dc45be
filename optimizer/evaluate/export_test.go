package evaluate

// SetByTask makes the evaluator's analysis iterate over every interferer
// instead of interferer classes (rta.Analyzer.ByTask): the reference that
// TestClassesChangeNothing compares with.
func SetByTask(e *Evaluator, on bool) { e.an.ByTask = on }

// EvaluateScaled evaluates a with the execution demand of the tasks on
// units of kind ("" every kind) and of task (-1 every task) scaled by
// perMille/1000, as Margins' probes do.
func (e *Evaluator) EvaluateScaled(a *Assignment, kind string, task int, perMille int64, r *Analysis) error {
	return newScaler(e).at(scaling{ppm: perMille * 1000, kind: kind, task: task}).Evaluate(a, r)
}
