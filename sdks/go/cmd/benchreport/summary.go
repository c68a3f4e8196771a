package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// Spread is a sample's median with its 95% confidence interval (benchstat's
// distribution-free method) and its extremes.
type Spread struct {
	Median float64 `json:"median"`
	CI95Lo float64 `json:"ci95_lo"`
	CI95Hi float64 `json:"ci95_hi"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// Strategy is one strategy's runs of BenchmarkMint.
type Strategy struct {
	Name          string    `json:"name"`
	Runs          int       `json:"runs"`
	NsPerID       Spread    `json:"ns_per_id"`
	BytesPerID    float64   `json:"bytes_per_id_median"`
	AllocsPerID   float64   `json:"allocs_per_id_median"`
	SpeedupVsUUID float64   `json:"speedup_vs_uuid"` // median uuid ns / median ns
	RawNsPerID    []float64 `json:"raw_ns_per_id"`
}

// Comparison is the U-test benchstat applies to two strategies' ns/ID.
type Comparison struct {
	Base    string  `json:"base"`
	Other   string  `json:"other"`
	Speedup float64 `json:"speedup"`
	P       float64 `json:"p_value"`
	Alpha   float64 `json:"alpha"`
	Verdict string  `json:"verdict"`
}

type samples struct{ ns, bytes, allocs []float64 }

// summarize reads `go test -bench` output of BenchmarkMint/strategy=NAME and
// returns the strategies in the order they first appear.
func summarize(raw []byte) ([]Strategy, error) {
	var order []string
	by := map[string]*samples{}
	reader := benchfmt.NewReader(bytes.NewReader(raw), "bench output")
	for reader.Scan() {
		switch rec := reader.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, rec
		case *benchfmt.Result:
			name := strategyOf(rec.Name)
			if name == "" {
				continue
			}
			ns, okNs := asPrinted(rec, "ns/op")
			b, okB := asPrinted(rec, "B/op")
			a, okA := asPrinted(rec, "allocs/op")
			if !okNs || !okB || !okA {
				return nil, fmt.Errorf("%s lacks ns/op, B/op or allocs/op (run with -benchmem)", rec.Name)
			}
			if by[name] == nil {
				by[name] = &samples{}
				order = append(order, name)
			}
			s := by[name]
			s.ns, s.bytes, s.allocs = append(s.ns, ns), append(s.bytes, b), append(s.allocs, a)
		}
	}
	if err := reader.Err(); err != nil && err != io.EOF {
		return nil, err
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("no BenchmarkMint/strategy=... results in the input")
	}
	out := make([]Strategy, 0, len(order))
	for _, name := range order {
		s := by[name]
		out = append(out, Strategy{
			Name:        name,
			Runs:        len(s.ns),
			NsPerID:     spread(s.ns),
			BytesPerID:  spread(s.bytes).Median,
			AllocsPerID: spread(s.allocs).Median,
			RawNsPerID:  s.ns,
		})
	}
	if base := find(out, "uuid"); base != nil {
		for i := range out {
			out[i].SpeedupVsUUID = base.NsPerID.Median / out[i].NsPerID.Median
		}
	}
	return out, nil
}

// asPrinted is a result's value in the unit go test printed: the reader
// converts some units (ns/op to sec/op), keeping the original beside.
func asPrinted(r *benchfmt.Result, unit string) (float64, bool) {
	for _, v := range r.Values {
		switch {
		case v.OrigUnit == unit:
			return v.OrigValue, true
		case v.OrigUnit == "" && v.Unit == unit:
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

func spread(values []float64) Spread {
	sample := benchmath.NewSample(slices.Clone(values), &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(sample, 0.95)
	return Spread{Median: sum.Center, CI95Lo: sum.Lo, CI95Hi: sum.Hi, Min: sample.Values[0], Max: sample.Values[len(sample.Values)-1]}
}

func find(all []Strategy, name string) *Strategy {
	for i := range all {
		if all[i].Name == name {
			return &all[i]
		}
	}
	return nil
}

// compare runs the Mann-Whitney U-test on two strategies' ns/ID.
func compare(all []Strategy, base, other string) (Comparison, error) {
	b, o := find(all, base), find(all, other)
	if b == nil || o == nil {
		return Comparison{}, fmt.Errorf("need both %s and %s in the results", base, other)
	}
	c := benchmath.AssumeNothing.Compare(
		benchmath.NewSample(slices.Clone(b.RawNsPerID), &benchmath.DefaultThresholds),
		benchmath.NewSample(slices.Clone(o.RawNsPerID), &benchmath.DefaultThresholds))
	verdict := "no significant difference"
	if c.P < c.Alpha {
		verdict = "significant"
	}
	return Comparison{Base: base, Other: other, Speedup: b.NsPerID.Median / o.NsPerID.Median, P: c.P, Alpha: c.Alpha, Verdict: verdict}, nil
}
