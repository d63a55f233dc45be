package moo

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// pipeline evaluates a batch of genomes on the run's workers while the
// goroutine that runs the search is still producing the batch: NSGA-II hands
// each offspring over as soon as it is bred, so that breeding, which draws
// from the run's one random generator and so cannot be shared out, overlaps
// with evaluation. The genomes go out in chunks of pipelineChunk, over a
// channel, to helper goroutines that run workers 1 to W−1; the search's own
// goroutine is worker 0 and, once the batch is complete, evaluates what
// remains and takes chunks no helper has taken yet. Every result is placed by
// its index and the evaluations are recorded in order once all are done, the
// first invalid one by index being the error, so the outcome does not depend
// on the number of workers or on their scheduling.
type pipeline struct {
	r       *run
	genomes [][]int       // the batch, genomes[:n]
	out     []*Evaluation // where each evaluation goes
	errs    []error
	n, sent int // genomes in the batch; genomes handed to the helpers

	chunks  chan chunk
	pending sync.WaitGroup // chunks handed out, not yet evaluated
	helpers sync.WaitGroup // helper goroutines running
}

// chunk is a part of a batch for one worker: its own views of the batch's
// slices, so that no worker reads a slice header the search goroutine
// writes.
type chunk struct {
	genomes [][]int
	out     []*Evaluation
	errs    []error
}

// pipelineChunk is how many genomes go to a helper at a time: few enough
// that a helper starts soon after breeding does, enough that handing them
// over costs little next to evaluating them.
const pipelineChunk = 4

// newPipeline returns a pipeline for batches of at most capacity genomes,
// with a helper goroutine for each of the run's workers but the first.
// close stops them.
func newPipeline(r *run, capacity int) *pipeline {
	p := &pipeline{r: r, genomes: make([][]int, capacity), out: make([]*Evaluation, capacity), errs: make([]error, capacity)}
	if len(r.workers) > 1 {
		p.chunks = make(chan chunk, capacity/pipelineChunk+1)
		for _, ev := range r.workers[1:] {
			p.helpers.Add(1)
			go func() {
				defer p.helpers.Done()
				for {
					c, ok := p.next()
					if !ok {
						return
					}
					c.evaluate(r, ev)
					p.pending.Done()
				}
			}()
		}
	}
	return p
}

// helperSpin is how long a helper keeps looking for work before it sleeps:
// longer than the search goroutine takes between two batches (survival and
// the first offspring of the next generation, about 25 µs on WATERS), so
// that a helper is rarely asleep when a chunk comes and the search goroutine
// rarely pays for waking it (futex calls took 5 % of its time), and short
// enough that a helper gives its processor back soon when there is nothing
// to do.
const helperSpin = 50 * time.Microsecond

// next returns the next chunk for a helper, or false when the pipeline is
// closed. It looks for one, yielding the processor in between, for up to
// helperSpin, and then waits.
func (p *pipeline) next() (chunk, bool) {
	var start time.Time
	for spins := 0; ; spins++ {
		select {
		case c, ok := <-p.chunks:
			return c, ok
		default:
		}
		if spins%64 == 0 {
			if spins == 0 {
				start = time.Now()
			} else if time.Since(start) > helperSpin {
				break
			}
		}
		runtime.Gosched()
	}
	c, ok := <-p.chunks
	return c, ok
}

// close stops the helpers, once the last batch is finished.
func (p *pipeline) close() {
	if p.chunks != nil {
		close(p.chunks)
		p.helpers.Wait()
	}
}

// reset starts a new batch.
func (p *pipeline) reset() {
	clear(p.genomes[:p.n])
	clear(p.out[:p.n])
	clear(p.errs[:p.n])
	p.n, p.sent = 0, 0
}

// add appends genome g, to be evaluated into out (whose Objectives has
// length NumObjectives), to the batch. Neither may change until finish
// returns.
func (p *pipeline) add(g []int, out *Evaluation) {
	p.genomes[p.n], p.out[p.n] = g, out
	p.n++
	if p.chunks != nil && p.n-p.sent == pipelineChunk {
		p.send(p.n)
	}
}

// send hands the genomes from sent to end to a helper.
func (p *pipeline) send(end int) {
	p.pending.Add(1)
	p.chunks <- chunk{p.genomes[p.sent:end:end], p.out[p.sent:end:end], p.errs[p.sent:end:end]}
	p.sent = end
}

// errInterrupted is what finish returns when Settings.Context ended the
// run before every genome of the batch was evaluated.
var errInterrupted = errors.New("moo: interrupted")

// finish evaluates what no helper has, waits for the helpers, and records
// the batch's evaluations in order. Once Settings.Context is done the
// workers evaluate nothing more: finish then records the evaluations made
// and returns errInterrupted.
func (p *pipeline) finish() error {
	ev := p.r.workers[0]
	rest := chunk{p.genomes[p.sent:p.n], p.out[p.sent:p.n], p.errs[p.sent:p.n]}
	rest.evaluate(p.r, ev)
	if p.chunks != nil {
		for taking := true; taking; {
			select {
			case c := <-p.chunks:
				c.evaluate(p.r, ev)
				p.pending.Done()
			default:
				taking = false
			}
		}
		p.pending.Wait()
	}
	interrupted := false
	for i, g := range p.genomes[:p.n] {
		if p.errs[i] == errInterrupted {
			interrupted = true
			continue
		}
		if p.errs[i] != nil {
			return p.errs[i]
		}
		if err := p.r.sp.checkEvaluation(g, p.out[i]); err != nil {
			return err
		}
		p.r.record(g, p.out[i])
	}
	p.r.offerVariants()
	if interrupted {
		return errInterrupted
	}
	return nil
}

// evaluate evaluates the chunk's genomes with ev, none once the run is
// interrupted (their error is then errInterrupted).
func (c chunk) evaluate(r *run, ev Evaluator) {
	for i, g := range c.genomes {
		if r.interrupted() {
			c.errs[i] = errInterrupted
			continue
		}
		c.errs[i] = evaluateOne(ev, g, c.out[i])
	}
}

// evaluateOne evaluates g into e, turning a panic of the Evaluator into an
// error.
func evaluateOne(ev Evaluator, g []int, e *Evaluation) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("moo: evaluation of genome %v panicked: %v", g, v)
		}
	}()
	clear(e.Objectives)
	e.Violation, e.Tiebreak, e.Payload, e.Cost, e.Variants = 0, 0, nil, 0, nil
	ev.Evaluate(g, e)
	return nil
}
