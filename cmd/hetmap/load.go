package main

import (
	"fmt"

	"github.com/hetmap/hetmap/configs"
	"github.com/spf13/cobra"
)

// systemFlags are the flags that choose the system: a YAML configuration,
// an Amalthea model, or (neither) the built-in WATERS 2019 default.
type systemFlags struct {
	config string
	model  string
}

func (f *systemFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.config, "config", "", "YAML configuration file (default: the built-in WATERS 2019 model)")
	cmd.Flags().StringVar(&f.model, "model", "", "Amalthea model file (.amxmi) to read instead of a configuration")
}

func (f *systemFlags) load() (*configs.Config, error) {
	switch {
	case f.config != "" && f.model != "":
		return nil, fmt.Errorf("give either --config or --model, not both")
	case f.model != "":
		return configs.LoadFile(f.model)
	case f.config != "":
		return configs.LoadFile(f.config)
	}
	return configs.Default()
}
