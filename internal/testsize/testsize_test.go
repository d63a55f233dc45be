package testsize

import (
	"runtime/debug"
	"testing"
)

// TestRaceMatchesBuild: Race is what the build says (-race sets the
// build setting -race=true), and Reduced follows -short and Race.
func TestRaceMatchesBuild(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Skip("no build information")
	}
	built := false
	for _, s := range info.Settings {
		if s.Key == "-race" && s.Value == "true" {
			built = true
		}
	}
	if Race != built {
		t.Errorf("Race %v, but the binary was built with -race=%v", Race, built)
	}
	if Reduced() != (testing.Short() || built) {
		t.Errorf("Reduced %v under -short %v, -race %v", Reduced(), testing.Short(), built)
	}
}
