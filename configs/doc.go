// Package configs owns hetmap's description of a system: the platform
// (processing units, the memory-contention model of the WATERS 2019
// challenge, the GPU's block resources), the software (labels, runnables
// with ticks per unit kind, periodic tasks, tasks activated by other tasks,
// GPU tasks and the tasks that offload them), the model's own mapping, the
// cause-effect chains and their latency requirements.
//
// A system is read from an Amalthea model (LoadModel, or LoadFile of an
// .amxmi file or a folder: one or more .amxmi files, one model as APP4MC
// loads a folder; configs/amalthea reads it, see RegisterModelReader) or
// from a YAML configuration (Load, LoadFile; viper with strict decoding,
// so an unknown key or a wrong type is an error that names the key path).
// The WATERS 2019 model is built in (Default): configs/waters2019.yaml was
// generated once by the importer from the official
// ChallengeModel_release_fix.amxmi and completed with the challenge's eight
// chains. configs/amalthea's Export writes a mapping back into the
// Amalthea model.
//
// Assumptions and conventions. The facts are those of the WATERS 2019
// Industrial Challenge (Hamann et al., "WATERS Industrial Challenge 2019")
// and its model; where the model is silent or inconsistent, the choices
// below are hetmap's:
//
//   - Times are integers: Duration counts picoseconds, so the ticks of a
//     2 GHz or 1.5 GHz unit convert exactly or nearly so. Sizes are bytes;
//     Amalthea's kB is 1000 bytes and KiB 1024, as APP4MC defines them; a
//     size in bits is rounded up to whole bytes, which keeps the number of
//     memory lines exact.
//   - A runnable reads its labels, computes, then writes (the
//     read/execute/write semantic); a runnable without ticks is a copy.
//   - A GPU task is activated by the InterProcessTrigger of its offloading
//     task, followed by a WaitEvent, and inherits that task's period and
//     deadline. Runnables after the WaitEvent and before the ClearEvent
//     run only when the task waits passively (WATERS: AsyncOffloadingCosts).
//   - A task activated by an InterProcessTrigger that no WaitEvent follows
//     is an event-triggered CPU task (Task.ActivatedBy): it inherits its
//     activator's period (times the prescalers of the counters) and offset
//     and is released within the activator's response time (the evaluator
//     adds it to the release jitter).
//   - Deadlines equal periods by default (Conventions.Deadlines = "period");
//     "model" uses the file's requirements, with swapped references
//     corrected.
//   - The model's mapping is resolved by conventions, each reported as a
//     Warning: a two-core affinity takes the first core; an affinity to a
//     core its scheduler does not own wins over the scheduler; a core whose
//     tasks all have a priority, not all the same, keeps them under
//     --mapping default (System.OwnMapping), and a core whose priorities
//     are incomplete or all equal is reported and gets derived ones; a GPU
//     task allocated to a core is merged with its offloading task.
//   - The model's priorities are read by Conventions.Priorities: "model"
//     (default: Amalthea's convention, a higher value is more urgent),
//     "model-lower-first" (a lower value is more urgent, as pyCPA reads a
//     model; hetmap's priority is the value negated, Config.ModelMapping)
//     or "derived" (ignored). System.Mapping keeps the values as the model
//     gives them.
//   - What Amalthea does not carry (the contention parameters K and sGPU,
//     the copy-engine model, the GPU's per-SM thread, shared-memory and
//     register limits) is taken from the challenge text and the TX2 facts of
//     Amert et al., "GPU Scheduling on the NVIDIA TX2: Hidden Details
//     Revealed", RTSS 2017, and said so in a warning.
//   - A chain latency requirement (Chain.Max; Amalthea's
//     EventChainLatencyConstraint and ProcessChainRequirement; YAML
//     chains[].max) is a constraint: a mapping that misses one is
//     infeasible. It is checked by default under the least of the bounds
//     valid for any release offsets (BoundAnyOffset); the
//     synchronous-release value is tighter but holds only while every task
//     is released at its model offset (package chains, "Job-level values"),
//     so it is an option, as Davare's bound alone is (the requirement's
//     bound, or analysis.requirement_bound; ChainRequirement.CheckedUnder).
//
// Bad input is an *InputError that names the file, the line, the element
// or key, and what is wrong, in one line; it never panics and never yields
// a partial system. Every sum of an import is checked (sums.go): a sum of
// ticks in a runnable's or a task's graph beyond what an int64 counts is
// refused at the element where it passes; a period, offset or jitter, or a
// task's compute, memory or contention term (a GPU task's kernel or copy
// term) on a unit it can run on, or their sum, beyond MaxTime (2^60 ps,
// about 13 days, the analyses' bound) is refused naming the task, the
// unit, the term and the sum, from YAML as from Amalthea.
//
// The Amalthea reader and writer are package configs/amalthea, with the
// table of what they read of each metamodel.
package configs
