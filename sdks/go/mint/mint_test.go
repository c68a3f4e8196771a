package mint

import (
	"strings"
	"testing"
)

func mintMany(t *testing.T, m Minter, n int) [][16]byte {
	t.Helper()
	ids := make([][16]byte, n)
	for i := range ids {
		m.Mint(ids[i][:])
	}
	return ids
}

func TestEveryStrategyMintsDistinctNonZeroIDs(t *testing.T) {
	const n = 10000
	for _, name := range Names {
		m, err := New(name, n)
		if err != nil {
			t.Fatalf("New(%q): %v", name, err)
		}
		seen := make(map[[16]byte]bool, n)
		for _, id := range mintMany(t, m, n) {
			if id == ([16]byte{}) || seen[id] {
				t.Fatalf("%s minted a zero or repeated id %x", name, id)
			}
			seen[id] = true
		}
	}
}

func TestMintWritesOnlyItsSixteenBytes(t *testing.T) {
	for _, name := range Names {
		m, _ := New(name, 1)
		buf := []byte(strings.Repeat("\xee", 20))
		m.Mint(buf[2:])
		if buf[0] != 0xee || buf[1] != 0xee || buf[18] != 0xee || buf[19] != 0xee {
			t.Errorf("%s wrote outside its 16 bytes: %x", name, buf)
		}
	}
}

// The uuid strategies must send google/uuid's bytes as they are, as the
// Iggy Go SDK does: version 4 in byte 6, RFC 4122 variant in byte 8.
func TestUUIDStrategiesKeepTheUUIDLayout(t *testing.T) {
	for _, name := range []string{"uuid", "uuidpool"} {
		m, _ := New(name, 0)
		for _, id := range mintMany(t, m, 100) {
			if id[6]>>4 != 4 || id[8]>>6 != 2 {
				t.Fatalf("%s id %x is not a version-4 UUID", name, id)
			}
		}
	}
}

func TestFastProducersAreSeededApart(t *testing.T) {
	a, b := mintMany(t, NewFast(), 1), mintMany(t, NewFast(), 1)
	if a[0] == b[0] {
		t.Fatalf("two Fast minters started with the same id %x", a[0])
	}
}

func TestPresetHandsOutItsIDsInOrderAndStartsOver(t *testing.T) {
	ids := [][16]byte{{1}, {2}, {3}}
	got := mintMany(t, NewPresetOf(ids), 4)
	want := [][16]byte{{1}, {2}, {3}, {1}}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("id %d = %x, want %x", i, got[i], want[i])
		}
	}
}

func TestUnknownStrategyNamesTheKnownOnes(t *testing.T) {
	_, err := New("snowflake", 0)
	if err == nil || !strings.Contains(err.Error(), "snowflake") || !strings.Contains(err.Error(), "fast") {
		t.Fatalf("New(snowflake) error = %v", err)
	}
}
