package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hetmap/hetmap/configs/gpuscenario"
	"github.com/hetmap/hetmap/results"
	"github.com/hetmap/hetmap/rta/gpu"
	"github.com/hetmap/hetmap/rta/gpusim"
	"github.com/spf13/cobra"
)

func newGPUCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "gpu",
		Short: "GPU analyses on a kernel set: block-level response times, simulation",
		// Runnable, so that a command that is not rta or simulate is an
		// error (exit code 2) rather than the help with exit code 0.
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return errors.New("give a command: hetmap gpu rta FILE.yaml, or hetmap gpu simulate FILE (see hetmap gpu --help)")
		},
	}
	cmd.AddCommand(newGPURTACmd(), newGPUSimulateCmd())
	return cmd
}

func newGPURTACmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "rta FILE.yaml",
		Short: "Block-level response-time analysis of a kernel set (FIFO EE queue, TX2 rules)",
		Long: `Run the block-level GPU response-time analysis (the thesis's algorithm; see the
documentation of the package rta/gpu) on a kernel set:

  gpu: {sms: 2, threads_per_sm: 2048}          # optional; the TX2 by default
  kernels:                                     # queue order
    - {name: K1, period: 15s, block_time: 4s, blocks: 2, threads_per_block: 512, launch: 0s}

and print each kernel's completion and response time. Exit code 1 when a kernel's
response exceeds its period.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ks, err := gpuscenario.LoadKernelSet(args[0])
			if err != nil {
				return err
			}
			in := ks.BlockAnalysisInput()
			f, err := gpu.BlockRTA(in.Device, in.Kernels)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			rep := results.GPURTAReport{NotModelled: in.Unsupported}
			missed := 0
			for i, k := range in.Kernels {
				rk := results.GPURTAKernel{Name: k.Name, CompletionNs: f[i], ResponseNs: f[i] - k.Release, PeriodNs: k.Period}
				if k.Period > 0 {
					ok := rk.ResponseNs <= k.Period
					rk.Schedulable = &ok
					if !ok {
						missed++
					}
				}
				rep.Kernels = append(rep.Kernels, rk)
			}
			for _, u := range in.Unsupported {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: the block-level analysis does not model %s; `hetmap gpu simulate` follows every rule\n", u)
			}
			if asJSON {
				err = results.WriteGPURTAJSON(cmd.OutOrStdout(), rep)
			} else {
				err = results.WriteGPURTAText(cmd.OutOrStdout(), rep)
			}
			if err == nil && missed > 0 {
				return &problemError{fmt.Sprintf("%d kernel(s) respond later than their period", missed)}
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON instead of text")
	return cmd
}

func newGPUSimulateCmd() *cobra.Command {
	var asJSON bool
	var svgOut string
	cmd := &cobra.Command{
		Use:   "simulate FILE",
		Short: "Simulate the TX2 GPU scheduling rules on a kernel set or a CUDA Scheduling Examiner scenario",
		Long: `Simulate a kernel set (.yaml, the format of "hetmap gpu rta" with optional per-kernel
stream, priority, shared_memory_per_block, registers_per_thread, copy_in and copy_out) or a
CUDA Scheduling Examiner scenario (.json) under every rule of the TX2's GPU scheduling
(Amert et al., RTSS 2017; see the documentation of the package rta/gpusim): stream
queues, the EE queue per priority, the copy engine, per-SM threads, shared memory and
registers, the NULL stream. Prints per kernel when its first block was assigned and when it
completed, and per block its SM, start and end. Benchmarks whose plugins are not kernels
are reported as skipped.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sc, warns, err := gpuscenario.LoadFile(args[0], gpuscenario.Options{})
			if err != nil {
				return err
			}
			for _, w := range warns {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
			}
			res, err := gpusim.Simulate(sc)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			if len(res.Kernels) == 0 && len(res.Copies) == 0 {
				return fmt.Errorf("%s: nothing to simulate: every benchmark of the scenario was skipped (the warnings above say why)", args[0])
			}
			if svgOut != "" {
				var buf bytes.Buffer
				if err := gpusim.WriteSVG(&buf, res); err != nil {
					return err
				}
				if err := writeFileAtomic(svgOut, buf.Bytes()); err != nil {
					return err
				}
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(res.Report())
			}
			return results.WriteGPUSimText(cmd.OutOrStdout(), res)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "write JSON instead of text")
	cmd.Flags().StringVar(&svgOut, "svg", "", "also draw the block timeline by SM to this SVG file")
	return cmd
}

// writeFileAtomic writes through a temporary file of a unique name beside
// path, renamed into place, so a failure never leaves a partial file.
func writeFileAtomic(path string, data []byte) error { return results.WriteFileAtomic(path, data) }
