package producer

import (
	"slices"
	"strconv"
	"testing"

	"mintbench/sdks/go/internal/vectors"
)

func TestSplitMix64MatchesThePublishedReference(t *testing.T) {
	// The first outputs for seed 1234567 of the reference C code.
	g := splitMix64{state: 1234567}
	for _, want := range []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423} {
		if got := g.next(); got != want {
			t.Fatalf("next() = %d, want %d", got, want)
		}
	}
}

func TestBlockOrdersMatchTheVectors(t *testing.T) {
	v := vectors.Load(t)
	if len(v.BlockOrders) == 0 {
		t.Fatal("no block_orders in the vectors")
	}
	for _, c := range v.BlockOrders {
		seed, err := strconv.ParseUint(c.Seed, 10, 64)
		if err != nil {
			t.Fatalf("seed %q: %v", c.Seed, err)
		}
		order := newBlockOrder(seed, c.Arms)
		for b, want := range c.Blocks {
			if got := order.next(); !slices.Equal(got, want) {
				t.Errorf("seed %s, %d arms, block %d: %v, want %v", c.Seed, c.Arms, b, got, want)
			}
		}
	}
}

func TestOneArmIsAlwaysFirst(t *testing.T) {
	order := newBlockOrder(7, 1)
	for range 3 {
		if got := order.next(); !slices.Equal(got, []int{0}) {
			t.Fatalf("one arm: order %v", got)
		}
	}
}
