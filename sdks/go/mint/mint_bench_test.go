package mint

import "testing"

// presetBenchIDs bounds the IDs the preset benchmark mints up front; it
// cycles through them rather than holding b.N IDs in memory.
const presetBenchIDs = 1 << 16

// BenchmarkMint measures one ID per op for every strategy; the sub-benchmark
// key lets benchstat compare strategies (-col /strategy).
func BenchmarkMint(b *testing.B) {
	for _, name := range Names {
		b.Run("strategy="+name, func(b *testing.B) {
			m, err := New(name, presetBenchIDs)
			if err != nil {
				b.Fatal(err)
			}
			var id [16]byte
			b.ReportAllocs()
			for b.Loop() {
				m.Mint(id[:])
			}
		})
	}
}
