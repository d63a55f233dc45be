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
}

func (f *systemFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.config, "config", "", "YAML configuration file (default: the built-in WATERS 2019 model)")
	cmd.Flags().StringArrayVar(&f.model, "model", nil, "Amalthea model to read instead of a configuration: a .amxmi file or a folder of them; repeat for a model in several files")
}

func (f *systemFlags) load() (*configs.Config, error) {
	switch {
	case f.config != "" && len(f.model) > 0:
		return nil, fmt.Errorf("give either --config or --model, not both")
	case len(f.model) > 0:
		return configs.LoadModel(f.model)
	case f.config != "":
		return configs.LoadFile(f.config)
	}
	return configs.Default()
}
