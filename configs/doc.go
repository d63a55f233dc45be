// Package configs owns hetmap's description of a system: the platform
// (processing units, the memory-contention model of the WATERS 2019
// challenge, the GPU's block resources), the software (labels, runnables
// with ticks per unit kind, periodic tasks, GPU tasks and the tasks that
// offload them), the model's own mapping and the cause-effect chains.
//
// A system is read from an Amalthea model (ReadAmalthea, our own
// encoding/xml structs for APP4MC 0.9.x and 1.x) or from a YAML
// configuration (Load, LoadFile; viper with strict decoding, so an unknown
// key or a wrong type is an error that names the key path). The WATERS 2019
// model is built in (Default): configs/waters2019.yaml was generated once by
// the importer from the official ChallengeModel_release_fix.amxmi and
// completed with the challenge's eight chains.
//
// Assumptions and conventions (../shared/spec/waters2019.md):
//
//   - Times are integers: Duration counts picoseconds, so the ticks of a
//     2 GHz or 1.5 GHz unit convert exactly or nearly so. Sizes are bytes;
//     Amalthea's kB is 1000 bytes and KiB 1024, as APP4MC defines them.
//   - A runnable reads its labels, computes, then writes (the
//     read/execute/write semantic); a runnable without ticks is a copy.
//   - A GPU task is activated by the InterProcessTrigger of its offloading
//     task and inherits that task's period and deadline. Runnables after the
//     WaitEvent and before the ClearEvent of a passive wait run only when the
//     task waits passively (WATERS: AsyncOffloadingCosts).
//   - Deadlines equal periods by default (Conventions.Deadlines = "period");
//     "model" uses the file's requirements, with swapped references
//     corrected.
//   - The model's mapping is resolved by conventions, each reported as a
//     Warning: a two-core affinity takes the first core; an affinity to a
//     core its scheduler does not own wins over the scheduler; equal
//     priorities are reported (priorities are assigned by Audsley's OPA by
//     default); a GPU task allocated to a core is merged with its offloading
//     task.
//   - What Amalthea does not carry (the contention parameters K and sGPU,
//     the copy-engine model, the GPU's per-SM thread, shared-memory and
//     register limits) is taken from the challenge text and the TX2 facts of
//     gpu-scheduling.md, and said so in a warning.
//
// Bad input is an *InputError that names the file, the element or key,
// and what is wrong; it never panics and never yields a partial system.
package configs
