package producer

import (
	"slices"
	"time"

	"mintbench/sdks/go/iggywire"
	"mintbench/sdks/go/mint"
)

// Result is the one JSON line a producer prints.
type Result struct {
	SDK           string  `json:"sdk"`
	MsgID         string  `json:"msg_id"`
	Messages      int     `json:"messages"`
	Warmup        int     `json:"warmup"`
	TimedMessages int     `json:"timed_messages"`
	ElapsedNs     int64   `json:"elapsed_ns"`
	MsgsPerSec    float64 `json:"msgs_per_sec"`
	RttP50Ns      int64   `json:"rtt_p50_ns"`
	RttP99Ns      int64   `json:"rtt_p99_ns"`
	RttP999Ns     int64   `json:"rtt_p999_ns"`
}

// Run connects to s.Server, logs in, sends every message, logs out and
// reports the timed window.
func Run(s Settings) (Result, error) {
	ids, err := mint.New(s.MsgID, s.Messages) // preset mints everything here, before the first send
	if err != nil {
		return Result{}, err
	}
	c, err := dial(s.Server)
	if err != nil {
		return Result{}, err
	}
	defer c.close()
	if err := c.login(); err != nil {
		return Result{}, err
	}

	encoder := iggywire.NewBatchEncoder(s.Bits, s.Pack, s.Batch)
	warmupBatches := s.warmupBatches()
	rtts := make([]time.Duration, 0, s.batches()-warmupBatches)
	var start time.Time
	for b, seq := 0, 0; seq < s.Messages; b++ {
		count := min(s.Batch, s.Messages-seq)
		timed := b >= warmupBatches
		if b == warmupBatches {
			start = time.Now() // the window includes minting and encoding the first timed batch
		}
		frame := encoder.Encode(&c.req, uint64(seq), count, uint64(time.Now().UnixMicro()), ids)
		sent := time.Now()
		if _, err := c.roundTrip(frame, iggywire.OpSendMessages, "SEND_MESSAGES"); err != nil {
			return Result{}, err
		}
		if timed {
			rtts = append(rtts, time.Since(sent))
		}
		seq += count
	}
	elapsed := time.Since(start)
	if err := c.logout(); err != nil {
		return Result{}, err
	}

	warmup := min(warmupBatches*s.Batch, s.Messages)
	timedMessages := s.Messages - warmup
	slices.Sort(rtts)
	return Result{
		SDK:           "go",
		MsgID:         s.MsgID,
		Messages:      s.Messages,
		Warmup:        warmup,
		TimedMessages: timedMessages,
		ElapsedNs:     elapsed.Nanoseconds(),
		MsgsPerSec:    float64(timedMessages) / elapsed.Seconds(),
		RttP50Ns:      percentile(rtts, 500).Nanoseconds(),
		RttP99Ns:      percentile(rtts, 990).Nanoseconds(),
		RttP999Ns:     percentile(rtts, 999).Nanoseconds(),
	}, nil
}

// percentile is the nearest-rank percentile (in per mille, integer math so
// no rounding moves a rank) of sorted, which is not empty.
func percentile(sorted []time.Duration, perMille int) time.Duration {
	rank := (len(sorted)*perMille + 999) / 1000
	return sorted[max(rank, 1)-1]
}
