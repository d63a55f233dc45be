// Package chains computes end-to-end latencies of cause-effect chains of
// periodic tasks: maximum reaction time, reaction latency from activation and
// maximum data age, and lower bounds on the minimum reaction time and data
// age, under implicit communication and under LET, as job-level values at
// given release offsets and as bounds for any offsets (Davare et al., Dürr
// et al., and hop by hop, the least of them taken). Members that share a
// fixed-priority processor have their hops ordered by their priorities
// (Kloda et al.; Dürr et al.). It is a leaf package: its inputs are its own
// small types.
//
// # Model
//
// A chain τ1 → τ2 → … → τm is an ordered list of Members. Member k is a
// periodic task with period Tk > 0 and offset (release phase) Ok ≥ 0: its
// jobs arrive at Ok + j·Tk and are released up to its jitter Jk later; its
// response times (WCRT Rk and the lower bound BCRT) count from the arrival,
// which the rest of this documentation calls the release. BCETk bounds from
// below the time from a job's start to its write, so a job starts (and
// reads) at most Rk − BCETk after its release. Tasks communicate through
// registers: each job reads the newest values of its inputs and overwrites
// its outputs; nothing blocks on missing data. Times are unit-agnostic int64 (the project
// passes picoseconds; the WATERS 2019 hyperperiod 13.2 s = 1.32e13 ps fits
// with room to spare). Every sum, and the LCM of the periods, is checked:
// what would overflow yields Status Overflow, never a wrapped number.
//
// The job-level analysis takes the periodic steady state, i.e. every job
// index j ∈ ℤ: this is what a real system starting at its offsets shows
// after a warm-up long enough that every backward chain is complete, and it
// is periodic in the hyperperiod H = lcm(T1, …, Tm) of the chain. An offset
// O and O mod T therefore give the same values.
//
// When a job reads and writes:
//
//   - Implicit communication (the default of the WATERS 2019 challenge; see
//     Becker et al. below): a job released at r reads its inputs when it
//     starts and writes its outputs when it finishes; known only through
//     bounds, the read is at or after r and the write lies in
//     [r + BCRT, r + WCRT].
//   - LET (logical execution time; Kirsch and Sokolova, "The logical
//     execution time paradigm", Advances in Real-Time Systems, Springer
//     2012): a job reads exactly at r and writes exactly at r + Lk, its LET
//     interval (default Lk = Tk). Values depend on periods, LET intervals
//     and offsets only. A member with WCRT > Lk cannot honour LET and makes
//     the LET values LETOverrun.
//   - A read at the same instant as a write sees the written value.
//
// # Definitions
//
// Following Dürr, von der Brüggen, Chen and Chen, "End-to-end timing
// analysis of sporadic cause-effect chains in distributed systems", ACM TECS
// 18(5s), EMSOFT 2019, and Becker, Dasari, Mubeen, Behnam and Nolte,
// "Synthesizing job-level dependencies for automotive multi-rate effect
// chains", RTCSA 2016, and "End-to-end timing analysis of cause-effect
// chains in automotive embedded systems", J. Systems Architecture 80, 2017:
//
//   - A forward job chain starts at a job of τ1; each hop goes to the first
//     job of τk+1 that reads at or after the write of the current job of τk.
//     Its length is the write of its last job minus the read of its first.
//   - A backward job chain ends at a job of τm; each hop goes back to the
//     last job of τk−1 whose write is at or before the read of the current
//     job. Its length is the same difference.
//   - Reaction latency from activation (ReactionFromActivation): the longest
//     forward job chain, measured from the release of its first job.
//   - Maximum reaction time (MaxReactionTime): ReactionFromActivation + T1,
//     the longest time from an external event to the first output that
//     reflects it (the event arrives just after a read of τ1 and waits up to
//     T1 to be sampled).
//   - Maximum data age (MaxDataAge): the longest backward job chain, from
//     the read of the τ1 job whose data a τm job uses to that τm job's
//     write. (Some authors add the time until the output is overwritten; this
//     package does not.)
//
// # Job-level values (Result.Implicit, Result.LET)
//
// All members are released at their offsets (all zero: synchronous
// release). The values are defined by job enumeration, which stays the
// reference (the tests compare with it) and what WorstChain uses: for every
// job of τ1 released in one hyperperiod, the forward chain is computed hop
// by hop in integer arithmetic: the first job of τk+1 released at or after
// a time t is Ok+1 + ⌈(t − Ok+1)/Tk+1⌉·Tk+1, one division. Likewise, for
// every job of τm in one hyperperiod, the backward chain takes, hop by hop,
// the last job of τk−1 released at or before t − δk−1, a floor division,
// where the hop delay δk−1 is Rk−1 (the LET interval under LET), or the
// producer's jitter on a hop ordered by priority (see "Same-core hops",
// which also changes the forward hop from t = r + Rk to r + δk).
// The maximum over the hyperperiod is the maximum over the whole steady
// state. Analyze and Eval compute the same maxima by the class method below,
// without enumerating the jobs.
//
// Under LET reads and writes are known exactly, so these values are exact.
//
// Under implicit communication the values are sound upper bounds, computed
// with every read at its job's release and every write at release + WCRT
// (on an ordered hop, see "Same-core hops" for the argument):
//
//   - Reaction: the job of τk+1 released at or after the latest write
//     r + Rk reads (at or after its release) after the actual write, so the
//     actual next job is that one or an earlier one; next-job choice is
//     monotone in time, so by induction the actual last write is at most the
//     bound's, and the actual chain cannot start before the release of τ1's
//     job. Hence actual length ≤ bound.
//   - Data age: a job of τk+1 released at t reads at or after t, and every
//     job of τk released at r′ ≤ t − Rk has written by r′ + Rk ≤ t. The job
//     whose value is read is therefore the last job guaranteed to have
//     written by the earliest possible read, or a later one. Taking that
//     guaranteed job (which is monotone in t) at every hop gives a first job
//     of τ1 no later than the actual one; with the last write at
//     rm + Rm, the bound is ≥ the actual length. This is the
//     read-at-release / write-at-WCRT reasoning of Becker et al. (2016,
//     2017), without their best-case refinements.
//
// The best cases cannot tighten either upper bound: an earlier write only
// lets an earlier job read the data (shorter reaction) and only lets a later
// job be read (younger data). Jobs of one task are assumed to read and write
// in release order (true for fixed-priority scheduling with FIFO order
// within a task).
//
// Each hop's wait is below the next period (reaction) or the previous period
// (data age), so the job-level implicit values never exceed the bounds for
// any offsets below; the tests check this as a property.
//
// # Same-core hops
//
// Kloda, Bertout and Sorel, "Latency analysis for data chains of real-time
// periodic tasks", ETFA 2018, observed that on one processor the priority
// order decides a hop better than the response time: when producer and
// consumer run on the same processor, scheduled by preemptive fixed
// priorities, the producer of higher priority, a job of the consumer
// released at or after the release of a producer's job cannot start before
// that job has finished, so it reads the value written. Dürr et al. (below)
// use the same observation for one ECU. This package applies it to the hop
// τk → τk+1 (the hop is then "ordered") when:
//
//   - both members give the same Unit ≠ 0, which the caller sets only for a
//     processor scheduled by preemptive fixed priorities where the member
//     reads when it starts and writes when it finishes (implicit
//     communication; a member that communicates under LET gets no unit);
//   - the producer's Rank is lower (more urgent) than the consumer's: equal
//     ranks order nothing;
//   - the producer does not suspend itself between its read and its write
//     (Suspends false): a job that waits passively, for the GPU for
//     instance, lets lower-priority jobs of its processor start, and read,
//     before it writes.
//
// Why it is sound, with release jitter: let the producer's job arrive at
// a, be released at a′ ∈ [a, a + Jk] and write at f, and let a consumer's
// job arrive at v ≥ a + Jk. It is released at v′ ≥ v ≥ a′ and starts at
// some s ≥ v′. At s no job of higher priority released at or before s is
// pending on the processor (preemptive fixed priorities), and the
// producer's job is of higher priority, released at a′ ≤ s, and never
// suspended: it has finished, so f ≤ s and the consumer reads its value (or
// a newer one). Hence the hop's delay δk — the time after a producer's
// release from which every consumer job released reads its value — is Jk
// on an ordered hop instead of Rk: the forward hop from τk's job at r goes
// to the first job of τk+1 released at or after r + δk, and the backward
// hop from τk+1's job at r to the last job of τk released at or before
// r − δk (a producer's job released at or before r − Jk has written
// before the read, and a later one can only make the data younger). With
// Jk ≤ Rk the rule never raises a value. Under LET reads and writes are
// fixed instants and no hop is ordered.
//
// A consumer of higher priority on the producer's processor gets no
// refinement of its upper bound (it preempts the producer and reads before
// the write, the usual rule); it tightens the minima (below). The tests:
// TestSameCoreHand works both orders, equal, harmonic and non-harmonic
// periods, jitter and suspension by hand; TestPropertySchedule checks the
// bounds against simulated schedules, and TestPropertyScheduleRefutes
// shows that the same simulations refute the rule applied with the
// priorities reversed, with suspensions ignored or with jitter ignored.
//
// # Minima
//
// MinReactionTime bounds from below the shortest time from an external
// event to the first output reflecting it, the event arriving just before
// a read of τ1: the shortest forward job chain, from its first job's read
// to its last job's write. MinDataAge bounds from below the shortest
// backward job chain, measured the same way. Both come from a lower model
// of the jobs, with Bk = max(BCRTk, BCETk) (a job writes at least Bk after
// its release) and ρk = Rk − BCETk (a job reads at most ρk after its
// release; a consumer of higher priority than its producer on the
// producer's processor reads the producer's value only when released after
// the write, that is by its jitter: ρk+1 = min(ρk+1, Jk+1)).
//
//   - Hop delay δk = Bk − ρk+1: the job of τk+1 that reads the value of
//     τk's job released at r reads after r + Bk, so it is released at or
//     after r + Bk − ρk+1; and a job of τk+1 released at t reads the value
//     of a job of τk whose write, at or after its release + Bk, came by
//     t + ρk+1: one released at or before t − δk. Both hops are monotone,
//     so by induction the lower model's job chain from a job is never later
//     (forward) or earlier (backward) than the real one, and its last job
//     writes no later than the real one's last write after Bm.
//   - Let M be the shortest job chain of the lower model, from the release
//     of its first job to its last job's release + Bm. The real chain's
//     first job reads at most ρ1 after its release, so both minima are at
//     least M − ρ1. The class method's argument (below), with "latest"
//     for "earliest", gives M as the minimum over the jobs u of a member of
//     (u − last(u)) + (end(u) − u), where last(u), the latest job of τ1
//     whose forward chain reaches u or earlier, is the backward walk from
//     u, and end(u) is the forward walk. The backward chains give the same
//     two walks (the earliest job of τm whose backward chain reaches u or
//     later is the forward walk from u), so the shortest forward and
//     backward job chains of the lower model are equal, and so are the two
//     minima.
//   - Also every job writes at least BCETk after it reads, and reads after
//     its producer wrote: every job chain is at least Σ BCETk long. The
//     minima are max(M − ρ1, Σ BCETk).
//
// Under LET the model is exact (Bk = ρ… = the LET interval and 0), and so
// are the LET minima. For any offsets each hop of the lower model delays by
// at least δk, so the minima for any offsets are max(Σ δk + Bm − ρ1,
// Σ BCETk), and Σ Lk under LET. TestMinimaHand works examples by hand;
// the class method is checked against enumeration of both directions, and
// TestPropertySimulation and TestPropertySchedule against simulations.
// With response times that no schedule can show together (a consumer of
// lower priority whose WCRT leaves no room for its producer's BCET), a
// minimum can come out above a maximum; the bounds of one analysed system
// never do.
//
// Cost of job enumeration: (H/T1 + H/Tm)·m hops per paradigm, one integer
// division each, no allocation; memory O(1). For the WATERS 2019 periods
// (5, 10, 15, 33, 66, 100, 200, 400 ms) the longest chain Lidar_Grabber →
// Localization → EKF → Planner → DASM has H = 13.2 s, 400 Lidar jobs and
// 2640 DASM jobs: 15 200 hops per paradigm. Options.MaxJobs (default
// DefaultMaxJobs) caps H/T1 and H/Tm; above it the job-level values get
// TooManyJobs, also where the class method would not need the jobs, so
// that Analyze, Eval and WorstChain agree.
//
// # The class method
//
// Write δk for the hop delay of τk (package "Same-core hops" and "Minima":
// WCRT, the jitter on an ordered hop, the LET interval, or the lower
// model's) and Rm for the last member's time from release to write, and
// split the chain at a member τk. For a job u of τk (its release time):
//
//   - Reaction. first(u) is the earliest job of τ1 whose forward job chain
//     reaches τk at u or later, end(u) the write of the last job of the
//     forward job chain from u, and the candidate of u is end(u) − first(u).
//     Every forward job chain r → … → u → … has length end(u) − r ≤ the
//     candidate, since first(u) ≤ r. Conversely the chain from first(u)
//     reaches τk at some u′ ≥ u, and end is non-decreasing, so its length
//     end(u′) − first(u) is at least the candidate. The longest forward job
//     chain is therefore the maximum of the candidates over all jobs of τk,
//     those that no chain passes through included. first(u) is a walk back:
//     the forward hop from τi's job at r reaches τi+1 at v or later exactly
//     when r + δi > v − Ti+1 (the previous job of τi+1), so the earliest such
//     job is the first released at or after v − Ti+1 − δi + 1; as every hop
//     is non-decreasing, composing these steps from u back to τ1 gives
//     first(u).
//   - Data age, mirrored. start(u) is the first job of the backward job
//     chain from u, last(u) the latest job of τm whose backward job chain
//     reaches τk at u or earlier (the backward hop from v reaches τi at x or
//     earlier exactly when v − δi < x + Ti, so the latest such job of τi+1
//     is the last released at or before x + Ti + δi − 1), and the candidate
//     is last(u) + Rm − start(u). The same two inequalities make the maximum
//     data age the maximum of the candidates.
//   - The shortest job chain (Minima) is the minimum of the candidates
//     u − last(u) + end(u) − u, the sides the two walks of "Minima".
//
// The prefix part of a candidate (u − first(u), u − start(u)) involves only
// τ1..τk, so it is the same for u and u + lcm(T1..Tk): it depends on τk's
// job index j mod p = lcm(T1..Tk)/Tk. The suffix part (end(u) − u,
// last(u) + Rm − u) depends on j mod s = lcm(Tk..Tm)/Tk. By the Chinese
// remainder theorem an index with j ≡ a (mod p) and j ≡ b (mod s) exists
// exactly when a ≡ b (mod g), g = gcd(p, s). So the maximum is, over the
// residues ρ mod g, the largest sum of the prefix part's maximum over the
// indices ≡ ρ (mod g) and the suffix part's: p + s walks instead of H/T1 or
// H/Tm.
//
// A side of one hop has a closed form. Over the indices ≡ ρ (mod g) the
// jobs of τk are u0 + i·g·Tk (u0 = Ok + ρ·Tk, i ∈ ℤ), and a one-hop side is
// a constant plus or minus (±u + c) mod T for its neighbour's period T.
// Those residues are exactly the numbers in [0, T) congruent to ±u0 + c
// modulo G = gcd(g·Tk, T), so the smallest is (±u0 + c) mod G and the
// largest that + T − G. For example, split at τ2, the prefix part of the
// reaction is u − (u − c + (O1 − u + c) mod T1) with c = T2 + R1 − 1, whose
// maximum over the class is c − (O1 − u0 + c) mod G. G = gcd(T1, T2)·g needs
// no division of its own: g divides p = T1/gcd(T1, T2).
//
// Choice of the split. Splitting at τ1 (reaction) or τm (data age) is job
// enumeration; every member costs min(p, s) residues, plus p walks of k−1
// hops when the prefix has two hops or more, plus s walks of m−k hops when
// the suffix has. Both counts are known from the periods, and Analyze and
// Eval take the member with the fewest. Planning takes the m−1 LCMs of the
// hyperperiod from τm back, which give every s, and the prefix LCMs only
// as far as a member can still have fewer steps (a lower bound needs only a
// multiplication); chains of more than 16 members choose between the two
// ends. On WATERS every chain splits at its second member: Lidar_Grabber →
// Localization → EKF → Planner → DASM at Localization with p =
// lcm(33, 400)/400 = 33, s = lcm(400, 15, 15, 5)/400 = 3 and g = 3, a
// closed form and one suffix walk of three hops per residue: 12 steps per
// metric against 15 200 hops per paradigm; the three-member chains need one
// closed form per side. On other chains the plain walk can be cheaper
// (periods 10, 3, 10: three walks over τ1's jobs against ten residues), and
// is chosen. Measured on one core of a shared x86 server (CPU time per call
// of BenchmarkWATERSEval and BenchmarkWATERSChains): the job-level
// objective of all eight WATERS chains about 0.45 µs, against about 6.5 µs
// by job enumeration; every value of all eight (Analyze) about 0.9 µs,
// against about 80 µs (before the minima, which add two class
// computations to the four). What remains is mostly the divisions of the
// hyperperiod's LCMs, which the statuses need anyway. Counted in
// instructions per call of all eight (valgrind --tool=callgrind, which
// does not depend on the machine's load): the job-level objective
// (BenchmarkWATERSEval) 10.6 k, the bound for any offsets
// (BenchmarkWATERSEvalAnyOffsets: no plan, one pass over the members)
// 7.5 k, every value with the minima (BenchmarkWATERSChains) 31.7 k, the
// worst data-age job chains (BenchmarkWorstChain) 127 k.
//
// Checked: TestPropertyClassesEqualEnumeration compares the class method at
// the chosen split and at every other member, Analyze and Eval with job
// enumeration on 10 000 random chains (harmonic and not, zero and random
// offsets, 1 to 6 members, both paradigms); TestClosedFormsHand has the
// closed forms worked by hand; TestPropertySimulation compares Analyze with
// an independent simulation of the jobs.
//
// # Bounds for any offsets (Result.AnyOffset, Result.Analyses)
//
// These bounds hold whatever the release offsets are (each hop's wait is
// bounded without them). Each term below is at most the corresponding
// term of Davare's sum, so all of them fit when it does. Three analyses
// apply to this package's model (periodic tasks with release jitter,
// implicit communication, response-time bounds, hops ordered as in
// "Same-core hops"); with δk the hop delay of the upper model (Rk, or Jk on
// an ordered hop):
//
//   - Davare, Zhu, Di Natale, Pinello, Kanajan and Sangiovanni-Vincentelli,
//     "Period optimization for hard real-time distributed automotive
//     systems", DAC 2007: the maximum reaction time is at most
//     Σk (Tk + Rk), for any offsets, on any processors (each job of τk+1
//     waits less than Tk+1 after the write at most Rk after its producer's
//     release). The same per-hop argument gives the reaction from
//     activation Σ (Tk + Rk) − T1 and the data age Σ (Tk + Rk) − Tm (each
//     hop back waits less than the producer's period).
//   - Dürr, von der Brüggen, Chen and Chen, "End-to-end timing analysis of
//     sporadic cause-effect chains in distributed systems", ACM TECS
//     18(5s), EMSOFT 2019, for periodic tasks, with the one-ECU refinement
//     of ordered hops: reaction time T1 + Rm + Σ hops max(Rk, Tk+1 + δk),
//     data age Rm + Σ hops (Tk + δk) (as the authors' public evaluation
//     code computes them; δk = 0 on their one-processor hops without
//     jitter, Rk otherwise, where both equal Davare's terms; this package
//     adds the producer's jitter, which their periodic model does not
//     have, by the argument of "Same-core hops").
//   - Per hop (this package): every hop bounded alone, a forward hop by
//     Tk+1 + δk (the first job of τk+1 released at or after r + δk comes
//     less than Tk+1 later) and a backward one by Tk + δk: reaction time
//     T1 + Rm + Σ hops (Tk+1 + δk), data age Rm + Σ hops (Tk + δk). It is
//     never above Dürr's (Tk+1 + δk ≤ max(Rk, Tk+1 + δk)) and below it when
//     an ordered producer's response exceeds its consumer's period.
//
// Result.Analyses holds the three; Result.AnyOffset takes, per metric (the
// two reaction metrics together, the data age alone), the least, and
// ReactionBy and DataAgeBy name the analysis that gives it, the first in
// the order above among equal values: Davare's on a chain without an
// ordered hop. Under LET every hop's delay is the LET interval and all
// three are Σ (Tk + Lk) (Result.AnyOffsetLET). The minima for any offsets
// are those of "Minima". All these values are what Bound AnyOffsets
// selects; Bound Davare selects Davare's alone.
//
// # Status
//
// A member that is Unbounded, has WCRT > Deadline (default: its period) or
// has invalid parameters gives the whole chain no latency: Result.Status
// says which (MemberUnbounded, MemberUnschedulable, InvalidInput), Member
// names the member, Reason explains, and every value is 0 with that Status.
// LETOverrun affects only the LET values; Overflow and TooManyJobs of the
// job-level enumeration leave the values for any offsets valid. Each
// Values carries its own Status; Objective.Value returns the one it used.
//
// # Use
//
// Analyze computes everything: allocation-free, by the class method.
// Objective (zero value: implicit, maximum reaction time, at the
// offsets) selects the number an optimizer minimises; Objective.Value reads
// it from a Result, and Eval computes only it (one paradigm, one direction,
// or the sums for any offsets), for an optimizer's inner loop. WorstChain
// returns the worst job chain of one metric split into hops, for reports,
// in a caller-provided buffer.
package chains
