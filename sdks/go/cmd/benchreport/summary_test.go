package main

import (
	"fmt"
	"strings"
	"testing"
)

// benchOutput fakes `go test -bench -benchmem` output: one line per run.
func benchOutput(runs map[string][]float64) []byte {
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: mintbench/sdks/go/mint\ncpu: Test CPU 9000\n")
	for _, name := range []string{"uuid", "fast"} {
		for _, ns := range runs[name] {
			allocs := 0
			if name == "uuid" {
				allocs = 1
			}
			fmt.Fprintf(&b, "BenchmarkMint/strategy=%s-2 \t 1000000\t %g ns/op\t %d B/op\t %d allocs/op\n", name, ns, 16*allocs, allocs)
		}
	}
	b.WriteString("PASS\n")
	return []byte(b.String())
}

func TestSummaryGivesMedianSpreadAndSpeedup(t *testing.T) {
	raw := benchOutput(map[string][]float64{
		"uuid": {100, 90, 95, 105, 98, 102},
		"fast": {10, 9, 11, 10.5, 9.5, 10},
	})
	all, err := summarize(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Name != "uuid" || all[1].Name != "fast" {
		t.Fatalf("strategies %+v", all)
	}
	uuid, fast := all[0], all[1]
	if uuid.Runs != 6 || uuid.NsPerID.Median != 99 || uuid.NsPerID.Min != 90 || uuid.NsPerID.Max != 105 {
		t.Errorf("uuid spread %+v", uuid.NsPerID)
	}
	if uuid.NsPerID.CI95Lo > uuid.NsPerID.Median || uuid.NsPerID.CI95Hi < uuid.NsPerID.Median {
		t.Errorf("uuid CI %+v does not hold the median", uuid.NsPerID)
	}
	if uuid.AllocsPerID != 1 || uuid.BytesPerID != 16 || fast.AllocsPerID != 0 {
		t.Errorf("allocations uuid %g/%g fast %g", uuid.AllocsPerID, uuid.BytesPerID, fast.AllocsPerID)
	}
	if fast.SpeedupVsUUID != 99.0/10 || uuid.SpeedupVsUUID != 1 {
		t.Errorf("speedups %g, %g", fast.SpeedupVsUUID, uuid.SpeedupVsUUID)
	}
	c, err := compare(all, "uuid", "fast")
	if err != nil || c.P >= 0.05 || c.Verdict != "significant" {
		t.Errorf("comparison %+v, %v", c, err)
	}
	if cpuOf(raw) != "Test CPU 9000" {
		t.Errorf("cpu %q", cpuOf(raw))
	}
	md := markdown(Report{Strategies: all, FastVsUUID: c, TargetX: 10, Command: "go test"}, raw)
	if !strings.Contains(md, "| fast | 6 | 10.00 |") || !strings.Contains(md, "Target 10x: not met") {
		t.Errorf("markdown:\n%s", md)
	}
}

func TestSummaryRefusesOutputItCannotReport(t *testing.T) {
	if _, err := summarize([]byte("PASS\n")); err == nil {
		t.Error("output without results accepted")
	}
	noMem := []byte("BenchmarkMint/strategy=fast-2 \t 100\t 10 ns/op\n")
	if _, err := summarize(noMem); err == nil || !strings.Contains(err.Error(), "-benchmem") {
		t.Errorf("output without -benchmem: %v", err)
	}
}
