package faithful

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/google/uuid"
	"github.com/zeebo/xxh3"

	"mintbench/sdks/go/iggywire"
)

// kindValue is the SDK's encoding of an id or a partitioning: a kind byte,
// the value's length, then the value.
type kindValue struct {
	Kind, Length byte
	Value        []byte
}

func (kv kindValue) AppendBinary(b []byte) []byte {
	return append(append(b, kv.Kind, kv.Length), kv.Value...)
}

// u32KindValue is a kind with a four-byte little-endian value.
func u32KindValue(kind byte, v uint32) kindValue {
	return kindValue{Kind: kind, Length: 4, Value: binary.LittleEndian.AppendUint32(nil, v)}
}

// Identifier is a stream or topic id as the SDK encodes it.
type Identifier struct{ kindValue }

// NumericIdentifier is the SDK's numeric id: kind 1, four little-endian bytes.
func NumericIdentifier(v uint32) Identifier { return Identifier{u32KindValue(1, v)} }

// Partitioning says which partition the messages go to.
type Partitioning struct{ kindValue }

// PartitionID is the SDK's partitioning by partition id: kind 2, four bytes.
func PartitionID(p uint32) Partitioning { return Partitioning{u32KindValue(2, p)} }

// newRandomUUID is the SDK's id source for zero ids; a variable so tests can
// count its calls.
var newRandomUUID = uuid.NewRandom

// NewUUID is the SDK's minting of a zero id: google/uuid's version 4, its
// bytes as they are.
func NewUUID() ([16]byte, error) {
	id, err := newRandomUUID()
	return id, err
}

// SendMessages is one SEND_MESSAGES command of the SDK.
type SendMessages struct {
	StreamID, TopicID Identifier
	Partitioning      Partitioning
	Messages          []Message
	// MintID replaces each zero id, one call per message: the SDK's is
	// NewUUID.
	MintID func() ([16]byte, error)
	// TakeIDs, when set, replaces MintID with the fix's batch fill: one call
	// returns the ids of every zero-id message (16 bytes each, in order),
	// which the encoder reads as it writes the frames.
	TakeIDs func(n int) []byte
}

// zeroBatchHeader is appended in front of the frames and filled in once
// every frame checksum is known.
var zeroBatchHeader [iggywire.BatchHeaderSize]byte

// MarshalBinary encodes the command body into a new, growing slice.
func (s *SendMessages) MarshalBinary() ([]byte, error) {
	return s.AppendBinary(nil)
}

// AppendBinary appends the body (metadata, batch header, one frame per
// message) to b. It writes each minted id and checksum back into its message.
func (s *SendMessages) AppendBinary(b []byte) ([]byte, error) {
	le := binary.LittleEndian
	metadataAt := len(b)
	b = le.AppendUint32(b, 0)
	b = s.StreamID.AppendBinary(b)
	b = s.TopicID.AppendBinary(b)
	b = s.Partitioning.AppendBinary(b)
	b = le.AppendUint32(b, uint32(len(s.Messages)))
	le.PutUint32(b[metadataAt:], uint32(len(b)-metadataAt-4))

	// The batch's origin is its earliest message; frames carry the offset from it.
	var origin uint64
	for i := range s.Messages {
		if ts := s.Messages[i].Header.OriginTimestamp; i == 0 || ts < origin {
			origin = ts
		}
	}
	// The fix's batch fill: the ids of every zero-id message in one call.
	var filled []byte
	if s.TakeIDs != nil {
		zeroIDs := 0
		for i := range s.Messages {
			if s.Messages[i].Header.ID == ([16]byte{}) {
				zeroIDs++
			}
		}
		filled = s.TakeIDs(zeroIDs)
	}

	headerAt := len(b)
	b = append(b, zeroBatchHeader[:]...)
	framesAt := len(b)
	checksums := make([]byte, 0, 8*len(s.Messages))
	for i := range s.Messages {
		m := &s.Messages[i]
		if m.Header.ID == ([16]byte{}) {
			if s.TakeIDs != nil {
				m.Header.ID = [16]byte(filled)
				filled = filled[16:]
			} else {
				id, err := s.MintID()
				if err != nil {
					return b, err
				}
				m.Header.ID = id
			}
		}
		m.Header.PayloadLength = uint32(len(m.Payload))
		m.Header.UserHeaderLength = uint32(len(m.UserHeaders))
		delta := m.Header.OriginTimestamp - origin
		if delta > math.MaxUint32 {
			return b, fmt.Errorf("message origin timestamp %d is more than %d µs after the batch's earliest, %d", m.Header.OriginTimestamp, uint64(math.MaxUint32), origin)
		}

		frameAt := len(b)
		b = le.AppendUint64(b, 0) // the checksum, once the frame is complete
		b = append(b, m.Header.ID[:]...)
		b = le.AppendUint32(b, uint32(i)) // offset delta
		b = le.AppendUint32(b, uint32(delta))
		b = le.AppendUint32(b, m.Header.UserHeaderLength)
		b = le.AppendUint32(b, m.Header.PayloadLength)
		b = le.AppendUint64(b, m.Header.Reserved)
		b = append(b, m.Payload...)
		b = append(b, m.UserHeaders...)
		sum := xxh3.Hash(b[frameAt+8:])
		le.PutUint64(b[frameAt:], sum)
		m.Header.Checksum = sum
		checksums = le.AppendUint64(checksums, sum)
	}

	h := batchHeader{OriginTimestamp: origin, BatchLength: uint64(iggywire.BatchHeaderSize + len(b) - framesAt), MessageCount: uint32(len(s.Messages))}
	h.Checksum = h.checksum(checksums)
	h.encodeInto(b[headerAt:framesAt])
	return b, nil
}

// batchHeader is the 256-byte header in front of a batch's frames.
type batchHeader struct {
	PartitionID, BaseOffset, BaseTimestamp, OriginTimestamp, BatchLength, Checksum uint64
	MessageCount                                                                   uint32
}

// putLeadingFields writes the u64 fields that both the checksum's input and
// the header itself start with.
func (h *batchHeader) putLeadingFields(dst []byte) {
	le := binary.LittleEndian
	le.PutUint64(dst[0:], h.PartitionID)
	le.PutUint64(dst[8:], h.BaseOffset)
	le.PutUint64(dst[16:], h.BaseTimestamp)
	le.PutUint64(dst[24:], h.OriginTimestamp)
	le.PutUint64(dst[32:], h.BatchLength)
}

// checksum hashes the header's fields, then every frame's checksum.
func (h *batchHeader) checksum(frameChecksums []byte) uint64 {
	var fields [44]byte
	h.putLeadingFields(fields[:])
	binary.LittleEndian.PutUint32(fields[40:], h.MessageCount)
	hasher := xxh3.New()
	hasher.Write(fields[:])
	hasher.Write(frameChecksums)
	return hasher.Sum64()
}

func (h *batchHeader) encodeInto(dst []byte) {
	h.putLeadingFields(dst)
	binary.LittleEndian.PutUint64(dst[40:], h.Checksum)
	binary.LittleEndian.PutUint32(dst[48:], h.MessageCount)
}
