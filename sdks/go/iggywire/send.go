package iggywire

import (
	"encoding/binary"

	"github.com/zeebo/xxh3"
)

// IDMinter writes a fresh 16-byte message ID into dst[:16].
type IDMinter interface {
	Mint(dst []byte)
}

// Where every SEND_MESSAGES of ours goes.
const (
	StreamID    = 1
	TopicID     = 1
	PartitionID = 0
)

const (
	BatchHeaderSize   = 256
	MessageHeaderSize = 48
	metadataLen       = 22 // stream id 6 + topic id 6 + partitioning 6 + message count 4
	firstMessage      = HeaderSize + 4 + metadataLen + BatchHeaderSize
)

// BatchEncoder builds SEND_MESSAGES frames (StreamID, TopicID, PartitionID)
// into one reused buffer, so the hot path allocates nothing.
type BatchEncoder struct {
	bits, pack int
	messageLen int
	frame      []byte
	// checksumInput is what the batch checksum covers: the batch header's
	// u64 fields, the message count, then every message's checksum.
	checksumInput []byte
}

// NewBatchEncoder prepares frames of up to maxMessages messages.
func NewBatchEncoder(bits, pack, maxMessages int) *BatchEncoder {
	e := &BatchEncoder{bits: bits, pack: pack, messageLen: MessageHeaderSize + PayloadLen(bits, pack)}
	e.frame = make([]byte, firstMessage+maxMessages*e.messageLen)
	e.checksumInput = make([]byte, 44+8*maxMessages)
	le := binary.LittleEndian
	body := e.frame[HeaderSize:]
	le.PutUint32(body[0:], metadataLen)
	body[4], body[5] = 1, 4 // stream: numeric, 4 bytes
	le.PutUint32(body[6:], StreamID)
	body[10], body[11] = 1, 4 // topic: numeric, 4 bytes
	le.PutUint32(body[12:], TopicID)
	body[16], body[17] = 2, 4 // partitioning: by partition id, 4 bytes
	le.PutUint32(body[18:], PartitionID)
	return e
}

// Encode returns the frame for count messages numbered firstSeq, firstSeq+1,
// ... with IDs from ids. The frame is valid until the next call.
func (e *BatchEncoder) Encode(r *Request, firstSeq uint64, count int, originTimestamp uint64, ids IDMinter) []byte {
	le := binary.LittleEndian
	batchLen := BatchHeaderSize + count*e.messageLen
	frame := e.frame[:HeaderSize+4+metadataLen+batchLen]
	putHeader(frame, len(frame), OpSendMessages, r)
	le.PutUint32(frame[HeaderSize+4+metadataLen-4:], uint32(count))

	sums := e.checksumInput[:44+8*count]
	for i := range count {
		msg := frame[firstMessage+i*e.messageLen : firstMessage+(i+1)*e.messageLen]
		ids.Mint(msg[8:24])
		le.PutUint32(msg[24:], uint32(i)) // offset_delta
		le.PutUint32(msg[36:], uint32(len(msg)-MessageHeaderSize))
		PutPayload(msg[MessageHeaderSize:], firstSeq+uint64(i), e.bits, e.pack)
		sum := xxh3.Hash(msg[8:])
		le.PutUint64(msg[0:], sum)
		le.PutUint64(sums[44+8*i:], sum)
	}

	batch := frame[firstMessage-BatchHeaderSize : firstMessage]
	le.PutUint64(batch[24:], originTimestamp)
	le.PutUint64(batch[32:], uint64(batchLen))
	le.PutUint32(batch[48:], uint32(count))
	copy(sums[0:40], batch[0:40]) // partition_id, base_offset, base_timestamp, origin_timestamp, batch_length
	le.PutUint32(sums[40:], uint32(count))
	le.PutUint64(batch[40:], xxh3.Hash(sums))
	return frame
}
