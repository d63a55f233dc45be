package evaluate

// Model is the read-only view of an Evaluator's compiled model: what a
// search, a report or the command line may ask about the system being
// mapped (its tasks, units, chains and requirements, the policies in force,
// the bounds a search cuts with) and the conversions of a mapping to and
// from the configuration's form. Nothing of it depends on a mapping or
// changes after NewEvaluator, so every clone of an Evaluator returns the
// same Model, and any number of goroutines may read it at once.
type Model compiled

// Model returns the evaluator's model, shared by all its clones.
func (e *Evaluator) Model() *Model { return (*Model)(e.compiled) }
