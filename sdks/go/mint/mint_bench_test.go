package mint

import (
	"slices"
	"testing"
)

// presetBenchIDs bounds the IDs the preset benchmark mints up front; it
// cycles through them rather than holding b.N IDs in memory.
const presetBenchIDs = 1 << 16

// BenchmarkMint measures one ID per op for every strategy; the sub-benchmark
// key lets benchstat compare strategies (-col /strategy).
func BenchmarkMint(b *testing.B) {
	for _, name := range slices.Concat(Names, Alternates) {
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

// BenchmarkTake measures the faithful send path's call: a batch's IDs at
// once, reported per ID.
func BenchmarkTake(b *testing.B) {
	const batch = 1000
	for _, name := range []string{"fast", "counter", "chacha8pool"} {
		b.Run("strategy="+name, func(b *testing.B) {
			m, _ := New(name, 0)
			pool := m.(*Pool)
			b.ReportAllocs()
			for b.Loop() {
				pool.Take(batch)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/ID")
		})
	}
}
