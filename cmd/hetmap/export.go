package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/configs/amalthea"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/spf13/cobra"
)

func newExportCmd() *cobra.Command {
	var sf systemFlags
	var mapping, out string
	cmd := &cobra.Command{
		Use:   "export --mapping FILE.yaml (--model FILE.amxmi… | --config FILE.yaml) -o OUT.amxmi",
		Short: "Write a mapping back into the Amalthea model",
		Long: `Write a mapping (a file that hetmap analyze --mapping reads, such as an optimize
run's mappings/point-N.yaml) into the Amalthea model it is a mapping of: the model's
mapping model is replaced by one task allocation per task, to the scheduler of its
core, with the core as affinity, the priority the analysis uses (derived by
analysis.priorities unless the mapping gives them), the GPU time slice and stream
priority; the offloading mode of a GPU task is written as the waitingBehaviour of its
offloading task's WaitEvent, as the model encodes it. Everything else stays as it
was, byte for byte. Importing the file written gives back the system and the mapping.

The model comes from --model (one or more .amxmi files or a folder) or from the
configuration's model: key. A model in one file is written to OUT.amxmi; a model
in several files is written, every file of it, into the folder -o names.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case mapping == "":
				return errors.New("give --mapping FILE.yaml, the mapping to write into the model")
			case out == "":
				return errors.New("give -o OUT.amxmi, where to write the model")
			}
			cfg, err := sf.load()
			if err != nil {
				return err
			}
			if len(cfg.Amalthea) == 0 {
				return errors.New("export writes into an Amalthea model: give --model FILE.amxmi, or a --config whose model: names one")
			}
			m, err := configs.LoadMappingFile(mapping)
			if err != nil {
				return err
			}
			e, err := evaluate.NewEvaluator(cfg)
			if err != nil {
				return err
			}
			a, err := e.FromMapping(m)
			if err != nil {
				var ie *configs.InputError
				if errors.As(err, &ie) && ie.File == "" {
					ie.File = mapping
				}
				return err
			}
			r := e.NewAnalysis()
			if err := e.Evaluate(a, r); err != nil {
				return err
			}
			files, err := amalthea.Export(cfg.Amalthea, amaltheaMapping(e, a, r))
			if err != nil {
				return err
			}
			written, err := writeModel(out, cfg.Amalthea, files)
			if err != nil {
				return err
			}
			verdict := "schedulable"
			switch {
			case !r.Schedulable:
				verdict = fmt.Sprintf("NOT schedulable (%d task(s) miss their deadline or have no bound)", r.Misses)
			case !r.RequirementsMet:
				verdict = "infeasible: it misses chain latency requirements"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: the model with the mapping of %s (the mapping is %s)\n", strings.Join(written, ", "), mapping, verdict)
			return nil
		},
	}
	sf.add(cmd)
	cmd.Flags().StringVar(&mapping, "mapping", "", "mapping file (YAML) to write into the model")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the model to write: a .amxmi file (a folder for a model in several files)")
	return cmd
}

// amaltheaMapping is what export writes for an evaluated assignment: the
// mapping and the priorities the analysis used on every core.
func amaltheaMapping(e *evaluate.Evaluator, a *evaluate.Assignment, r *evaluate.Analysis) amalthea.ExportMapping {
	em := amalthea.ExportMapping{Mapping: e.Model().Mapping(a), Priorities: map[string]int{}, Convention: e.Model().Config().Conventions.Priorities}
	// Under the fifo GPU model a mapping carries no time slices; keep those
	// the model gives the GPU tasks on the GPU.
	if len(em.Mapping.TimeSlices) == 0 {
		model := e.Model().Config().System.Mapping.TimeSlices
		for g, k := range e.Model().GPUTasks() {
			if a.Unit[k] != e.Model().GPUUnit() {
				continue
			}
			for _, ts := range model {
				if ts.Task == r.Tasks[k].Name {
					em.Mapping.TimeSlices = append(em.Mapping.TimeSlices, configs.TimeSliceSet{Task: ts.Task, Slice: configs.Duration(a.Slice[g])})
				}
			}
		}
	}
	for k := range r.Tasks {
		if t := &r.Tasks[k]; t.Role.OnCPU() {
			em.Priorities[t.Name] = t.Priority
		}
	}
	return em
}

// modelOutputs names the files of an exported model: the model itself for
// a model in one file, its files by name inside folder out otherwise.
func modelOutputs(out string, inputs []string) (map[string]string, error) {
	names := map[string]string{}
	if len(inputs) == 1 {
		names[inputs[0]] = out
		return names, nil
	}
	seen := map[string]string{}
	for _, in := range inputs {
		base := filepath.Base(in)
		if prev, dup := seen[base]; dup {
			return nil, fmt.Errorf("the model's files %s and %s have the same name: they cannot be written into one folder", prev, in)
		}
		seen[base] = in
		names[in] = filepath.Join(out, base)
	}
	return names, nil
}

// writeModel writes an exported model to out (see modelOutputs) without
// leaving a partial result: the files go to a temporary name, then into
// place.
func writeModel(out string, inputs []string, files map[string][]byte) ([]string, error) {
	names, err := modelOutputs(out, inputs)
	if err != nil {
		return nil, err
	}
	if len(inputs) == 1 {
		tmp := out + ".tmp"
		if err := os.WriteFile(tmp, files[inputs[0]], 0o644); err != nil {
			os.Remove(tmp)
			return nil, cannotWrite(out, err)
		}
		if err := os.Rename(tmp, out); err != nil {
			os.Remove(tmp)
			return nil, cannotWrite(out, err)
		}
		return []string{out}, nil
	}
	if _, err := os.Stat(out); err == nil {
		return nil, fmt.Errorf("%s exists already: a model in several files is written into a new folder", out)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), "."+filepath.Base(out)+".tmp-")
	if err != nil {
		return nil, cannotWrite(out, err)
	}
	var written []string
	for _, in := range inputs {
		if err := os.WriteFile(filepath.Join(tmp, filepath.Base(names[in])), files[in], 0o644); err != nil {
			os.RemoveAll(tmp)
			return nil, cannotWrite(names[in], err)
		}
		written = append(written, names[in])
	}
	if err := os.Rename(tmp, out); err != nil {
		os.RemoveAll(tmp)
		return nil, cannotWrite(out, err)
	}
	sort.Strings(written)
	return written, nil
}

// cannotWrite says that out cannot be written, naming out and its folder
// rather than the temporary name the write went through.
func cannotWrite(out string, err error) error {
	dir := filepath.Dir(out)
	if st, serr := os.Stat(dir); serr != nil {
		return fmt.Errorf("cannot write %s: the folder %s does not exist", out, dir)
	} else if !st.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a folder", out, dir)
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return fmt.Errorf("cannot write %s: %v", out, err)
}
