package gpuscenario

// accuracyDoc is the text of docs/gpu-analysis-accuracy.md; TestAccuracyReport
// fills in {{CATEGORIES}} and {{TABLE}}.
const accuracyDoc = `# Accuracy of the block-level GPU analysis

This page compares the completion times of the block-level analysis
(` + "`rta/gpu`" + `, ` + "`gpu.BlockRTA`" + `, gpu-block-rta.md) with those of the discrete-event
simulator of the TX2 scheduling rules (` + "`rta/gpusim`" + `, gpu-scheduling.md) on random
kernel sets. The simulator plays every rule on the two real SMs (per-SM threads in
whole warps, shared memory, registers, 32 resident blocks per SM; blocks go to the SM
with the most free threads); the analysis reasons on the whole GPU.

It is generated: do not edit it by hand. Regenerate it with

    go test -run TestAccuracyReport -v ./configs/gpuscenario/ -args -write-accuracy

(` + "`go test -run TestAccuracyReport -v ./configs/gpuscenario/`" + ` prints the table without
writing). The generator is seeded, so the table only changes when the analysis, the
simulator or the generator change.

## Method

Each set has 1 to 12 kernels with 1 to 40 blocks each; in half of the sets the block
times are whole milliseconds from 1 to 10 (many equal event times), in the other half
arbitrary nanosecond values from 0.1 to 20 ms. Every kernel has a stream of its own
and the default (low) priority; the EE queue order is the launch order (ties: file
order). Both tools get the same kernel set through the same converter
(` + "`KernelSet.Scenario`" + ` and ` + "`KernelSet.BlockAnalysisInput`" + `), on the TX2 (2 SMs of
2048 threads). For every kernel the error is analysis − simulation of the completion
time; *optimistic* (analysis earlier than the simulator) is unsafe, *pessimistic* is
safe but loose. Relative errors are taken against the kernel's simulated response
time (completion − launch). 1000 sets per category:

{{CATEGORIES}}
` + "`gpu.BlockRTA`" + ` takes mixed block sizes, shared memory and registers itself: it charges each
block its *effective threads* (the largest of its warp-rounded threads and its
shared-memory, register and block-slot shares of an SM, in threads) and places a block
only when the SMs' total use proves that some SM can hold it. No mapping of the input
was needed.

## Results

{{TABLE}}
## Reading

* Inside the thesis's assumptions (**thesis**) the analysis and the simulator agree
  on every completion time of every set: the "one big SM" of 4096 threads is exact
  because with one block size b dividing 2048 a block fits on the GPU exactly when
  some SM has a free slot of b threads, whichever SM the earlier blocks took. The SM
  placement policy therefore does not matter there. The property test
  ` + "`TestBlockRTAMatchesSimulatorInsideAssumptions`" + ` checks this on 600 further sets.
* One block size that does not divide 2048 (**odd-b**) and launch times other than 0
  (**release**) are exact too: the analysis uses floor(2048 / b) blocks per SM and
  starts each kernel at max(ta, release).
* Mixed block sizes, shared memory and registers make the analysis pessimistic, never
  optimistic, in these sets: it cannot see on which SM the free threads are, so it
  waits until the totals prove a fit, while the GPU often places the block earlier.
  The largest errors are as large as the response itself, or several times larger.
  **tight** aims at the analysis's weak point (few, large, awkward blocks that
  fragment the SMs); an earlier exploratory run of 60,000 such sets found no
  optimistic kernel either.
* Stream priorities are outside the analysis. Ignoring them (**priority**: the
  analysis is run as if every kernel were low priority) is unsafe for the
  low-priority kernels, which high-priority kernels launched later overtake (rule
  A2), and very pessimistic for the high-priority ones. The NULL stream, several
  kernels per stream and copies are not measured here: the converter reports them as
  unsupported (` + "`BlockInput.Unsupported`" + `).
`
