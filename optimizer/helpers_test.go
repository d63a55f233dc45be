package optimizer_test

import (
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// Helpers shared with the evaluation's tests (optimizer/evaluate/evaluate_test.go
// holds the same).

const gpuUnit = `
  - name: GPU
    kind: GPU_def
    type: gpu
    frequency: 1500MHz
    read_latency_cycles: 5
    write_latency_cycles: 5
    gpu: {sms: 2, cores_per_sm: 128, threads_per_sm: 2048, shared_memory_per_sm: 65536, registers_per_sm: 65536, copy_engines: 1, max_threads_per_block: 1024, max_shared_memory_per_block: 49152}
`

func evaluator(t *testing.T, cfg *configs.Config) *evaluate.Evaluator {
	t.Helper()
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
