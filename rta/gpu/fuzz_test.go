package gpu

import (
	"encoding/binary"
	"slices"
	"testing"
)

// decodeKernels turns fuzz bytes into a device and up to 8 kernels, 8 bytes
// each: block time (2), blocks (2), threads (2), release (1), flags (1).
// Flags scale values up (to reach the overflow checks and the steady-state
// skip) and add shared memory.
func decodeKernels(devSel uint8, data []byte) (Device, []Kernel) {
	devs := []Device{bigSM, TX2(), {SMs: 3, ThreadsPerSM: 1536, WarpSize: 32, MaxBlocksPerSM: 16}, {SMs: 1, ThreadsPerSM: 1024}}
	dev := devs[int(devSel)%len(devs)]
	var ks []Kernel
	for len(data) >= 8 && len(ks) < 8 {
		c := int64(int16(binary.LittleEndian.Uint16(data[0:])))
		g := int(int16(binary.LittleEndian.Uint16(data[2:])))
		b := int(int16(binary.LittleEndian.Uint16(data[4:])))
		r := int64(data[6])
		fl := data[7]
		if fl&1 != 0 {
			c <<= 40
		}
		if fl&2 != 0 {
			g <<= 20
		}
		if fl&4 != 0 {
			r <<= 50
		}
		k := Kernel{BlockTime: c, Blocks: g, ThreadsPerBlock: b, Release: r}
		if fl&8 != 0 {
			k.SharedMemPerBlock = int(fl) << 8
		}
		ks = append(ks, k)
		data = data[8:]
	}
	return dev, ks
}

func FuzzBlockRTA(f *testing.F) {
	enc := func(ks []Kernel) []byte {
		var b []byte
		for _, k := range ks {
			b = binary.LittleEndian.AppendUint16(b, uint16(k.BlockTime))
			b = binary.LittleEndian.AppendUint16(b, uint16(k.Blocks))
			b = binary.LittleEndian.AppendUint16(b, uint16(k.ThreadsPerBlock))
			b = append(b, byte(k.Release), 0)
		}
		return b
	}
	f.Add(uint8(0), enc(thesisExample()))
	f.Add(uint8(1), enc(benchKernels()))
	f.Add(uint8(2), enc([]Kernel{{BlockTime: 0, Blocks: 1, ThreadsPerBlock: 256}}))
	f.Add(uint8(1), []byte{1, 0, 255, 127, 32, 0, 0, 3, 7, 0, 9, 0, 0, 4, 5, 9})
	f.Fuzz(func(t *testing.T, devSel uint8, data []byte) {
		dev, ks := decodeKernels(devSel, data)
		fs, err := BlockRTA(dev, ks)
		if err != nil {
			return // rejected input: the error path must not panic
		}
		var serial, maxRel int64
		uniform := true
		for i, k := range ks {
			maxRel = max(maxRel, k.Release)
			serial += int64(k.Blocks) * k.BlockTime
			if fs[i] < k.Release+k.BlockTime {
				t.Fatalf("%+v: f[%d] = %d < release + C", ks, i, fs[i])
			}
			iso := k.Release + ceilDiv(int64(k.Blocks), int64(dev.Slots(k)))*k.BlockTime
			if fs[i] < iso {
				t.Fatalf("%+v: f[%d] = %d < isolated %d", ks, i, fs[i], iso)
			}
			if fs[i] > maxRel+serial {
				t.Fatalf("%+v: f[%d] = %d > serial bound", ks, i, fs[i])
			}
			uniform = uniform && dev.EffectiveThreads(k) == dev.EffectiveThreads(ks[0])
		}
		// BlockRTA is exact when every kernel has the same geometry and the
		// effective size does not round the residency down.
		exact := uniform
		for _, k := range ks {
			exact = exact && k.ThreadsPerBlock == ks[0].ThreadsPerBlock &&
				k.SharedMemPerBlock == ks[0].SharedMemPerBlock && k.RegistersPerBlock == ks[0].RegistersPerBlock &&
				dev.Slots(k) == dev.SMs*realPerSM(dev, k)
		}
		// closed form agreement
		sameC := true
		for _, k := range ks {
			sameC = sameC && k.BlockTime == ks[0].BlockTime && k.Release == ks[0].Release
		}
		if uniform && sameC && len(ks) > 0 {
			cf, err := EqualBlockTimeRTA(dev, ks)
			if err != nil || !slices.Equal(cf, fs) {
				t.Fatalf("%+v: closed form %v %v, BlockRTA %v", ks, cf, err, fs)
			}
		}
		// simulation, for small inputs with releases in queue order
		small := slices.IsSortedFunc(ks, func(a, b Kernel) int { return int(a.Release - b.Release) })
		var blocks int64
		for _, k := range ks {
			blocks += int64(k.Blocks)
			small = small && k.BlockTime < 1<<20 && k.Release < 1<<20
		}
		if small && blocks <= 3000 {
			for p := range numPolicies {
				if p == randomFit {
					continue
				}
				sim := simKernels(dev, ks, p, nil, nil)
				for i := range sim {
					if sim[i] > fs[i] || (exact && sim[i] != fs[i]) {
						t.Fatalf("%+v policy %d: sim %v, BlockRTA %v (exact %v)", ks, p, sim, fs, exact)
					}
				}
			}
		}
	})
}

// realPerSM is how many blocks of k fit on one idle SM, resource by resource.
func realPerSM(dev Device, k Kernel) int {
	c := simConfig{dev: dev}
	nd := c.need(&Task{ThreadsPerBlock: k.ThreadsPerBlock, SharedMemPerBlock: k.SharedMemPerBlock, RegistersPerBlock: k.RegistersPerBlock})
	var sm simSM
	n := 0
	for c.fits(&sm, nd) {
		sm.threads += nd.threads
		sm.blocks++
		sm.smem += nd.smem
		sm.regs += nd.regs
		n++
	}
	return n
}
