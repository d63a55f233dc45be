package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// exitInterrupted is the exit code of a command stopped by Ctrl-C (SIGINT)
// or SIGTERM: 128 + SIGINT, what shells report for a process the signal
// ended.
const exitInterrupted = 130

// interruptedError marks a command that a signal stopped after it had
// written what it could; the exit code is 130.
type interruptedError struct{ msg string }

func (e *interruptedError) Error() string { return e.msg }

// withInterrupt returns a context that the first SIGINT or SIGTERM
// cancels, after writing notice to stderr; a second signal ends the
// process at once with exit code 130 (what it was writing stays as a
// temporary folder, which the next run into the same parent folder
// removes). stop releases the signals.
func withInterrupt(parent context.Context, stderr io.Writer, notice string) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		fmt.Fprintln(stderr, "\nhetmap: "+notice+" (Ctrl-C again to stop at once)")
		cancel()
		select {
		case <-sigs:
		case <-done:
			return
		}
		fmt.Fprintln(stderr, "hetmap: stopped at once")
		os.Exit(exitInterrupted)
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}
