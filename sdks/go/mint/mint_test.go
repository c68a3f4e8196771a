package mint

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// childEnv, when set, makes the test binary a child process that prints the
// first IDs of a new fast and a new counter minter and exits.
const childEnv = "MINT_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		for _, p := range []*Pool{NewFast(), NewCounter()} {
			fmt.Println(hex.EncodeToString(p.Take(childIDs)))
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const childIDs = 256

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
	for _, name := range slices.Concat(Names, Alternates) {
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
	for _, name := range slices.Concat(Names, Alternates) {
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
		t.Fatalf("two fast minters started with the same id %x", a[0])
	}
}

// takeAndMint reads n IDs from p in batches of the given sizes, with single
// Mint calls in between, as a lean and a faithful arm would mix them.
func takeAndMint(p *Pool, sizes []int) []byte {
	var got []byte
	for _, n := range sizes {
		got = append(got, p.Take(n)...)
		var id [16]byte
		p.Mint(id[:])
		got = append(got, id[:]...)
	}
	return got
}

// The batch fill reads the very stream the single-ID path reads: for the same
// key and counter block, batches of any size (within the pool, across its
// end, larger than it) and single IDs give the AES-128-CTR keystream in order.
func TestBatchFillReadsTheSingleIDStream(t *testing.T) {
	key, iv := [16]byte{1, 2, 3}, [16]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0}
	sizes := []int{0, 1, 3, 250, 1000, 7, poolBytes / 16, 2, 3000, 5}
	batched := takeAndMint(newAESCTRPool(key, iv), sizes)

	single := make([]byte, len(batched))
	one := newAESCTRPool(key, iv)
	for i := 0; i < len(single); i += 16 {
		one.Mint(single[i:])
	}
	block, _ := aes.NewCipher(key[:])
	keystream := make([]byte, len(batched))
	cipher.NewCTR(block, iv[:]).XORKeyStream(keystream, keystream)
	if !bytes.Equal(batched, single) || !bytes.Equal(batched, keystream) {
		t.Fatal("batched, single-ID and plain AES-CTR streams differ")
	}
	seen := map[[16]byte]bool{}
	for i := 0; i < len(batched); i += 16 {
		id := [16]byte(batched[i:])
		if seen[id] {
			t.Fatalf("id %x repeated", id)
		}
		seen[id] = true
	}
}

// counter counts up from one random start per process: its arms reserve
// ranges of it, so two counters in a process never hand out the same value.
func TestCountersCountUpAndNeverShareAValue(t *testing.T) {
	a, b := NewCounter(), NewCounter()
	run := a.Take(10)
	for i := 16; i < len(run); i += 16 {
		if binary.LittleEndian.Uint64(run[i:])-binary.LittleEndian.Uint64(run[i-16:]) != 1 {
			t.Fatalf("counter went from %x to %x", run[i-16:i], run[i:i+16])
		}
	}
	seen := map[[16]byte]bool{}
	for range 3 * poolBytes / 16 {
		for _, p := range []*Pool{a, b} {
			ids := takeAndMint(p, []int{1})
			for j := 0; j < len(ids); j += 16 {
				id := [16]byte(ids[j:])
				if seen[id] || binary.LittleEndian.Uint64(id[8:]) != counterHigh {
					t.Fatalf("counter id %x repeated or off the process's high half", id)
				}
				seen[id] = true
			}
		}
	}
}

// Go has no fork without exec: a child process is a new program that seeds
// its own minters. Its IDs share nothing with its parent's, neither those
// minted before it started nor after.
func TestAChildProcessStartsFresh(t *testing.T) {
	parent := []*Pool{NewFast(), NewCounter()}
	before := make([][]byte, len(parent))
	for i, p := range parent {
		before[i] = slices.Clone(p.Take(childIDs))
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(parent) {
		t.Fatalf("child printed %q", out)
	}
	for i, p := range parent {
		child, err := hex.DecodeString(lines[i])
		if err != nil || len(child) != 16*childIDs {
			t.Fatalf("child line %d: %q, %v", i, lines[i], err)
		}
		mine := map[[16]byte]bool{}
		for _, ids := range [][]byte{before[i], p.Take(childIDs)} {
			for j := 0; j < len(ids); j += 16 {
				mine[[16]byte(ids[j:])] = true
			}
		}
		for j := 0; j < len(child); j += 16 {
			if mine[[16]byte(child[j:])] {
				t.Fatalf("minter %d: the child minted the parent's id %x", i, child[j:j+16])
			}
		}
	}
	// The counter's start is the process's own: the child's high half is not ours.
	if child, _ := hex.DecodeString(lines[1]); binary.LittleEndian.Uint64(child[8:]) == counterHigh {
		t.Error("the child's counter starts from the parent's random start")
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
