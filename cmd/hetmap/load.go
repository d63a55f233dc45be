package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// systemFlags are the flags that choose the system: a YAML configuration,
// an Amalthea model (one or more files, or a folder), or (neither) the
// built-in WATERS 2019 default.
type systemFlags struct {
	config string
	model  []string
	cmd    *cobra.Command
	// options holds the analysis choices given as flags (addOptions),
	// bound to the configuration keys they set; nil: the command has none.
	options *viper.Viper
}

func (f *systemFlags) add(cmd *cobra.Command) {
	f.cmd = cmd
	cmd.Flags().StringVar(&f.config, "config", "", "YAML configuration file (default: the built-in WATERS 2019 model)")
	cmd.Flags().StringArrayVar(&f.model, "model", nil, "Amalthea model to read instead of a configuration: a .amxmi file or a folder of them; repeat for a model in several files")
}

// load reads the system. The warnings of a system read from an Amalthea
// model go to stderr (hetmap model lists them too).
func (f *systemFlags) load() (*configs.Config, error) {
	var cfg *configs.Config
	var err error
	switch {
	case f.config != "" && len(f.model) > 0:
		return nil, fmt.Errorf("give either --config or --model, not both")
	case len(f.model) > 0:
		cfg, err = configs.LoadModel(f.model)
	case f.config != "":
		cfg, err = configs.LoadFile(f.config)
	default:
		cfg, err = configs.Default()
	}
	if err == nil && len(cfg.Amalthea) > 0 && f.cmd != nil {
		for _, w := range cfg.Warnings {
			fmt.Fprintln(f.cmd.ErrOrStderr(), "warning:", w)
		}
	}
	if err == nil && f.options != nil {
		err = configs.Override(cfg, f.options, "the command line")
	}
	return cfg, err
}

// evaluator loads the system and compiles its evaluator, writing the
// evaluator's notes on stderr (analyze and optimize).
func (f *systemFlags) evaluator(stderr io.Writer) (*configs.Config, *evaluate.Evaluator, error) {
	cfg, err := f.load()
	if err != nil {
		return nil, nil, err
	}
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		return nil, nil, err
	}
	for _, n := range e.Model().Notes() {
		fmt.Fprintf(stderr, "note: %s\n", n)
	}
	return cfg, e, nil
}

// optionFlags are the analysis choices that users sweep, as flags: each
// sets the configuration key it names, over the configuration's value.
var optionFlags = []struct {
	name, key, usage string
	value            func() pflag.Value
}{
	{"contention", "analysis.contention", "contention count: " + optionList(configs.ContentionCounts) + " (default: the configuration's analysis.contention, refined)",
		choice(configs.ParseContentionCount)},
	{"gpu-model", "analysis.gpu_model", "GPU model: " + optionList(configs.GPUModels) + " (default: the configuration's analysis.gpu_model, fifo)",
		choice(configs.ParseGPUModel)},
	{"priorities", "analysis.priorities", "per-core priority assignment: " + optionList(configs.PriorityAssignments) + " (default: the configuration's analysis.priorities, opa)",
		choice(configs.ParsePriorityAssignment)},
	{"deadlines", "conventions.deadlines", "deadline convention: " + optionList(configs.DeadlineConventions) + " (default: the configuration's conventions.deadlines, period)",
		choice(configs.ParseDeadlineConvention)},
}

func optionList[T ~string](values []T) string {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

// addOptions adds the analysis choices as flags (optionFlags), bound
// through viper to the keys they set; load applies those given.
func (f *systemFlags) addOptions(cmd *cobra.Command) {
	f.options = viper.New()
	for _, o := range optionFlags {
		cmd.Flags().Var(o.value(), o.name, o.usage)
		if err := f.options.BindPFlag(o.key, cmd.Flags().Lookup(o.name)); err != nil {
			panic(err) // a flag of this table missing: a programming error
		}
	}
}

// choiceFlag is a flag that takes one of a typed option's values, parsed
// when the flag is: into value (--algorithm), or for the analysis choices
// (optionFlags) read back through viper as the configuration key's text.
type choiceFlag[T ~string] struct {
	value *T
	parse func(string) (T, error)
}

// choice is a new choiceFlag of its own value, for optionFlags.
func choice[T ~string](parse func(string) (T, error)) func() pflag.Value {
	return func() pflag.Value { return choiceFlag[T]{new(T), parse} }
}

func (f choiceFlag[T]) String() string {
	if f.value == nil {
		return ""
	}
	return string(*f.value)
}
func (f choiceFlag[T]) Type() string { return "string" }
func (f choiceFlag[T]) Set(s string) error {
	v, err := f.parse(s)
	if err != nil {
		return &optionError{err: err}
	}
	*f.value = v
	return nil
}

// optionError is a flag's value that is not one of the option's values.
type optionError struct{ err error }

func (e *optionError) Error() string { return e.err.Error() }

var _ pflag.Value = choiceFlag[configs.Algorithm]{}
