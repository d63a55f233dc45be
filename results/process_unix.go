//go:build unix

package results

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process of this host exists: signal 0
// checks without sending anything; EPERM means it exists under another
// user.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
