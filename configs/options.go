package configs

import (
	"fmt"
	"strings"
)

// The enumerated options of a configuration are typed here, once: each is
// a named string type whose constants are its values as the YAML and JSON
// spell them (so the formats stay those of plain strings), with a list of
// its values (the default first), a Parse function and String. Validate
// refuses a value outside the list where the file is read, so that past
// this package an option is compared with its constants only, never with a
// string (TestNoOptionStringsPastConfigs scans the other packages).

// DeadlineConvention is conventions.deadlines.
type DeadlineConvention string

// Deadline conventions.
const (
	DeadlinesPeriod DeadlineConvention = "period"
	DeadlinesModel  DeadlineConvention = "model"
)

// DeadlineConventions lists the deadline conventions, the default first.
var DeadlineConventions = []DeadlineConvention{DeadlinesPeriod, DeadlinesModel}

// PriorityConvention is conventions.priorities.
type PriorityConvention string

// Priority conventions (Conventions.Priorities).
const (
	ModelPriorities       PriorityConvention = "model"
	ModelPrioritiesLower  PriorityConvention = "model-lower-first"
	ModelPrioritiesIgnore PriorityConvention = "derived"
)

// PriorityConventions lists the priority conventions, the default first.
var PriorityConventions = []PriorityConvention{ModelPriorities, ModelPrioritiesLower, ModelPrioritiesIgnore}

// GPUModel is analysis.gpu_model.
type GPUModel string

// GPU models.
const (
	GPUModelFIFO      GPUModel = "fifo"
	GPUModelTimeSlice GPUModel = "timeslice"
)

// GPUModels lists the GPU models, the default first.
var GPUModels = []GPUModel{GPUModelFIFO, GPUModelTimeSlice}

// PriorityAssignment is analysis.priorities.
type PriorityAssignment string

// Priority assignments.
const (
	PrioritiesOPA   PriorityAssignment = "opa"
	PrioritiesDM    PriorityAssignment = "deadline-monotonic"
	PrioritiesRM    PriorityAssignment = "rate-monotonic"
	PrioritiesModel PriorityAssignment = "model"
)

// PriorityAssignments lists the priority assignments, the default first.
var PriorityAssignments = []PriorityAssignment{PrioritiesOPA, PrioritiesDM, PrioritiesRM, PrioritiesModel}

// ContentionCount is analysis.contention.
type ContentionCount string

// Contention counts (package memory's Count, which the evaluation
// translates them to).
const (
	ContentionChallenge ContentionCount = "challenge"
	ContentionRefined   ContentionCount = "refined"
	ContentionRequest   ContentionCount = "request"
)

// DefaultContention is the contention count of a configuration that names
// none.
const DefaultContention = ContentionRefined

// ContentionCounts lists the contention counts, from the challenge's to the
// tightest.
var ContentionCounts = []ContentionCount{ContentionChallenge, ContentionRefined, ContentionRequest}

// ChainParadigm is the communication paradigm of a chain latency.
type ChainParadigm string

// Chain communication paradigms.
const (
	ParadigmImplicit ChainParadigm = "implicit"
	ParadigmLET      ChainParadigm = "let"
)

// ChainMetric is the metric of a chain latency.
type ChainMetric string

// Chain latency metrics.
const (
	MetricReactionTime           ChainMetric = "reaction-time"
	MetricReactionFromActivation ChainMetric = "reaction-from-activation"
	MetricDataAge                ChainMetric = "data-age"
)

// ChainBound is the bound of a chain latency.
type ChainBound string

// Chain latency bounds (package chains, "Bounds for any offsets" and
// "Job-level values").
const (
	// BoundAnyOffset is the least of the bounds valid for any release
	// offsets (Davare et al., DAC 2007; Dürr et al., EMSOFT 2019; hop by
	// hop, with the hops between tasks of one core ordered by priority).
	BoundAnyOffset ChainBound = "any-offset"
	// BoundSynchronous is the job-level value with every task released at
	// its model offset: tighter, valid only while the tasks really are
	// released there.
	BoundSynchronous ChainBound = "synchronous"
	// BoundDavare is Davare et al.'s bound alone, valid for any offsets.
	BoundDavare ChainBound = "davare"
)

// Chain latency choices, the default first.
var (
	ChainParadigms = []ChainParadigm{ParadigmImplicit, ParadigmLET}
	ChainMetrics   = []ChainMetric{MetricReactionTime, MetricReactionFromActivation, MetricDataAge}
	ChainBounds    = []ChainBound{BoundAnyOffset, BoundSynchronous, BoundDavare}
)

// Algorithm is search.algorithm.
type Algorithm string

// Search algorithms.
const (
	// AlgorithmAuto chooses between the two others when the search starts.
	AlgorithmAuto       Algorithm = "auto"
	AlgorithmNSGA2      Algorithm = "nsga2"
	AlgorithmExhaustive Algorithm = "exhaustive"
)

// Algorithms lists the search algorithms, the default first.
var Algorithms = []Algorithm{AlgorithmAuto, AlgorithmNSGA2, AlgorithmExhaustive}

// Selection is search.selection: how the genetic search keeps, of the
// last front of a generation that fits only in part, its survivors.
type Selection string

