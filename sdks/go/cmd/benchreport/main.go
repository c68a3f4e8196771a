// Command benchreport turns the `go test -bench` output of BenchmarkMint into
// results/sdk-go-mint.md and .json: every strategy's median ns per ID with
// its 95% confidence interval and extremes, allocations, and the uuid-vs-fast
// U-test, beside the exact command, date, CPU and toolchain.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"golang.org/x/perf/benchfmt"
)

// Report is the JSON file's layout.
type Report struct {
	Tool       string     `json:"tool"`
	Command    string     `json:"command"`
	Date       string     `json:"date"`
	CPU        string     `json:"cpu"`
	Cores      int        `json:"cores"`
	Toolchain  string     `json:"toolchain"`
	Unit       string     `json:"unit"`
	Strategies []Strategy `json:"strategies"`
	FastVsUUID Comparison `json:"fast_vs_uuid"`
	TargetX    float64    `json:"target_speedup_fast_vs_uuid"`
}

func main() {
	in := flag.String("in", "", "go test -bench output of BenchmarkMint")
	command := flag.String("command", "", "the exact command that produced -in")
	mdPath := flag.String("md", "", "Markdown report to write")
	jsonPath := flag.String("json", "", "JSON report to write")
	target := flag.Float64("target", 10, "speedup of fast over uuid the issue asks for")
	flag.Parse()
	if err := run(*in, *command, *mdPath, *jsonPath, *target); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}

func run(in, command, mdPath, jsonPath string, target float64) error {
	if in == "" || command == "" || mdPath == "" || jsonPath == "" {
		return fmt.Errorf("-in, -command, -md and -json are all required")
	}
	raw, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	strategies, err := summarize(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	fastVsUUID, err := compare(strategies, "uuid", "fast")
	if err != nil {
		return err
	}
	report := Report{
		Tool:       "go test -bench (testing.B), statistics by golang.org/x/perf/benchmath",
		Command:    command,
		Date:       time.Now().UTC().Format(time.RFC3339),
		CPU:        cpuOf(raw),
		Cores:      runtime.NumCPU(),
		Toolchain:  runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		Unit:       "ns per minted ID",
		Strategies: strategies,
		FastVsUUID: fastVsUUID,
		TargetX:    target,
	}
	var js bytes.Buffer
	enc := json.NewEncoder(&js)
	enc.SetEscapeHTML(false) // keep the command's && readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(report); err != nil {
		return err
	}
	if err := os.WriteFile(jsonPath, js.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(mdPath, []byte(markdown(report, raw)), 0o644)
}

// cpuOf is the CPU model `go test` recorded in its output header.
func cpuOf(raw []byte) string {
	reader := benchfmt.NewReader(bytes.NewReader(raw), "bench output")
	for reader.Scan() {
		if r, ok := reader.Result().(*benchfmt.Result); ok {
			if cpu := r.GetConfig("cpu"); cpu != "" {
				return cpu
			}
		}
	}
	return "unknown"
}
