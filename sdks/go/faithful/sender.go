package faithful

import (
	"fmt"

	"mintbench/sdks/go/iggywire"
	"mintbench/sdks/go/mint"
)

// Names lists the MSG_IDs of the faithful path: the SDK as it was (uuid),
// the same path with our batch fill for zero ids (fast), ids minted before
// the run and handed in with WithID (preset), and the batch fill from a
// counter instead of the keystream (counter, a floor).
var Names = []string{"uuid", "fast", "preset", "counter"}

// Sender builds one arm's batches as an application on the SDK does: a
// message per payload from NewMessage, then the SDK's encoder.
type Sender struct {
	bits, pack   int
	payloads     []byte // the application's payloads, rewritten per batch
	stream       Identifier
	topic        Identifier
	partitioning Partitioning
	mintID       func() ([16]byte, error)
	takeIDs      func(n int) []byte // the fix's batch fill; nil: mintID per message
	preset       *mint.Preset       // nil: messages go without ids and the encoder mints
	inFlight     *[]byte            // the pooled buffer of the frame being sent
}

// NewSender returns the arm named name for batches of up to batch messages;
// messages is how many the arm sends, which preset mints up front.
func NewSender(name string, bits, pack, batch, messages int) (*Sender, error) {
	s := &Sender{
		bits:         bits,
		pack:         pack,
		payloads:     make([]byte, batch*iggywire.PayloadLen(bits, pack)),
		stream:       NumericIdentifier(iggywire.StreamID),
		topic:        NumericIdentifier(iggywire.TopicID),
		partitioning: PartitionID(iggywire.PartitionID),
		mintID:       NewUUID,
	}
	switch name {
	case "uuid":
	case "fast":
		s.takeIDs = mint.NewFast().Take
	case "counter":
		s.takeIDs = mint.NewCounter().Take
	case "preset":
		s.preset = mint.NewPreset(messages)
	default:
		return nil, fmt.Errorf("no faithful MSG_ID %q", name)
	}
	return s, nil
}

// Encode returns the SEND_MESSAGES frame of count messages numbered
// firstSeq, firstSeq+1, ..., valid until Sent.
func (s *Sender) Encode(r *iggywire.Request, firstSeq uint64, count int) ([]byte, error) {
	width := iggywire.PayloadLen(s.bits, s.pack)
	messages := make([]Message, 0, count)
	for i := range count {
		payload := s.payloads[i*width : (i+1)*width : (i+1)*width]
		iggywire.PutPayload(payload, firstSeq+uint64(i), s.bits, s.pack)
		var m Message
		var err error
		if s.preset != nil {
			var id [16]byte
			s.preset.Mint(id[:])
			m, err = NewMessage(payload, WithID(id))
		} else {
			m, err = NewMessage(payload)
		}
		if err != nil {
			return nil, err
		}
		messages = append(messages, m)
	}
	cmd := SendMessages{StreamID: s.stream, TopicID: s.topic, Partitioning: s.partitioning, Messages: messages, MintID: s.mintID, TakeIDs: s.takeIDs}
	s.inFlight = acquireRequestBuf()
	frame, err := appendRequest(s.inFlight, r, &cmd)
	if err != nil {
		s.Sent()
		return nil, err
	}
	return frame, nil
}

// Sent hands the last frame's buffer back to the pool, as the SDK does once
// the request's reply is in.
func (s *Sender) Sent() {
	releaseRequestBuf(s.inFlight)
	s.inFlight = nil
}
