package chains

// anyOffsets fills the values of r for any offsets whose Status is OK (the
// chain validated, its sums known to fit): the three analyses under
// implicit communication, the least of them per metric and the LET bound,
// each with the minima for any offsets (package doc, "Bounds for any
// offsets"). One pass over the members, no allocation.
func anyOffsets(ms []Member, r *Result) {
	if r.AnyOffset.Status != OK && r.AnyOffsetLET.Status != OK {
		return // not validated
	}
	n := len(ms)
	last := &ms[n-1]
	t1, tm, rm := ms[0].Period, last.Period, last.WCRT
	// The sums, hop by hop: for the hop k → k+1 with δ = upper.hop,
	//   Davare:  reaction Tk+1 + Rk,            data age Tk + Rk;
	//   Dürr:    reaction max(Rk, Tk+1 + δ),     data age Tk + δ;
	//   per hop: reaction Tk+1 + δ,             data age Tk + δ;
	// each plus T1 + Rm (reaction) or Rm (data age). The minima: Σ BCET,
	// and the lower model's hop delays with the last member's earliest
	// write, less the first member's read slack.
	var davR, davA, duR, hopR, hopA, sumE, lowSum, sumL int64
	for k := range n - 1 {
		p, c := &ms[k], &ms[k+1]
		d := upper.hop(ms, k)
		davR += c.Period + p.WCRT
		davA += p.Period + p.WCRT
		duR += max(p.WCRT, c.Period+d)
		hopR += c.Period + d
		hopA += p.Period + d
		lowSum += lower.hop(ms, k)
	}
	for i := range ms {
		sumE += ms[i].BCET
		sumL += ms[i].Period + ms[i].letInterval()
	}
	lo := max(sumE, lowSum+lower.end(last)-(ms[0].WCRT-ms[0].BCET))
	set := func(v *Values, reaction, age int64) {
		if v.Status == OK {
			*v = Values{OK, reaction - t1, reaction, age, lo, lo}
		}
	}
	head := t1 + rm
	set(&r.Analyses[Davare2007], head+davR, rm+davA)
	set(&r.Analyses[Duerr2019], head+duR, rm+hopA)
	set(&r.Analyses[PerHop], head+hopR, rm+hopA)
	if r.AnyOffset.Status == OK {
		r.ReactionBy, r.DataAgeBy = Davare2007, Davare2007
		for a := Duerr2019; a < NumAnalyses; a++ {
			if r.Analyses[a].MaxReactionTime < r.Analyses[r.ReactionBy].MaxReactionTime {
				r.ReactionBy = a
			}
			if r.Analyses[a].MaxDataAge < r.Analyses[r.DataAgeBy].MaxDataAge {
				r.DataAgeBy = a
			}
		}
		by, age := &r.Analyses[r.ReactionBy], &r.Analyses[r.DataAgeBy]
		r.AnyOffset = Values{OK, by.ReactionFromActivation, by.MaxReactionTime, age.MaxDataAge, lo, lo}
	}
	if r.AnyOffsetLET.Status == OK {
		var sumLet int64
		for i := range ms {
			sumLet += ms[i].letInterval()
		}
		r.AnyOffsetLET = Values{OK, sumL - t1, sumL, sumL - tm, sumLet, sumLet}
	}
}
