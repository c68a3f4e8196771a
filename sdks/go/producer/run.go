package producer

import (
	"runtime"
	"slices"
	"strconv"
	"time"
)

// Result is the result line of a run with one arm.
type Result struct {
	SDK           string  `json:"sdk"`
	MsgID         string  `json:"msg_id"`
	SendPath      string  `json:"send_path"`
	Messages      int     `json:"messages"`
	Warmup        int     `json:"warmup"`
	TimedMessages int     `json:"timed_messages"`
	ElapsedNs     int64   `json:"elapsed_ns"`
	MsgsPerSec    float64 `json:"msgs_per_sec"`
	InjectedNs    int64   `json:"injected_ns"`
	RoundTrips
	AllocBytesPerMsg float64 `json:"alloc_bytes_per_msg"`
}

// RoundTrips are the percentiles of an arm's timed round trips (send to ack);
// embedded, their fields stand in the line where the embedding does.
type RoundTrips struct {
	RttP50Ns  int64 `json:"rtt_p50_ns"`
	RttP99Ns  int64 `json:"rtt_p99_ns"`
	RttP999Ns int64 `json:"rtt_p999_ns"`
}

// roundTrips gives the percentiles of rttNs, which it leaves as it is.
func roundTrips(rttNs []int64) RoundTrips {
	sorted := slices.Sorted(slices.Values(rttNs))
	return RoundTrips{RttP50Ns: percentile(sorted, 500), RttP99Ns: percentile(sorted, 990), RttP999Ns: percentile(sorted, 999)}
}

// PairedResult is the result line of paired mode.
type PairedResult struct {
	SDK      string      `json:"sdk"`
	Paired   bool        `json:"paired"`
	Seed     string      `json:"seed"` // decimal: a u64 does not fit a JSON double
	SendPath string      `json:"send_path"`
	Messages int         `json:"messages"`
	Warmup   int         `json:"warmup"`
	Blocks   int         `json:"blocks"` // the timed ones
	Arms     []ArmResult `json:"arms"`
}

// ArmResult is one arm of a paired run; its elapsed time is the sum of its
// batch times.
type ArmResult struct {
	MsgID         string  `json:"msg_id"`
	TimedMessages int     `json:"timed_messages"`
	ElapsedNs     int64   `json:"elapsed_ns"`
	MsgsPerSec    float64 `json:"msgs_per_sec"`
	InjectedNs    int64   `json:"injected_ns"`
	RoundTrips
	BatchNs []int64 `json:"batch_ns"`
}

// Run connects to s.Server, logs in, sends every block, logs out and returns
// the result line: a Result, or a PairedResult when s.Paired.
func Run(s Settings) (any, error) {
	arms := make([]*arm, len(s.MsgIDs))
	for i := range arms {
		var err error
		if arms[i], err = newArm(s, i); err != nil {
			return nil, err
		}
	}
	return run(s, arms)
}

func run(s Settings, arms []*arm) (any, error) {
	c, err := dial(s.Server)
	if err != nil {
		return nil, err
	}
	defer c.close()
	if err := c.login(); err != nil {
		return nil, err
	}

	order := newBlockOrder(s.Seed, len(arms))
	warmupBlocks := s.warmupBlocks()
	var allocBefore, allocAfter runtime.MemStats
	var start time.Time
	seq := uint64(0)
	for b := range s.blocks() {
		count := min(s.Batch, s.Messages-b*s.Batch)
		if b == warmupBlocks {
			runtime.ReadMemStats(&allocBefore)
			start = time.Now() // the window includes building the first timed batch
		}
		for _, a := range order.next() {
			if err := arms[a].send(c, seq, count, b >= warmupBlocks); err != nil {
				return nil, err
			}
			seq += uint64(count)
		}
	}
	window := time.Since(start)
	runtime.ReadMemStats(&allocAfter)
	if err := c.logout(); err != nil {
		return nil, err
	}

	warmup := min(warmupBlocks*s.Batch, s.Messages)
	if s.Paired {
		r := PairedResult{SDK: "go", Paired: true, Seed: strconv.FormatUint(s.Seed, 10), SendPath: s.SendPath,
			Messages: s.Messages, Warmup: warmup, Blocks: s.blocks() - warmupBlocks}
		for _, a := range arms {
			elapsed := a.elapsedNs()
			r.Arms = append(r.Arms, ArmResult{MsgID: a.msgID, TimedMessages: a.timedMessages, ElapsedNs: elapsed,
				MsgsPerSec: float64(a.timedMessages) / (float64(elapsed) / 1e9), InjectedNs: a.injected.Nanoseconds(),
				RoundTrips: roundTrips(a.rttNs), BatchNs: a.batchNs})
		}
		return r, nil
	}
	a := arms[0]
	return Result{
		SDK:              "go",
		MsgID:            a.msgID,
		SendPath:         s.SendPath,
		Messages:         s.Messages,
		Warmup:           warmup,
		TimedMessages:    a.timedMessages,
		ElapsedNs:        window.Nanoseconds(),
		MsgsPerSec:       float64(a.timedMessages) / window.Seconds(),
		InjectedNs:       a.injected.Nanoseconds(),
		RoundTrips:       roundTrips(a.rttNs),
		AllocBytesPerMsg: float64(allocAfter.TotalAlloc-allocBefore.TotalAlloc) / float64(a.timedMessages),
	}, nil
}

// percentile is the nearest-rank percentile (in per mille, integer math so
// no rounding moves a rank) of sorted, which is not empty.
func percentile(sorted []int64, perMille int) int64 {
	rank := (len(sorted)*perMille + 999) / 1000
	return sorted[max(rank, 1)-1]
}
