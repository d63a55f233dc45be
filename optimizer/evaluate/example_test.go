package evaluate_test

import (
	"fmt"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// Evaluate a schedulable mapping of the built-in WATERS 2019 model: SFM and
// Detection share the GPU (SFM with the high stream priority), both offload
// asynchronously, and Localization and Lane_detection are merged onto A57
// cores of their own. C charges every access the challenge's contention;
// R, under the default refined count, only the accesses of its window that
// can overlap other units' memory phases (PRE_SFM_gpu_POST: 31.714 ms,
// 32.698 ms under the challenge count).
func ExampleEvaluator_Evaluate() {
	cfg, err := configs.Default()
	if err != nil {
		panic(err)
	}
	e, err := evaluate.NewEvaluator(cfg) // once per configuration
	if err != nil {
		panic(err)
	}
	a, err := e.FromMapping(feasibleWATERS()) // validated and converted once
	if err != nil {
		panic(err)
	}
	r := e.NewAnalysis() // reuse it: Evaluate then does not allocate
	if err := e.Evaluate(a, r); err != nil {
		panic(err)
	}
	fmt.Println("schedulable:", r.Schedulable)
	for _, name := range []string{"PRE_SFM_gpu_POST", "SFM", "Detection", "Localization"} {
		t := r.Task(name)
		fmt.Printf("%-16s %-22s on %-5s C = %8.3f ms  R = %8.3f ms  D = %3.0f ms\n",
			t.Name, t.Role, t.UnitName, float64(t.C)/1e9, float64(t.R)/1e9, float64(t.D)/1e9)
	}
	// Output:
	// schedulable: true
	// PRE_SFM_gpu_POST offloads asynchronously on Core1 C =   10.287 ms  R =   31.714 ms  D =  33 ms
	// SFM              on the GPU             on GP10B C =    8.090 ms  R =    9.465 ms  D =  33 ms
	// Detection        on the GPU             on GP10B C =  116.258 ms  R =  164.970 ms  D = 200 ms
	// Localization     merged onto a core     on Core5 C =  392.590 ms  R =  392.590 ms  D = 400 ms
}