// Selections of the genetic search.
const (
	// SelectionAuto chooses SelectionReference from ManyObjectives
	// objectives on, SelectionCrowding below (Search.SelectionFor).
	SelectionAuto      Selection = "auto"
	SelectionCrowding  Selection = "crowding"
	SelectionReference Selection = "reference-directions"
)

// Selections lists the selections, the default first.
var Selections = []Selection{SelectionAuto, SelectionCrowding, SelectionReference}

// ObjectiveKind is search.objectives[i].kind.
type ObjectiveKind string

// Objective kinds.
const (
	ObjectiveChain          ObjectiveKind = "chain"
	ObjectiveCoresUsed      ObjectiveKind = "cores-used"
	ObjectiveMaxUtilisation ObjectiveKind = "max-utilisation"
	// ObjectiveMargin maximises the mapping's margin on execution demand
	// (optimizer.Margins: the largest factor on every task's execution
	// demand that keeps it feasible), minimised as its negative and shown
	// as a factor.
	ObjectiveMargin ObjectiveKind = "margin"
)

// ObjectiveKinds lists the objective kinds, the default first.
var ObjectiveKinds = []ObjectiveKind{ObjectiveChain, ObjectiveCoresUsed, ObjectiveMaxUtilisation, ObjectiveMargin}

// Gene is an entry of search.free: a part of the mapping the search may
// change.
type Gene string

// Search genes.
const (
	GeneUnits         Gene = "units"
	GeneOffloading    Gene = "offloading"
	GeneGPUPriorities Gene = "gpu_priorities"
	GeneTimeSlices    Gene = "time_slices"
)

// AllGenes lists the search genes (every one is free by default).
var AllGenes = []Gene{GeneUnits, GeneOffloading, GeneGPUPriorities, GeneTimeSlices}

func (c DeadlineConvention) String() string { return string(c) }
func (c PriorityConvention) String() string { return string(c) }
func (m GPUModel) String() string           { return string(m) }
func (p PriorityAssignment) String() string { return string(p) }
func (c ContentionCount) String() string    { return string(c) }
func (p ChainParadigm) String() string      { return string(p) }
func (m ChainMetric) String() string        { return string(m) }
func (b ChainBound) String() string         { return string(b) }
func (a Algorithm) String() string          { return string(a) }
func (s Selection) String() string          { return string(s) }
func (k ObjectiveKind) String() string      { return string(k) }
func (g Gene) String() string               { return string(g) }

// ParseDeadlineConvention reads a deadline convention (period or model).
func ParseDeadlineConvention(s string) (DeadlineConvention, error) {
	return parseOption(s, DeadlineConventions, "a deadline convention")
}

// ParsePriorityConvention reads a priority convention.
func ParsePriorityConvention(s string) (PriorityConvention, error) {
	return parseOption(s, PriorityConventions, "a priority convention")
}

// ParseGPUModel reads a GPU model (fifo or timeslice).
func ParseGPUModel(s string) (GPUModel, error) {
	return parseOption(s, GPUModels, "a GPU model")
}

// ParsePriorityAssignment reads a priority assignment.
func ParsePriorityAssignment(s string) (PriorityAssignment, error) {
	return parseOption(s, PriorityAssignments, "a priority assignment")
}

// ParseContentionCount reads a contention count.
func ParseContentionCount(s string) (ContentionCount, error) {
	return parseOption(s, ContentionCounts, "a contention count")
}

// ParseChainParadigm reads a chain communication paradigm.
func ParseChainParadigm(s string) (ChainParadigm, error) {
	return parseOption(s, ChainParadigms, "a chain paradigm")
}

// ParseChainMetric reads a chain latency metric.
func ParseChainMetric(s string) (ChainMetric, error) {
	return parseOption(s, ChainMetrics, "a chain metric")
}

// ParseChainBound reads a chain latency bound.
func ParseChainBound(s string) (ChainBound, error) {
	return parseOption(s, ChainBounds, "a bound")
}

// ParseAlgorithm reads a search algorithm (auto, nsga2 or exhaustive).
func ParseAlgorithm(s string) (Algorithm, error) {
	return parseOption(s, Algorithms, "an algorithm")
}

// ParseSelection reads a selection of the genetic search.
func ParseSelection(s string) (Selection, error) {
	return parseOption(s, Selections, "a selection")
}

// ParseObjectiveKind reads an objective kind.
func ParseObjectiveKind(s string) (ObjectiveKind, error) {
	return parseOption(s, ObjectiveKinds, "an objective")
}

// ParseGene reads a search gene.
func ParseGene(s string) (Gene, error) {
	return parseOption(s, AllGenes, "a gene")
}

// parseOption returns the value of values spelled s (exactly, as the
// configuration spells it), or an error that says what s is not and lists
// the values.
func parseOption[T ~string](s string, values []T, what string) (T, error) {
	if known(values, T(s)) {
		return T(s), nil
	}
	return "", fmt.Errorf("%q is not %s (%s)", s, what, orList(values))
}

// known says whether v is one of values.
func known[T ~string](values []T, v T) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}

// orList writes values as "a, b or c".
func orList[T ~string](values []T) string {
	var b strings.Builder
	for i, v := range values {
		switch {
		case i == 0:
		case i == len(values)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(string(v))
	}
	return b.String()
}

// optionStrings returns values as strings, for the lists of messages and of
// the sweep's choices.
func optionStrings[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}
