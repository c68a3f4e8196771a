package faithful

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/google/uuid"
	"github.com/zeebo/xxh3"

	"mintbench/sdks/go/iggywire"
	"mintbench/sdks/go/internal/vectors"
	"mintbench/sdks/go/mint"
	"mintbench/sdks/go/msgid"
)

var le = binary.LittleEndian

// fixClock stamps every message with ts for the rest of the test.
func fixClock(t *testing.T, ts uint64) {
	t.Helper()
	saved := wallMicros
	wallMicros = func() uint64 { return ts }
	t.Cleanup(func() { wallMicros = saved })
}

// countUUIDs makes the SDK's UUID source hand out next() and count its calls.
func countUUIDs(t *testing.T, next func() (uuid.UUID, error)) *int {
	t.Helper()
	calls := new(int)
	saved := newRandomUUID
	newRandomUUID = func() (uuid.UUID, error) { *calls++; return next() }
	t.Cleanup(func() { newRandomUUID = saved })
	return calls
}

func decimalID(t *testing.T, decimal string) [16]byte {
	t.Helper()
	id, err := msgid.Serialize(decimal)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// frameIDs reads the message ids of a SEND_MESSAGES frame of fixed-size messages.
func frameIDs(frame []byte, payloadLen int) [][16]byte {
	const first = iggywire.HeaderSize + 26 + iggywire.BatchHeaderSize
	count := int(le.Uint32(frame[iggywire.HeaderSize+22:]))
	ids := make([][16]byte, count)
	for i := range ids {
		at := first + i*(iggywire.MessageHeaderSize+payloadLen)
		ids[i] = [16]byte(frame[at+8 : at+24])
	}
	return ids
}

// The faithful path sends the reference bytes, byte for byte the lean
// encoder's, both with ids handed in (preset) and with ids from the SDK's
// UUID source (uuid), which it calls once per message.
func TestFramesMatchTheVectorsAndTheLeanEncoder(t *testing.T) {
	v := vectors.Load(t)
	checked := 0
	for _, f := range v.Frames {
		if f.Kind != "send_messages" {
			continue
		}
		fixClock(t, f.OriginTimestamp)
		ids := make([][16]byte, len(f.IDs))
		for i, d := range f.IDs {
			ids[i] = decimalID(t, d)
		}
		r := iggywire.Request{Client: decimalID(t, f.Client), Number: f.Request, Session: f.Session}
		want := vectors.Bytes(t, f.Hex)
		lean := iggywire.NewBatchEncoder(f.Bits, f.Pack, len(ids)).Encode(&r, f.FirstSeq, len(ids), f.OriginTimestamp, mint.NewPresetOf(ids))
		if !bytes.Equal(lean, want) {
			t.Fatalf("the lean encoder no longer gives the vector bytes")
		}

		preset, _ := NewSender("preset", f.Bits, f.Pack, len(ids), len(ids))
		preset.preset = mint.NewPresetOf(ids)
		next := 0
		calls := countUUIDs(t, func() (uuid.UUID, error) { next++; return ids[next-1], nil })
		got, err := preset.Encode(&r, f.FirstSeq, len(ids))
		if err != nil || !bytes.Equal(got, want) || *calls != 0 {
			t.Errorf("preset frame (%d uuid calls, %v):\n got %x\nwant %x", *calls, err, got, want)
		}

		uuidArm, _ := NewSender("uuid", f.Bits, f.Pack, len(ids), len(ids))
		got, err = uuidArm.Encode(&r, f.FirstSeq, len(ids))
		if err != nil || !bytes.Equal(got, want) || *calls != len(ids) {
			t.Errorf("uuid frame (%d uuid calls for %d messages, %v):\n got %x\nwant %x", *calls, len(ids), err, got, want)
		}
		fastArm, _ := NewSender("fast", f.Bits, f.Pack, len(ids), len(ids))
		takes := 0
		fastArm.takeIDs = func(n int) []byte {
			takes++
			var flat []byte
			for _, id := range ids[:n] {
				flat = append(flat, id[:]...)
			}
			return flat
		}
		got, err = fastArm.Encode(&r, f.FirstSeq, len(ids))
		if err != nil || !bytes.Equal(got, want) || takes != 1 || *calls != len(ids) {
			t.Errorf("batch-filled frame (%d fills, %d more uuid calls, %v):\n got %x\nwant %x", takes, *calls-len(ids), err, got, want)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no send_messages vectors")
	}
}

// Frames are built in pooled buffers: a shorter batch after a longer one in
// the same buffer must carry only its own bytes.
func TestAReusedBufferCarriesOnlyTheNewFrame(t *testing.T) {
	fixClock(t, 99)
	ids := [][16]byte{{1}, {2}, {3}, {4}, {5}, {6}, {7}}
	s, _ := NewSender("preset", 13, 3, 4, len(ids))
	s.preset = mint.NewPresetOf(ids)
	r := iggywire.Request{Client: [16]byte{9}, Number: 1, Session: 5}
	if _, err := s.Encode(&r, 0, 4); err != nil {
		t.Fatal(err)
	}
	first := s.inFlight
	s.Sent()
	got, err := s.Encode(&r, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	if s.inFlight != first {
		t.Log("the pool handed out a new buffer; the reuse is not exercised this time")
	}
	want := iggywire.NewBatchEncoder(13, 3, 3).Encode(&r, 4, 3, 99, mint.NewPresetOf(ids[4:]))
	if !bytes.Equal(got, want) {
		t.Errorf("second frame:\n got %x\nwant %x", got, want)
	}
}

func TestUUIDArmMintsAVersion4UUIDPerMessage(t *testing.T) {
	calls := countUUIDs(t, uuid.NewRandom)
	const bits, pack, batch = 42, 1, 50
	s, err := NewSender("uuid", bits, pack, batch, 2*batch)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[16]byte]bool{}
	var r iggywire.Request
	for b := range 2 {
		frame, err := s.Encode(&r, uint64(b*batch), batch)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range frameIDs(frame, iggywire.PayloadLen(bits, pack)) {
			if id[6]>>4 != 4 || id[8]>>6 != 2 || seen[id] {
				t.Fatalf("id %x is repeated or not a version-4 UUID", id)
			}
			seen[id] = true
		}
	}
	if *calls != 2*batch {
		t.Errorf("%d UUIDs minted for %d messages", *calls, 2*batch)
	}
}

func TestFastPresetAndCounterArmsNeverCallTheUUIDSource(t *testing.T) {
	calls := countUUIDs(t, uuid.NewRandom)
	for _, name := range []string{"fast", "preset", "counter"} {
		s, err := NewSender(name, 42, 2, 20, 40)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[[16]byte]bool{}
		var r iggywire.Request
		for b := range 2 {
			frame, err := s.Encode(&r, uint64(b*20), 20)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range frameIDs(frame, iggywire.PayloadLen(42, 2)) {
				if id == ([16]byte{}) || seen[id] {
					t.Fatalf("%s: zero or repeated id %x", name, id)
				}
				seen[id] = true
			}
		}
	}
	if *calls != 0 {
		t.Errorf("the UUID source was called %d times", *calls)
	}
	if _, err := NewSender("uuidpool", 42, 1, 1, 1); err == nil {
		t.Error("a lean-only strategy was accepted")
	}
}

// The batch fill asks once per batch for exactly the ids of the messages
// without one, and the frames carry them in message order, next to the ids
// handed in, which it leaves alone.
func TestTheBatchFillSuppliesEveryZeroIDInOrder(t *testing.T) {
	fast := mint.NewFast()
	var taken [][]byte
	takeIDs := func(n int) []byte {
		ids := fast.Take(n)
		taken = append(taken, bytes.Clone(ids))
		return ids
	}
	var ms []Message
	for i := range 6 {
		var opts []Option
		if i%3 == 1 {
			opts = append(opts, WithID([16]byte{byte(i)}))
		}
		m, _ := NewMessage([]byte{byte(i)}, opts...)
		ms = append(ms, m)
	}
	cmd := SendMessages{StreamID: NumericIdentifier(1), TopicID: NumericIdentifier(1), Partitioning: PartitionID(0), Messages: ms, TakeIDs: takeIDs,
		MintID: func() ([16]byte, error) { t.Fatal("MintID called beside a batch fill"); return [16]byte{}, nil }}
	body, err := cmd.MarshalBinary()
	if err != nil || len(taken) != 1 || len(taken[0]) != 16*4 {
		t.Fatalf("%d fills (%v), want one of 4 ids", len(taken), err)
	}
	filled := taken[0]
	for i := range ms {
		frame := body[26+iggywire.BatchHeaderSize+i*49:][:49]
		want := [16]byte{byte(i)}
		if i%3 != 1 {
			want, filled = [16]byte(filled), filled[16:]
		}
		if [16]byte(frame[8:24]) != want || ms[i].Header.ID != want {
			t.Errorf("message %d: frame id %x, message id %x, want %x", i, frame[8:24], ms[i].Header.ID, want)
		}
	}
}

func TestNewMessageChecksSizesAndStampsTheHeader(t *testing.T) {
	fixClock(t, 1234)
	m, err := NewMessage([]byte("abc"))
	if err != nil || m.Header.OriginTimestamp != 1234 || m.Header.PayloadLength != 3 || m.Header.ID != ([16]byte{}) || m.UserHeaders == nil || len(m.UserHeaders) != 0 {
		t.Fatalf("message %+v, %v", m, err)
	}
	if m, _ := NewMessage([]byte("a"), WithID([16]byte{7}), nil); m.Header.ID != ([16]byte{7}) {
		t.Errorf("WithID gave id %x", m.Header.ID)
	}
	bigHeaders := func(m *Message) { m.UserHeaders = make([]byte, MaxUserHeadersSize+1) }
	for _, c := range []struct {
		payload []byte
		opts    []Option
		want    error
	}{
		{nil, nil, ErrInvalidPayloadLength},
		{make([]byte, MaxPayloadSize+1), nil, ErrTooBigPayload},
		{[]byte("a"), []Option{bigHeaders}, ErrTooBigUserHeaders},
	} {
		if _, err := NewMessage(c.payload, c.opts...); !errors.Is(err, c.want) {
			t.Errorf("payload of %d bytes: error %v, want %v", len(c.payload), err, c.want)
		}
	}
}

// Messages stamped at different moments: the batch's origin is the earliest
// and each frame carries its offset from it, under a valid checksum.
func TestTimestampsAreOffsetsFromTheEarliestMessage(t *testing.T) {
	var ms []Message
	for i, ts := range []uint64{105, 100, 107} {
		fixClock(t, ts)
		m, _ := NewMessage([]byte{byte(i + 1)}, WithID([16]byte{byte(i + 1)}))
		ms = append(ms, m)
	}
	cmd := SendMessages{StreamID: NumericIdentifier(1), TopicID: NumericIdentifier(1), Partitioning: PartitionID(0), Messages: ms}
	body, err := cmd.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	batch := body[26 : 26+iggywire.BatchHeaderSize]
	if le.Uint64(batch[24:]) != 100 {
		t.Errorf("batch origin %d, want 100", le.Uint64(batch[24:]))
	}
	for i, want := range []uint32{5, 0, 7} {
		frame := body[26+iggywire.BatchHeaderSize+i*49:][:49]
		if got := le.Uint32(frame[28:]); got != want || le.Uint64(frame) != xxh3.Hash(frame[8:]) || ms[i].Header.Checksum != le.Uint64(frame) {
			t.Errorf("message %d: timestamp delta %d (want %d), checksum %x", i, got, want, frame[:8])
		}
	}
	ms[0].Header.OriginTimestamp = 100 + 1<<32
	if _, err := cmd.MarshalBinary(); err == nil {
		t.Error("a timestamp 2^32 µs past the earliest was accepted")
	}
}
