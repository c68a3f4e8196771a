// Package producer runs the benchmark producer of the SDK contract: it sends
// MESSAGES messages to the sink in batches, one request in flight, and
// reports throughput and round trips of the batches after the warm-up.
package producer

import (
	"fmt"
	"slices"
	"strconv"

	"mintbench/sdks/go/mint"
)

// Settings are the producer's environment variables (sdks/README.md).
type Settings struct {
	Server   string
	MsgID    string
	Bits     int
	Pack     int
	Batch    int
	Messages int
	Warmup   int
}

// SettingsFrom reads and checks the settings; lookup is os.LookupEnv.
func SettingsFrom(lookup func(string) (string, bool)) (Settings, error) {
	var s Settings
	var err error
	text := func(name string) string {
		v, ok := lookup(name)
		if !ok && err == nil {
			err = fmt.Errorf("%s is not set", name)
		}
		return v
	}
	number := func(name string, least, most int) int {
		raw := text(name)
		if err != nil {
			return 0
		}
		n, parseErr := strconv.Atoi(raw)
		if parseErr != nil || n < least || n > most {
			err = fmt.Errorf("%s=%q: must be an integer in %d..=%d", name, raw, least, most)
		}
		return n
	}
	const unbounded = int(^uint(0) >> 1)
	s.Server = text("SERVER")
	s.MsgID = text("MSG_ID")
	s.Bits = number("BITS", 1, 64)
	s.Pack = number("PACK", 1, 1<<20)
	s.Batch = number("BATCH", 1, 1<<20)
	s.Messages = number("MESSAGES", 1, unbounded)
	s.Warmup = number("WARMUP", 0, unbounded)
	if err != nil {
		return s, err
	}
	if !slices.Contains(mint.Names, s.MsgID) {
		_, err = mint.New(s.MsgID, 0) // names the known strategies
		return s, err
	}
	if s.Messages < s.Batch {
		return s, fmt.Errorf("MESSAGES=%d is below BATCH=%d", s.Messages, s.Batch)
	}
	if s.warmupBatches() >= s.batches() {
		return s, fmt.Errorf("WARMUP=%d leaves no timed batch of MESSAGES=%d in batches of BATCH=%d", s.Warmup, s.Messages, s.Batch)
	}
	return s, nil
}

// batches counts the requests of the run; only the last may be short.
func (s Settings) batches() int { return ceilDiv(s.Messages, s.Batch) }

// warmupBatches counts the whole batches sent before the timed window.
func (s Settings) warmupBatches() int { return ceilDiv(s.Warmup, s.Batch) }

func ceilDiv(a, b int) int { return (a + b - 1) / b }
