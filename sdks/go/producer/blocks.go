package producer

// splitMix64 is the generator behind the block order of paired mode
// (sdks/README.md, "Paired mode"), the same in every language.
type splitMix64 struct{ state uint64 }

func (g *splitMix64) next() uint64 {
	g.state += 0x9E3779B97F4A7C15
	z := g.state
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// blockOrder deals, block after block, the arms 0..arms-1 in that block's
// order: a Fisher-Yates shuffle driven by splitMix64 seeded with SEED.
type blockOrder struct {
	rng   splitMix64
	order []int
}

func newBlockOrder(seed uint64, arms int) *blockOrder {
	return &blockOrder{rng: splitMix64{state: seed}, order: make([]int, arms)}
}

// next returns the next block's order, valid until the following call.
func (b *blockOrder) next() []int {
	for i := range b.order {
		b.order[i] = i
	}
	for i := len(b.order) - 1; i >= 1; i-- {
		j := int(b.rng.next() % uint64(i+1))
		b.order[i], b.order[j] = b.order[j], b.order[i]
	}
	return b.order
}
