// Package mint holds the named ways a producer mints the 16-byte ID of each
// message: the Iggy Go SDK's path before the fix (uuid), the chosen fast path
// (fast), IDs minted ahead of the timed window (preset), and alternates.
package mint

import (
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/google/uuid"
)

// Minter writes one fresh ID into dst[:16].
type Minter interface {
	Mint(dst []byte)
}

// Names lists every strategy New accepts, in the order reports show them.
var Names = []string{"uuid", "uuidpool", "cryptorand", "fast", "preset"}

// New returns the named strategy. ids is how many IDs the caller will ask
// for: preset mints that many up front.
func New(name string, ids int) (Minter, error) {
	switch name {
	case "uuid":
		// The pool is a package-wide switch in google/uuid; make sure an
		// earlier uuidpool in this process does not leak into this strategy.
		uuid.DisableRandPool()
		return uuidMinter{}, nil
	case "uuidpool":
		uuid.EnableRandPool()
		return uuidMinter{}, nil
	case "cryptorand":
		return cryptoRandMinter{}, nil
	case "fast":
		return NewFast(), nil
	case "preset":
		return NewPreset(ids), nil
	default:
		return nil, fmt.Errorf("unknown MSG_ID %q (known: %s)", name, strings.Join(Names, ", "))
	}
}

// uuidMinter is the Iggy Go SDK's path: a version-4 UUID from crypto/rand
// (or from google/uuid's pool when it is enabled), its bytes as they are.
type uuidMinter struct{}

func (uuidMinter) Mint(dst []byte) {
	id, err := uuid.NewRandom()
	if err != nil {
		// Only a failing OS random source gets here; crypto/rand itself
		// aborts the program in that case, so there is nothing to recover.
		panic(err)
	}
	copy(dst[:16], id[:])
}

// cryptoRandMinter reads 16 bytes from crypto/rand per ID: no UUID
// formatting, but still one trip to the OS-backed generator's lock.
type cryptoRandMinter struct{}

func (cryptoRandMinter) Mint(dst []byte) {
	crand.Read(dst[:16]) // never fails since Go 1.24: it aborts instead
}

// Fast is a per-producer ChaCha8 stream seeded from crypto/rand: unique IDs
// without a system call or a shared lock per message.
type Fast struct {
	rng *rand.ChaCha8
}

func NewFast() *Fast {
	var seed [32]byte
	crand.Read(seed[:])
	return &Fast{rng: rand.NewChaCha8(seed)}
}

func (f *Fast) Mint(dst []byte) {
	binary.LittleEndian.PutUint64(dst[0:8], f.rng.Uint64())
	binary.LittleEndian.PutUint64(dst[8:16], f.rng.Uint64())
}

// Preset hands out IDs minted before the timed window, so its hot path is a
// copy. It starts over when exhausted, which lets a benchmark reuse a small set.
type Preset struct {
	ids  [][16]byte
	next int
}

// NewPreset mints n IDs (at least one) with Fast.
func NewPreset(n int) *Preset {
	fast := NewFast()
	ids := make([][16]byte, max(n, 1))
	for i := range ids {
		fast.Mint(ids[i][:])
	}
	return &Preset{ids: ids}
}

// NewPresetOf hands out the given IDs, in order.
func NewPresetOf(ids [][16]byte) *Preset {
	return &Preset{ids: ids}
}

func (p *Preset) Mint(dst []byte) {
	copy(dst[:16], p.ids[p.next][:])
	p.next++
	if p.next == len(p.ids) {
		p.next = 0
	}
}
