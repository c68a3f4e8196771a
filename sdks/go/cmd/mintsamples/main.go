// Command mintsamples extracts the samples of `go test -bench` output of
// BenchmarkMint into the raw sample file of sdks/README.md ("Native mint
// benchmarks"): one ns-per-ID value per benchmark line, per strategy. It
// summarises nothing; `harness mint-report` writes the report.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"golang.org/x/perf/benchfmt"
)

// Raw is the raw sample file.
type Raw struct {
	Lang        string     `json:"lang"`
	Tool        string     `json:"tool"`
	ToolVersion string     `json:"tool_version"`
	Command     string     `json:"command"`
	Strategies  []Strategy `json:"strategies"`
}

type Strategy struct {
	Name    string    `json:"name"`
	NsPerID []float64 `json:"ns_per_id"`
}

func main() {
	in := flag.String("in", "", "go test -bench output of BenchmarkMint")
	out := flag.String("out", "", "raw sample file to write")
	command := flag.String("command", "", "the command that ran the benchmark, from the repo root")
	flag.Parse()
	if err := run(*in, *out, *command); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}

func run(in, out, command string) error {
	if in == "" || out == "" || command == "" {
		return fmt.Errorf("-in, -out and -command are all required")
	}
	output, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	strategies, err := extract(output)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	raw := Raw{Lang: "go", Tool: "go test -bench", ToolVersion: runtime.Version(), Command: command, Strategies: strategies}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(raw); err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}

// extract reads every BenchmarkMint/strategy=NAME line (one ID per op) and
// returns the strategies in the order they first appear.
func extract(output []byte) ([]Strategy, error) {
	var strategies []Strategy
	at := map[string]int{}
	reader := benchfmt.NewReader(bytes.NewReader(output), "bench output")
	for reader.Scan() {
		switch rec := reader.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, rec
		case *benchfmt.Result:
			name := strategyOf(rec.Name)
			if name == "" {
				continue
			}
			ns, ok := nsPerOp(rec)
			if !ok {
				return nil, fmt.Errorf("%s has no ns/op", rec.Name.Full())
			}
			i, seen := at[name]
			if !seen {
				i = len(strategies)
				at[name] = i
				strategies = append(strategies, Strategy{Name: name})
			}
			strategies[i].NsPerID = append(strategies[i].NsPerID, ns)
		}
	}
	if err := reader.Err(); err != nil && err != io.EOF {
		return nil, err
	}
	if len(strategies) == 0 {
		return nil, fmt.Errorf("no BenchmarkMint/strategy=... results")
	}
	return strategies, nil
}

// nsPerOp is a result's ns/op as go test printed it (the reader also
// offers it converted to sec/op).
func nsPerOp(r *benchfmt.Result) (float64, bool) {
	for _, v := range r.Values {
		switch {
		case v.OrigUnit == "ns/op":
			return v.OrigValue, true
		case v.OrigUnit == "" && v.Unit == "ns/op":
			return v.Value, true
		}
	}
	return 0, false
}

// strategyOf reads NAME from a benchmark named Mint/strategy=NAME.
func strategyOf(name benchfmt.Name) string {
	base, parts := name.Parts()
	if string(base) != "Mint" {
		return ""
	}
	for _, p := range parts {
		if v, ok := bytes.CutPrefix(p, []byte("/strategy=")); ok {
			return string(v)
		}
	}
	return ""
}
