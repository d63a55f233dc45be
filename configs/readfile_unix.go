//go:build unix

package configs

import (
	"os"
	"syscall"
)

// openFlags opens an input without blocking: opening a FIFO for reading
// waits for a writer otherwise. It changes nothing for a regular file,
// the only kind OpenInput keeps open.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
