package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A shortened `go test -bench -benchmem -count 2` output of BenchmarkMint.
const benchOutput = `goos: linux
goarch: amd64
pkg: mintbench/sdks/go/mint
cpu: Test CPU 9000
BenchmarkMint/strategy=uuid-2         	 3000000	       401.5 ns/op	      16 B/op	       1 allocs/op
BenchmarkMint/strategy=fast-2         	90000000	        12.25 ns/op	       0 B/op	       0 allocs/op
BenchmarkMint/strategy=uuid-2         	 3000000	       398 ns/op	      16 B/op	       1 allocs/op
BenchmarkMint/strategy=fast-2         	90000000	        12.5 ns/op	       0 B/op	       0 allocs/op
BenchmarkOther-2                      	 1000	      5 ns/op
PASS
ok  	mintbench/sdks/go/mint	10.0s
`

func TestTheRawFileHoldsEverySampleInTheContractsShape(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "bench.txt"), filepath.Join(dir, "raw.json")
	if err := os.WriteFile(in, []byte(benchOutput), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(in, out, "sdks/go/mint-bench.sh results"); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(written, &fields); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"command", "lang", "strategies", "tool", "tool_version"}; !slices.Equal(keys, want) {
		t.Fatalf("keys %v, want %v", keys, want)
	}
	var raw Raw
	if err := json.Unmarshal(written, &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Lang != "go" || raw.Tool != "go test -bench" || !strings.HasPrefix(raw.ToolVersion, "go1.") || raw.Command != "sdks/go/mint-bench.sh results" {
		t.Errorf("header %+v", raw)
	}
	want := []Strategy{{"uuid", []float64{401.5, 398}}, {"fast", []float64{12.25, 12.5}}}
	if !reflect.DeepEqual(raw.Strategies, want) {
		t.Errorf("strategies %+v, want %+v", raw.Strategies, want)
	}
	if !strings.Contains(string(written), `"ns_per_id": [`) {
		t.Errorf("raw file:\n%s", written)
	}
}

func TestOutputWithoutMintResultsIsRefused(t *testing.T) {
	if _, err := extract([]byte("PASS\n")); err == nil {
		t.Error("output without results accepted")
	}
	if _, err := extract([]byte("BenchmarkMint/strategy=fast-2 \t 100\t 3 B/op\n")); err == nil || !strings.Contains(err.Error(), "ns/op") {
		t.Errorf("a line without ns/op: %v", err)
	}
}
