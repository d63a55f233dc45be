//go:build !unix

package configs

import "os"

// openFlags: where there is no O_NONBLOCK, the Stat before the open
// refuses what is not a regular file.
const openFlags = os.O_RDONLY
