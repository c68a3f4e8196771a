package iggywire

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/zeebo/xxh3"
)

var le = binary.LittleEndian

// countingIDs mints 1, 2, 3, ... as little-endian u128s.
type countingIDs struct{ next uint64 }

func (c *countingIDs) Mint(dst []byte) {
	c.next++
	clear(dst[:16])
	le.PutUint64(dst, c.next)
}

func TestPayloadMatchesTheReferenceBytes(t *testing.T) {
	// The Rust reference's payload for BITS=42, PACK=3, seq 0.
	want, _ := hex.DecodeString("a5a5a5a5a501a4a5a5a5a501a7a5a5a5a501")
	got := make([]byte, PayloadLen(42, 3))
	PutPayload(got, 0, 42, 3)
	if !bytes.Equal(got, want) {
		t.Fatalf("payload = %x, want %x", got, want)
	}
	if PayloadLen(42, 1) != 6 || PayloadLen(42, 167) != 1002 {
		t.Fatalf("payload lengths %d and %d, want 6 and 1002", PayloadLen(42, 1), PayloadLen(42, 167))
	}
}

func TestPayloadUsesAllSixtyFourBits(t *testing.T) {
	got := make([]byte, 8)
	PutPayload(got, 1, 64, 1)
	if le.Uint64(got) != 1^payloadXor {
		t.Fatalf("payload = %x", got)
	}
}

func TestLoginFrameCarriesHeaderAndCredentials(t *testing.T) {
	r := Request{Client: [16]byte{9}, RequestChecksum: [16]byte{7}}
	f := Login(&r, Producer)
	if int(le.Uint32(f[48:])) != len(f) || f[60] != 5 || f[176] != OpLogin || f[128] != 9 || f[144] != 7 {
		t.Fatalf("login header wrong: %x", f[:HeaderSize])
	}
	body := f[HeaderSize:]
	if le.Uint32(body) != 0x3002 || !bytes.Contains(body, []byte("\x0cmintbench-go\x050.1.0")) ||
		!bytes.HasSuffix(body, []byte("\x04iggy\x04iggy\x00\x00\x00\x00")) {
		t.Fatalf("login body wrong: %x", body)
	}
}

func TestSessionFromLoginNeedsANonZeroSession(t *testing.T) {
	body := make([]byte, 16)
	if _, err := SessionFromLogin(body); err == nil {
		t.Fatal("session 0 accepted")
	}
	if _, err := SessionFromLogin(body[:12]); err == nil {
		t.Fatal("short body accepted")
	}
	le.PutUint64(body[8:], 77)
	if s, err := SessionFromLogin(body); s != 77 || err != nil {
		t.Fatalf("session %d, %v", s, err)
	}
}

func TestParseReplyRefusesWhatIsNotAReply(t *testing.T) {
	h := make([]byte, HeaderSize)
	le.PutUint32(h[48:], HeaderSize)
	if _, err := ParseReply(h); err == nil {
		t.Fatal("command 0 accepted as a reply")
	}
	h[60] = commandReply
	le.PutUint32(h[48:], 10)
	if _, err := ParseReply(h); err == nil {
		t.Fatal("size below the header accepted")
	}
}

// Checks a batch frame field by field and recomputes both checksums.
func TestSendMessagesFrameAddsUp(t *testing.T) {
	const bits, pack, count = 42, 2, 3
	r := Request{Client: [16]byte{1}, Number: 5, Session: 6}
	enc := NewBatchEncoder(bits, pack, 4)
	enc.Encode(&r, 0, 4, 1, &countingIDs{}) // a longer batch first: the reused buffer must not leak into the next
	f := enc.Encode(&r, 100, count, 1_700_000_000_000_000, &countingIDs{})

	msgLen := MessageHeaderSize + PayloadLen(bits, pack)
	if len(f) != firstMessage+count*msgLen || int(le.Uint32(f[48:])) != len(f) {
		t.Fatalf("frame length %d, size field %d", len(f), le.Uint32(f[48:]))
	}
	if f[176] != OpSendMessages || le.Uint64(f[168:]) != 5 || le.Uint64(f[184:]) != 6 {
		t.Fatalf("header wrong: %x", f[160:200])
	}
	wantMeta, _ := hex.DecodeString("16000000" + "010401000000" + "010401000000" + "020400000000" + "03000000")
	if !bytes.Equal(f[HeaderSize:HeaderSize+26], wantMeta) {
		t.Fatalf("metadata %x, want %x", f[HeaderSize:HeaderSize+26], wantMeta)
	}
	batch := f[firstMessage-BatchHeaderSize : firstMessage]
	if le.Uint64(batch[24:]) != 1_700_000_000_000_000 || le.Uint64(batch[32:]) != uint64(BatchHeaderSize+count*msgLen) || le.Uint32(batch[48:]) != count {
		t.Fatalf("batch header wrong: %x", batch[:56])
	}
	sums := append(append([]byte{}, batch[:40]...), batch[48:52]...)
	for i := range count {
		msg := f[firstMessage+i*msgLen : firstMessage+(i+1)*msgLen]
		payload := make([]byte, PayloadLen(bits, pack))
		PutPayload(payload, uint64(100+i), bits, pack)
		switch {
		case le.Uint64(msg[8:]) != uint64(i+1) || le.Uint64(msg[16:]) != 0:
			t.Errorf("message %d id %x", i, msg[8:24])
		case le.Uint32(msg[24:]) != uint32(i) || le.Uint32(msg[36:]) != uint32(len(payload)) || !bytes.Equal(msg[28:36], make([]byte, 8)) || !bytes.Equal(msg[40:48], make([]byte, 8)):
			t.Errorf("message %d header %x", i, msg[:48])
		case !bytes.Equal(msg[48:], payload):
			t.Errorf("message %d payload %x, want %x", i, msg[48:], payload)
		case le.Uint64(msg) != xxh3.Hash(msg[8:]):
			t.Errorf("message %d checksum %x", i, msg[:8])
		}
		sums = append(sums, msg[:8]...)
	}
	if le.Uint64(batch[40:]) != xxh3.Hash(sums) {
		t.Errorf("batch checksum %x, want %x", le.Uint64(batch[40:]), xxh3.Hash(sums))
	}
	if !bytes.Equal(batch[52:], make([]byte, BatchHeaderSize-52)) {
		t.Errorf("batch header bytes 52..256 are not zero")
	}
}
