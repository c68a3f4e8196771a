// Package iggywire encodes the Iggy TCP requests our producers send and reads
// the replies (see sdks/WIRE.md and sdks/README.md for every byte).
package iggywire

import (
	"encoding/binary"
	"fmt"
)

const HeaderSize = 256

// Operations, as carried at request byte 176 and echoed at reply byte 208.
const (
	OpLogin        = 1
	OpLogout       = 3
	OpSendMessages = 160
)

const (
	commandRequest = 5
	commandReply   = 8
)

// Request holds the header fields a producer varies between requests.
type Request struct {
	Client          [16]byte // little-endian u128, random non-zero per connection
	RequestChecksum [16]byte // random non-zero for the login, else zero
	Number          uint64   // 0 for the login, then 1, 2, 3, ...
	Session         uint64   // from the login reply; 0 for the login itself
}

// putHeader writes the 256-byte request header of a frame of size bytes.
// The remaining header bytes are expected to be zero already.
func putHeader(frame []byte, size int, operation byte, r *Request) {
	le := binary.LittleEndian
	le.PutUint32(frame[48:], uint32(size))
	frame[60] = commandRequest
	copy(frame[128:144], r.Client[:])
	copy(frame[144:160], r.RequestChecksum[:])
	le.PutUint64(frame[168:], r.Number)
	frame[176] = operation
	le.PutUint64(frame[184:], r.Session)
}

// Frame returns the request frame carrying body: a new buffer with the header
// written and body copied in after it.
func Frame(r *Request, operation byte, body []byte) []byte {
	frame := make([]byte, HeaderSize+len(body))
	copy(frame[HeaderSize:], body)
	PutHeader(frame, operation, r)
	return frame
}

// PutHeader writes the request header into the first HeaderSize bytes of
// frame, a whole request whose header bytes are zero.
func PutHeader(frame []byte, operation byte, r *Request) {
	putHeader(frame, len(frame), operation, r)
}

// Reply is what a producer needs from a reply header.
type Reply struct {
	Size      uint32 // header plus body
	Number    uint64 // the request number it answers
	Operation byte
	Status    uint32 // 0 for success, else an Iggy error code
}

// ParseReply reads a 256-byte reply header.
func ParseReply(header []byte) (Reply, error) {
	le := binary.LittleEndian
	r := Reply{
		Size:      le.Uint32(header[48:]),
		Number:    le.Uint64(header[200:]),
		Operation: header[208],
		Status:    le.Uint32(header[216:]),
	}
	if header[60] != commandReply {
		return r, fmt.Errorf("header command %d is not a reply (%d)", header[60], commandReply)
	}
	if r.Size < HeaderSize {
		return r, fmt.Errorf("reply size %d is below the %d-byte header", r.Size, HeaderSize)
	}
	return r, nil
}
