package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/hetmap/hetmap/results"
	"github.com/spf13/cobra"
)

func newAnalyzeCmd() *cobra.Command {
	var sf systemFlags
	var mapping string
	var asJSON bool
	var margins string
	cmd := &cobra.Command{
		Use:   "analyze --mapping FILE.yaml|default",
		Short: "Analyse one mapping: response times with memory contention, the copy engine, the GPU and offloading",
		Long: `Analyse one mapping of the system's tasks to units: every task's execution time
with its terms (compute, memory, contention, GPU wait), its worst-case response time
and deadline, the contention of its response window under the challenge and refined
counts (analysis.contention; request too when in force) with, per other core and the
copy engine, the term that binds, the GPU tasks' responses with their terms, the chains'
latencies and latency requirements, and a verdict. The exit code is 1 when some task
misses its deadline or has no bound, or a chain misses a latency requirement.

--mapping default analyses the model's own mapping, with the model's priorities on
every core where each task has one (and they are not all the same); on the other
cores the priorities are derived by analysis.priorities. A mapping file places every task
that runs and may set offloading modes, time slices and stream priorities:

  units:                    # task → unit, one entry per task that runs
    - {task: DASM, unit: Core2}
    - {task: EKF, unit: Core2, priority: 2}   # optional; higher value = more urgent
    - {task: SFM, unit: GP10B}
    - {task: PRE_SFM_gpu_POST, unit: Core1}
  offloading:               # optional, default = the model's
    - {task: Detection, mode: async}
  time_slices:              # optional, default = the model's (timeslice model)
    - {task: SFM, slice: 7200us}
  gpu_priorities:           # optional, default low (fifo model)
    - {task: SFM, priority: high}

A GPU task placed on a core is merged with its offloading task, which then gets no
entry. Priorities given in the file are used on every core where each task has one.

--margins chooses the margins on execution demand: all (default: every task's demand
scaled together, per kind of unit and per task alone), kinds (the first two) or none.

--contention, --gpu-model, --priorities and --deadlines set analysis.contention,
analysis.gpu_model, analysis.priorities and conventions.deadlines over the configuration's.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if mapping == "" {
				return errors.New("give --mapping FILE.yaml, or --mapping default for the model's own mapping")
			}
			mopts, err := marginOptions(margins)
			if err != nil {
				return err
			}
			cfg, e, err := sf.evaluator(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			a, name, err := assignmentOf(cfg, e, mapping)
			if err != nil {
				return err
			}
			r := e.NewAnalysis()
			if err := e.EvaluateForReport(a, r); err != nil {
				return err
			}
			if margins != "none" {
				if err := e.AnalyzeMargins(a, r, mopts); err != nil {
					return err
				}
			}
			if asJSON {
				err = results.WriteAnalysisJSON(cmd.OutOrStdout(), cfg, mapping, r)
			} else {
				err = results.WriteAnalysisText(cmd.OutOrStdout(), cfg, name, r)
			}
			if err != nil {
				return err
			}
			if !r.Schedulable {
				return &problemError{msg: fmt.Sprintf("the mapping is not schedulable: %d task(s) miss their deadline or have no bound", r.Misses)}
			}
			if !r.RequirementsMet {
				return &problemError{msg: "the mapping is infeasible: it misses chain latency requirements"}
			}
			return nil
		},
	}
	sf.add(cmd)
	sf.addOptions(cmd)
	cmd.Flags().StringVar(&mapping, "mapping", "", "mapping file (YAML), or default for the model's own mapping")
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON instead of text")
	cmd.Flags().StringVar(&margins, "margins", "all", "margins on execution demand: all (every task scaled together, per kind of unit, per task), kinds (the first two) or none")
	return cmd
}

// marginOptions are the margins --margins asks for: all, kinds (the margins
// per kind of unit, not per task) or none (no margin: the options unused).
func marginOptions(margins string) (evaluate.MarginOptions, error) {
	var mopts evaluate.MarginOptions
	switch margins {
	case "all", "none":
	case "kinds":
		mopts.NoTasks = true
	default:
		return mopts, fmt.Errorf("--margins: %q is not all, kinds or none", margins)
	}
	return mopts, nil
}

// assignmentOf reads the mapping analyze is given: the file mapping, or
// the model's own when it is "default"; name is how the text names it.
func assignmentOf(cfg *configs.Config, e *evaluate.Evaluator, mapping string) (a *evaluate.Assignment, name string, err error) {
	name = mapping
	if mapping == "default" {
		name = "default (the model's own mapping)"
		if err := ownMappingComplete(cfg.System); err != nil {
			return nil, "", err
		}
		if a, err = ownAssignment(cfg, e); err != nil {
			return nil, "", fmt.Errorf("the model's own mapping: %w", err)
		}
	} else {
		m, err := configs.LoadMappingFile(mapping)
		if err != nil {
			return nil, "", err
		}
		if a, err = e.FromMapping(m); err != nil {
			var ie *configs.InputError
			if errors.As(err, &ie) && ie.File == "" {
				// The keys of a mapping file are at its top level.
				ie.File, ie.Where = mapping, strings.TrimPrefix(ie.Where, "mapping.")
			}
			return nil, "", err
		}
	}
	return a, name, nil
}

// ownMappingComplete reports, as a usage error (exit 2) in one line, a
// model without a mapping of its own or with one that leaves tasks out:
// there is nothing to analyse with --mapping default.
func ownMappingComplete(s *configs.System) error {
	const hint = "give --mapping FILE.yaml (hetmap optimize writes one per front point in mappings/)"
	if len(s.Mapping.Units) == 0 {
		return errors.New("the model has no mapping of its own, so --mapping default has nothing to analyse; " + hint)
	}
	if err := configs.ValidateMapping(s, &s.Mapping, false); err != nil {
		var ie *configs.InputError
		if errors.As(err, &ie) {
			return errors.New("the model's own mapping is incomplete (" + ie.What + "), so --mapping default cannot be analysed; " + hint)
		}
		return err
	}
	return nil
}

// ownAssignment is the model's own mapping as --mapping default analyses
// it: with the model's priorities, read by conventions.priorities, on every
// core where they order the tasks (configs.Config.OwnMapping; they win over
// analysis.priorities, as those of a mapping file do), derived elsewhere.
// Under analysis.priorities: model every task needs the model's priority.
func ownAssignment(cfg *configs.Config, e *evaluate.Evaluator) (*evaluate.Assignment, error) {
	if cfg.Analysis.Priorities == configs.PrioritiesModel {
		return e.DefaultAssignment()
	}
	m, _ := cfg.OwnMapping()
	return e.FromMapping(&m)
}
