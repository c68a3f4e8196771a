// Package producer runs the benchmark producer of the SDK contract: it sends
// MESSAGES messages to the sink in batches, one request in flight, and
// reports throughput and round trips of the batches after the warm-up; in
// paired mode several arms share the connection, block by block.
package producer

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"mintbench/sdks/go/faithful"
	"mintbench/sdks/go/mint"
)

// plainDecimal is INJECT_NS's form: digits with an optional fraction.
var plainDecimal = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// sendPaths lists each SEND_PATH with the MSG_IDs it accepts: lean is our
// producer (only the ID path is the SDK's), faithful the SDK's own
// per-message work (package faithful).
var sendPaths = []sendPath{
	{"lean", mint.Names},
	{"faithful", faithful.Names},
}

type sendPath struct {
	name   string
	msgIDs []string
}

// Settings are the producer's environment variables (sdks/README.md).
type Settings struct {
	Server    string
	MsgIDs    []string // one per arm; exactly one unless Paired
	Paired    bool
	Seed      uint64
	SendPath  string
	Bits      int
	Pack      int
	Batch     int
	Messages  int     // per arm
	Warmup    int     // per arm
	InjectNs  float64 // ns per message, a decimal
	InjectArm int
}

// SettingsFrom reads and checks the settings; lookup is os.LookupEnv. MODE
// and the settings of paired mode, injection and SEND_PATH may be unset:
// then one lean arm without injection.
func SettingsFrom(lookup func(string) (string, bool)) (Settings, error) {
	var s Settings
	var err error
	text := func(name, unset string) string {
		v, ok := lookup(name)
		if !ok {
			if unset == "" && err == nil {
				err = fmt.Errorf("%s is not set", name)
			}
			return unset
		}
		return v
	}
	const unbounded = int(^uint(0) >> 1)
	number := func(name, unset string, least, most int) int {
		raw := text(name, unset)
		if err != nil {
			return 0
		}
		n, parseErr := strconv.Atoi(raw)
		if parseErr != nil || n < least || n > most {
			err = fmt.Errorf("%s=%q: must be an integer in %d..=%d", name, raw, least, most)
		}
		return n
	}
	// INJECT_NS (sdks/README.md): a plain decimal of ns per message, at most a
	// second, so a batch's spin fits a time.Duration.
	decimalNs := func(name string) float64 {
		raw := text(name, "0")
		if err != nil {
			return 0
		}
		n, parseErr := strconv.ParseFloat(raw, 64)
		if !plainDecimal.MatchString(raw) || parseErr != nil || n > 1e9 {
			err = fmt.Errorf("%s=%q: must be a decimal number of ns in 0..=1000000000", name, raw)
		}
		return n
	}
	s.Server = text("SERVER", "")
	mode := text("MODE", "producer")
	msgID := text("MSG_ID", "")
	s.Paired = number("PAIRED", "0", 0, 1) == 1
	seed := text("SEED", "0")
	s.SendPath = text("SEND_PATH", "lean")
	s.Bits = number("BITS", "", 1, 64)
	s.Pack = number("PACK", "", 1, 1<<20)
	s.Batch = number("BATCH", "", 1, 1<<20)
	s.Messages = number("MESSAGES", "", 1, unbounded)
	s.Warmup = number("WARMUP", "", 0, unbounded)
	s.InjectNs = decimalNs("INJECT_NS")
	s.InjectArm = number("INJECT_ARM", "0", 0, unbounded)
	if err != nil {
		return s, err
	}
	if mode != "producer" {
		return s, fmt.Errorf("MODE=%s is unknown; expected producer (mint is the Rust row's only)", mode)
	}
	if s.Seed, err = strconv.ParseUint(seed, 10, 64); err != nil {
		return s, fmt.Errorf("SEED=%q: must be a u64 in decimal", seed)
	}
	at := slices.IndexFunc(sendPaths, func(p sendPath) bool { return p.name == s.SendPath })
	if at < 0 {
		known := make([]string, len(sendPaths))
		for i, p := range sendPaths {
			known[i] = p.name
		}
		return s, fmt.Errorf("SEND_PATH=%s is unknown; expected one of %s", s.SendPath, strings.Join(known, ", "))
	}
	names := sendPaths[at].msgIDs
	s.MsgIDs = []string{msgID}
	if s.Paired {
		s.MsgIDs = strings.Split(msgID, ",")
	}
	for _, name := range s.MsgIDs {
		if !slices.Contains(names, name) {
			return s, fmt.Errorf("MSG_ID=%s is unknown; expected one of %s", name, strings.Join(names, ", "))
		}
	}
	switch {
	case s.Paired && len(s.MsgIDs) < 2:
		return s, fmt.Errorf("PAIRED=1 needs at least two arms in MSG_ID, got %q", msgID)
	case s.SendPath == "lean" && slices.Contains(s.MsgIDs, "uuid") && slices.Contains(s.MsgIDs, "uuidpool"):
		// google/uuid's pool is one switch for the whole process.
		return s, fmt.Errorf("MSG_ID=%s: uuid and uuidpool cannot share a process", msgID)
	case s.InjectArm >= len(s.MsgIDs):
		return s, fmt.Errorf("INJECT_ARM=%d is outside the %d arm(s) of MSG_ID=%s", s.InjectArm, len(s.MsgIDs), msgID)
	case s.Messages < s.Batch:
		return s, fmt.Errorf("MESSAGES=%d is below BATCH=%d", s.Messages, s.Batch)
	case s.warmupBlocks() >= s.blocks():
		return s, fmt.Errorf("WARMUP=%d leaves no timed batch of MESSAGES=%d in batches of BATCH=%d", s.Warmup, s.Messages, s.Batch)
	}
	return s, nil
}

// blocks counts the batches of an arm (one per block); only the last may be short.
func (s Settings) blocks() int { return ceilDiv(s.Messages, s.Batch) }

// warmupBlocks counts the whole blocks sent before the timed window.
func (s Settings) warmupBlocks() int { return ceilDiv(s.Warmup, s.Batch) }

func ceilDiv(a, b int) int { return (a + b - 1) / b }
