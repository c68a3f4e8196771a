// Package mint holds the named ways a producer mints the 16-byte ID of each
// message: the Iggy Go SDK's path before the fix (uuid), the chosen fast path
// (fast), IDs minted ahead of the timed window (preset), a floor (counter),
// and alternates.
package mint

import (
	"crypto/aes"
	"crypto/cipher"
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"
)

// Minter writes one fresh ID into dst[:16].
type Minter interface {
	Mint(dst []byte)
}

// Names lists the strategies of the lean producer, in the order reports
// show them; the runner's go-lean row lists the same set.
var Names = []string{"uuid", "uuidpool", "cryptorand", "fast", "preset", "counter"}

// Alternates are the measured losers for fast, kept for the benchmark only:
// the runner's row lists Names, so the producer does not offer them.
var Alternates = []string{"chacha8", "chacha8pool"}

// New returns the named strategy (one of Names or Alternates). ids is how
// many IDs the caller will ask for: preset mints that many up front.
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
	case "counter":
		return NewCounter(), nil
	case "chacha8":
		return chacha8Minter{newChaCha8()}, nil
	case "chacha8pool":
		rng := newChaCha8()
		return newPool(func(dst []byte) { rng.Read(dst) }), nil
	default:
		known := append(append([]string{}, Names...), Alternates...)
		return nil, fmt.Errorf("unknown MSG_ID %q (known: %s)", name, strings.Join(known, ", "))
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

// poolBytes is a pool's size when no batch asks for more: 256 IDs, a
// buffer that stays in the L1 cache.
const poolBytes = 256 * 16

// Pool hands out IDs from a per-producer buffer that its source rewrites in
// one call when it runs dry. Take gives a whole batch's IDs at once; Mint
// one. Both read the same sequence: the source's output, in order.
type Pool struct {
	source func(dst []byte) // writes fresh IDs over all of dst
	buf    []byte
	pos    int // the next unread byte; a multiple of 16
}

func newPool(source func(dst []byte)) *Pool {
	return &Pool{source: source, buf: make([]byte, poolBytes), pos: poolBytes}
}

// Take returns n fresh IDs, 16 bytes each, back to back. They stay valid
// until the next Take or Mint.
func (p *Pool) Take(n int) []byte {
	need := 16 * n
	if len(p.buf)-p.pos < need {
		p.refill(need)
	}
	ids := p.buf[p.pos : p.pos+need : p.pos+need]
	p.pos += need
	return ids
}

func (p *Pool) Mint(dst []byte) {
	if p.pos == len(p.buf) {
		p.refill(16)
	}
	*(*[16]byte)(dst) = [16]byte(p.buf[p.pos:])
	p.pos += 16
}

// refill keeps the unread IDs in front, in order, so Take and Mint read one
// sequence however they are mixed, and has the source write the rest; the
// buffer grows to a batch that needs more than it holds.
func (p *Pool) refill(need int) {
	left := copy(p.buf, p.buf[p.pos:])
	if need > len(p.buf) {
		grown := make([]byte, need)
		copy(grown, p.buf[:left])
		p.buf = grown
	}
	p.source(p.buf[left:])
	p.pos = 0
}

// NewFast is the fast path: a pool of AES-128-CTR keystream under a key and
// an initial counter block from crypto/rand (256 bits of state per
// producer). AES-NI writes a whole pool at several bytes per cycle, and a
// block cipher in counter mode never repeats a block of its stream.
func NewFast() *Pool {
	var key, iv [16]byte
	crand.Read(key[:])
	crand.Read(iv[:])
	return newAESCTRPool(key, iv)
}

func newAESCTRPool(key, iv [16]byte) *Pool {
	block, err := aes.NewCipher(key[:])
	if err != nil {
		panic(err) // only a key of the wrong length fails
	}
	stream := cipher.NewCTR(block, iv[:])
	return newPool(func(dst []byte) {
		clear(dst) // the keystream is what XORing zeroes gives
		stream.XORKeyStream(dst, dst)
	})
}

// processCounter is the counter's low 64 bits and counterHigh its high 64
// bits, both from a random start drawn once per process.
var (
	processCounter atomic.Uint64
	counterHigh    uint64
	counterStart   = sync.OnceFunc(func() {
		var start [16]byte
		crand.Read(start[:])
		processCounter.Store(binary.LittleEndian.Uint64(start[0:]))
		counterHigh = binary.LittleEndian.Uint64(start[8:])
	})
)

// NewCounter is a floor, not an ID scheme: a per-process counter from a
// random start, handed out through the same pool as fast, so the two differ
// only by the keystream. Each refill reserves a range with one atomic add,
// so the arms of a process never share a value (for 2^64 IDs); across
// processes nothing but the random start keeps them apart, and its IDs are
// guessable. Never a default.
func NewCounter() *Pool {
	counterStart()
	return newPool(func(dst []byte) {
		n := uint64(len(dst) / 16)
		next := processCounter.Add(n) - n
		high := counterHigh
		for id := dst; len(id) >= 16; id = id[16:] {
			binary.LittleEndian.PutUint64(id[0:8], next)
			binary.LittleEndian.PutUint64(id[8:16], high)
			next++
		}
	})
}

func newChaCha8() *rand.ChaCha8 {
	var seed [32]byte
	crand.Read(seed[:])
	return rand.NewChaCha8(seed)
}

// chacha8Minter was fast before the batch fill: a ChaCha8 stream per
// producer, two u64 per ID.
type chacha8Minter struct{ rng *rand.ChaCha8 }

func (c chacha8Minter) Mint(dst []byte) {
	binary.LittleEndian.PutUint64(dst[0:8], c.rng.Uint64())
	binary.LittleEndian.PutUint64(dst[8:16], c.rng.Uint64())
}

// Preset hands out IDs minted before the timed window, so its hot path is a
// copy. It starts over when exhausted, which lets a benchmark reuse a small set.
type Preset struct {
	ids  [][16]byte
	next int
}

// NewPreset mints n IDs (at least one) with fast.
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
