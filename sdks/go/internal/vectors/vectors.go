// Package vectors loads sdks/vectors.json, the bytes the Rust reference
// encoder produced, for the tests of every package here to reproduce.
package vectors

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

type File struct {
	IDs []struct {
		Decimal string `json:"decimal"`
		LEHex   string `json:"le_hex"`
	} `json:"ids"`
	Rejected []struct {
		Input json.RawMessage `json:"input"` // a JSON string or number
		Kind  string          `json:"kind"`
	} `json:"rejected"`
	XXH3 []struct {
		InputHex string `json:"input_hex"`
		Hash     string `json:"hash"`
	} `json:"xxh3"`
	XXH3Prefixes struct {
		DataHex string   `json:"data_hex"`
		Hashes  []string `json:"hashes"`
	} `json:"xxh3_prefixes"`
	Payloads []struct {
		Bits int    `json:"bits"`
		Pack int    `json:"pack"`
		Seq  uint64 `json:"seq"`
		Hex  string `json:"hex"`
	} `json:"payloads"`
	Frames      []Frame `json:"frames"`
	BlockOrders []struct {
		Seed   string  `json:"seed"` // a u64 in decimal
		Arms   int     `json:"arms"`
		Blocks [][]int `json:"blocks"`
	} `json:"block_orders"`
}

// Frame is a request frame with every input that built it; which fields
// are set depends on Kind (login, logout, send_messages).
type Frame struct {
	Kind            string   `json:"kind"`
	Client          string   `json:"client"`
	Request         uint64   `json:"request"`
	Session         uint64   `json:"session"`
	RequestChecksum string   `json:"request_checksum"`
	SDKName         string   `json:"sdk_name"`
	SDKVersion      string   `json:"sdk_version"`
	Username        string   `json:"username"`
	Password        string   `json:"password"`
	Stream          uint32   `json:"stream"`
	Topic           uint32   `json:"topic"`
	Partition       uint32   `json:"partition"`
	OriginTimestamp uint64   `json:"origin_timestamp"`
	FirstSeq        uint64   `json:"first_seq"`
	Bits            int      `json:"bits"`
	Pack            int      `json:"pack"`
	IDs             []string `json:"ids"`
	Hex             string   `json:"hex"`
}

// Load reads sdks/vectors.json; a missing or unreadable file fails the test.
func Load(t testing.TB) *File {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(here), "..", "..", "..", "vectors.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the shared vectors are needed: %v", err)
	}
	var f File
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &f
}

// Bytes decodes a hex field of the vectors.
func Bytes(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex in the vectors: %v", err)
	}
	return b
}
