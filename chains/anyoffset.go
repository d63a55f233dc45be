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
	var davR, davA, duR, hopR, hopA, lowSum int64
	for k := range n - 1 {
		p, c := &ms[k], &ms[k+1]
		d := p.WCRT
		if ordered(p, c) {
			d = p.Jitter
		}
		davR += c.Period + p.WCRT
		davA += p.Period + p.WCRT
		duR += max(p.WCRT, c.Period+d)
		hopR += c.Period + d
		hopA += p.Period + d
		lowSum += p.bestWrite() - readSlack(p, c)
	}
	var sumE, sumL, sumLet int64
	for i := range ms {
		m := &ms[i]
		l := m.letInterval()
		sumE += m.BCET
		sumLet += l
		sumL += m.Period + l
	}
	lo := max(sumE, lowSum+last.bestWrite()-(ms[0].WCRT-ms[0].BCET))
	head := t1 + rm
	if r.AnyOffset.Status == OK {
		r.Analyses[Davare2007] = Values{OK, head + davR - t1, head + davR, rm + davA, lo, lo}
		r.Analyses[Duerr2019] = Values{OK, head + duR - t1, head + duR, rm + hopA, lo, lo}
		r.Analyses[PerHop] = Values{OK, head + hopR - t1, head + hopR, rm + hopA, lo, lo}
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
		r.AnyOffsetLET = Values{OK, sumL - t1, sumL, sumL - tm, sumLet, sumLet}
	}
}
