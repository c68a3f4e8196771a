package producer

import (
	"math"
	"time"

	"mintbench/sdks/go/faithful"
	"mintbench/sdks/go/iggywire"
	"mintbench/sdks/go/mint"
)

// arm is one entry of MSG_ID: its own minter and encoder, and what its
// timed batches measured.
type arm struct {
	msgID    string
	encode   func(r *iggywire.Request, firstSeq uint64, count int) ([]byte, error)
	sent     func()  // after the ack: the frame is no longer needed; may be nil
	injectNs float64 // ns per message

	timedMessages int
	injected      time.Duration
	batchNs       []int64 // build (injected work included) to ack
	rttNs         []int64 // send to ack
}

// newArm prepares the arm; a preset arm mints all its IDs here.
func newArm(s Settings, index int) (*arm, error) {
	a := &arm{msgID: s.MsgIDs[index], batchNs: make([]int64, 0, s.blocks()-s.warmupBlocks())}
	a.rttNs = make([]int64, 0, cap(a.batchNs))
	if index == s.InjectArm {
		a.injectNs = s.InjectNs
	}
	switch s.SendPath {
	case "faithful":
		sender, err := faithful.NewSender(a.msgID, s.Bits, s.Pack, s.Batch, s.Messages)
		if err != nil {
			return nil, err
		}
		a.encode, a.sent = sender.Encode, sender.Sent
	default:
		ids, err := mint.New(a.msgID, s.Messages)
		if err != nil {
			return nil, err
		}
		enc := iggywire.NewBatchEncoder(s.Bits, s.Pack, s.Batch)
		a.encode = func(r *iggywire.Request, firstSeq uint64, count int) ([]byte, error) {
			return enc.Encode(r, firstSeq, count, uint64(time.Now().UnixMicro()), ids), nil
		}
	}
	return a, nil
}

// send builds one batch of count messages numbered from firstSeq and waits
// for its ack; a timed batch adds to the arm's measurements.
func (a *arm) send(c *conn, firstSeq uint64, count int, timed bool) error {
	start := time.Now()
	var injected time.Duration
	if a.injectNs > 0 {
		injected = spin(start, time.Duration(math.Round(float64(count)*a.injectNs)))
	}
	frame, err := a.encode(&c.req, firstSeq, count)
	if err != nil {
		return err
	}
	sent := time.Now()
	if _, err := c.roundTrip(frame, iggywire.OpSendMessages, "SEND_MESSAGES"); err != nil {
		return err
	}
	if a.sent != nil {
		a.sent()
	}
	if timed {
		acked := time.Now()
		a.batchNs = append(a.batchNs, acked.Sub(start).Nanoseconds())
		a.rttNs = append(a.rttNs, acked.Sub(sent).Nanoseconds())
		a.timedMessages += count
		a.injected += injected
	}
	return nil
}

func (a *arm) elapsedNs() int64 {
	var sum int64
	for _, ns := range a.batchNs {
		sum += ns
	}
	return sum
}
