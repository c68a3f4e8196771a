package main

import (
	"fmt"
	"strings"
)

func markdown(r Report, raw []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Go SDK: mint-only benchmark\n\n")
	fmt.Fprintf(&b, "What one message ID costs to mint in Go, per strategy (sdks/go/mint), measured by %s.\n\n", r.Tool)
	fmt.Fprintf(&b, "- Command (from the repo root): `%s`\n", r.Command)
	fmt.Fprintf(&b, "- Date: %s\n- CPU: %s (%d cores seen, shared with other work)\n- Toolchain: %s\n\n", r.Date, r.CPU, r.Cores, r.Toolchain)
	fmt.Fprintf(&b, "| strategy | runs | median ns/ID | 95%% CI | min .. max | B/ID | allocs/ID | speed vs uuid |\n")
	fmt.Fprintf(&b, "|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range r.Strategies {
		fmt.Fprintf(&b, "| %s | %d | %.2f | %.2f .. %.2f | %.2f .. %.2f | %g | %g | %.1fx |\n",
			s.Name, s.Runs, s.NsPerID.Median, s.NsPerID.CI95Lo, s.NsPerID.CI95Hi, s.NsPerID.Min, s.NsPerID.Max,
			s.BytesPerID, s.AllocsPerID, s.SpeedupVsUUID)
	}
	c := r.FastVsUUID
	met := "met"
	if c.Speedup < r.TargetX {
		met = "not met"
	}
	fmt.Fprintf(&b, "\n`fast` against `uuid`: %.1fx faster by medians, Mann-Whitney U p=%.3g (alpha %.2g): %s. Target %gx: %s.\n",
		c.Speedup, c.P, c.Alpha, c.Verdict, r.TargetX, met)
	fmt.Fprintf(&b, "benchstat's own comparison is in results/sdk-go-benchstat.txt.\n\n")
	fmt.Fprintf(&b, "`preset` copies IDs minted before the loop (a set of 65,536, reused), so it shows the floor: the cost of copying a ready ID.\n\n")
	fmt.Fprintf(&b, "<details><summary>Raw output</summary>\n\n```\n%s```\n</details>\n", raw)
	return b.String()
}
