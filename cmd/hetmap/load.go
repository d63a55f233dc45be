package main

import (
	"fmt"

	"github.com/hetmap/hetmap/configs"
	"github.com/spf13/cobra"
)

// systemFlags are the flags that choose the system: a YAML configuration,
// an Amalthea model (one or more files, or a folder), or (neither) the
// built-in WATERS 2019 default.
type systemFlags struct {
	config string
	model  []string
	cmd    *cobra.Command
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
		return configs.Default()
	}
	if err == nil && len(cfg.Amalthea) > 0 && f.cmd != nil {
		for _, w := range cfg.Warnings {
			fmt.Fprintln(f.cmd.ErrOrStderr(), "warning:", w)
		}
	}
	return cfg, err
}
