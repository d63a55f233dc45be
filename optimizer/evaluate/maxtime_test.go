package evaluate

import (
	"testing"

	"github.com/hetmap/hetmap/configs"
	"github.com/hetmap/hetmap/rta"
)

// TestMaxTimeAgrees: the bound configs checks every time and every term of
// a task's demand against is the bound of the analyses' input, so that a
// validated system never reaches them as an invalid task.
func TestMaxTimeAgrees(t *testing.T) {
	if int64(configs.MaxTime) != rta.MaxTime {
		t.Errorf("configs.MaxTime = %d, rta.MaxTime = %d", configs.MaxTime, rta.MaxTime)
	}
}
