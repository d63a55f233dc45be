package configs

import (
	"strings"
	"testing"

	"github.com/spf13/viper"
)

// TestOverride: the keys a viper holds (flags bound to them) replace the
// configuration's, decoded as strictly as a file: a key outside the
// conventions and the analysis, an unknown key or a value outside the
// option's is an error naming the key; keys it does not hold are kept.
func TestOverride(t *testing.T) {
	load := func() *Config {
		cfg, err := Load(strings.NewReader("model: builtin\nanalysis: {contention: challenge, gpu_model: timeslice}\n"), "c.yaml", ".")
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	cfg := load()
	if err := Override(cfg, viper.New(), "the command line"); err != nil || cfg.Analysis.Contention != ContentionChallenge {
		t.Fatalf("nothing set: %v, %s", err, cfg.Analysis.Contention)
	}
	v := viper.New()
	v.Set("analysis.contention", "request")
	v.Set("conventions.deadlines", "model")
	if err := Override(cfg, v, "the command line"); err != nil {
		t.Fatal(err)
	}
	if cfg.Analysis.Contention != ContentionRequest || cfg.Conventions.Deadlines != DeadlinesModel || cfg.Analysis.GPUModel != GPUModelTimeSlice {
		t.Errorf("overridden: %s, %s, %s; want request, model and the file's timeslice", cfg.Analysis.Contention, cfg.Conventions.Deadlines, cfg.Analysis.GPUModel)
	}
	for key, want := range map[string]string{
		"analysis.contention": `the command line: analysis.contention: "exact" is not a contention count`,
		"analysis.bogus":      "bogus",
		"search.seed":         "search",
	} {
		v := viper.New()
		v.Set(key, "exact")
		if err := Override(load(), v, "the command line"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want an error with %q", key, err, want)
		}
	}
}
