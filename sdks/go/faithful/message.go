// Package faithful is the Go SDK's own per-message work on the send path, as
// the Iggy Go SDK (foreign/go) did it at the commit before the fix: message
// values built by a constructor with options, an encoder that appends the
// whole request body to one growing slice and mints a UUIDv4 for every zero
// id, one XXH3 per frame. Its frames carry the contract's bytes
// (sdks/README.md); what it keeps from the SDK is the work, step by step.
package faithful

import (
	"errors"
	"time"
)

// The SDK's limits, checked when a message is built.
const (
	MaxPayloadSize     = 10 * 1000 * 1000
	MaxUserHeadersSize = 100 * 1000
)

var (
	ErrInvalidPayloadLength = errors.New("invalid message payload length")
	ErrTooBigPayload        = errors.New("too big message payload")
	ErrTooBigUserHeaders    = errors.New("too big user headers")
)

// MessageHeader is the SDK's header value, one per message.
type MessageHeader struct {
	Checksum         uint64
	ID               [16]byte
	Offset           uint64
	Timestamp        uint64
	OriginTimestamp  uint64
	UserHeaderLength uint32
	PayloadLength    uint32
	Reserved         uint64
}

// Message is what an application hands the SDK's SendMessages.
type Message struct {
	Header      MessageHeader
	Payload     []byte
	UserHeaders []byte
}

// Option adjusts a message while NewMessage builds it.
type Option func(*Message)

// WithID gives the message its own id instead of the zero one that the
// encoder replaces with a fresh UUID.
func WithID(id [16]byte) Option {
	return func(m *Message) { m.Header.ID = id }
}

// wallMicros stamps each message as the SDK's header constructor does, from
// the wall clock in microseconds; a variable so tests can fix it.
var wallMicros = func() uint64 { return uint64(time.Now().UnixMicro()) }

// NewMessage builds a message the SDK's way: payload size checks, a header
// with a zero id and this moment's origin timestamp, empty user headers,
// then the options, then the user-headers size check.
func NewMessage(payload []byte, opts ...Option) (Message, error) {
	if len(payload) == 0 {
		return Message{}, ErrInvalidPayloadLength
	}
	if len(payload) > MaxPayloadSize {
		return Message{}, ErrTooBigPayload
	}
	m := Message{
		Header:      MessageHeader{OriginTimestamp: wallMicros(), PayloadLength: uint32(len(payload))},
		Payload:     payload,
		UserHeaders: make([]byte, 0),
	}
	for _, opt := range opts {
		if opt != nil {
			opt(&m)
		}
	}
	if len(m.UserHeaders) > MaxUserHeadersSize {
		return Message{}, ErrTooBigUserHeaders
	}
	m.Header.UserHeaderLength = uint32(len(m.UserHeaders))
	return m, nil
}
