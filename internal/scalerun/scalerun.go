// Package scalerun is the search of the scale tests and benchmarks of the
// run folder (results/runwrite's writing, results/report's bounded report,
// results' console at scale): the 250-task synthetic system (240 periodic
// tasks and 5 GPU tasks with their offloading tasks on 4 A57 and 2 Denver
// cores and a GPU, 8 chains of 4 tasks, each an objective, at half the
// cores' capacity) searched by NSGA-II within a budget of evaluations. It
// serves tests and benchmarks only.
package scalerun

import (
	"context"
	"math/rand/v2"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/internal/synth"
	"github.com/hetmap/hetmap/optimizer"
	"github.com/hetmap/hetmap/optimizer/evaluate"
)

// Search runs the genetic search on the synthetic system of 250 tasks
// (8 chains) within a budget of evaluations, its front bounded by maxFront
// (0: search.max_front's default).
func Search(evaluations, maxFront int, opts optimizer.Options) (*configs.Config, *optimizer.Outcome, error) {
	s := synth.Settings{Tasks: 240, GPUTasks: 5, A57: 4, Denver: 2, Chains: 8, ChainLength: 4, Utilisation: 0.5 * 6}
	cfg, _, err := synth.Config(s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		return nil, nil, err
	}
	cfg.Search.Algorithm, cfg.Search.MaxEvaluations = configs.AlgorithmNSGA2, evaluations
	if maxFront > 0 {
		cfg.Search.MaxFront = &maxFront
	}
	e, err := evaluate.NewEvaluator(cfg)
	if err != nil {
		return nil, nil, err
	}
	out, err := optimizer.Run(context.Background(), e, opts)
	return cfg, out, err
}
