package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hetmap/hetmap/configs"
	"github.com/spf13/cobra"
)

func newImportCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "import FILE.amxmi… | FOLDER",
		Short: "Convert an Amalthea model to a hetmap YAML configuration",
		Long: `Convert an Amalthea model to a hetmap YAML configuration. Loading the YAML gives
the same system. A model in several files is given as all its files, or as the
folder that holds them (one model, as APP4MC loads a folder). Warnings about the
model go to stderr and into the file's header.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, a := range args {
				if st, err := os.Stat(a); err == nil && st.IsDir() {
					continue
				}
				if !strings.EqualFold(filepath.Ext(a), ".amxmi") {
					return fmt.Errorf("%s: expected an Amalthea model ending in .amxmi, or a folder of them", a)
				}
			}
			if st, err := os.Stat(out); err == nil && st.IsDir() {
				return fmt.Errorf("-o %s: %s is a folder: give a file name, e.g. %s", out, out, filepath.Join(out, strings.TrimSuffix(filepath.Base(args[0]), filepath.Ext(args[0]))+".yaml"))
			}
			cfg, err := configs.LoadModel(args)
			if err != nil {
				return err
			}
			var names []string
			for _, a := range args {
				names = append(names, filepath.Base(a))
			}
			var header strings.Builder
			fmt.Fprintf(&header, "hetmap configuration imported from %s.\n", strings.Join(names, ", "))
			fmt.Fprintf(&header, "`warnings:` at the end lists what the import resolved by the spec's conventions.\n")
			var buf bytes.Buffer
			if err := configs.WriteYAML(&buf, cfg, header.String()); err != nil {
				return err
			}
			for _, w := range cfg.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
			}
			if out == "" || out == "-" {
				_, err = cmd.OutOrStdout().Write(buf.Bytes())
				return err
			}
			// Through a temporary file, renamed: no partial file on failure.
			return writeFileAtomic(out, buf.Bytes())
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the YAML to this file (default: standard output)")
	return cmd
}
