package iggywire

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/zeebo/xxh3"

	"mintbench/sdks/go/internal/vectors"
	"mintbench/sdks/go/mint"
	"mintbench/sdks/go/msgid"
)

func decimalHash(t *testing.T, s string) uint64 {
	t.Helper()
	h, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("bad hash %q in the vectors", s)
	}
	return h
}

func TestVectorXXH3(t *testing.T) {
	v := vectors.Load(t)
	for _, c := range v.XXH3 {
		input := vectors.Bytes(t, c.InputHex)
		if got := xxh3.Hash(input); got != decimalHash(t, c.Hash) {
			t.Errorf("xxh3 of %d bytes = %d, want %s", len(input), got, c.Hash)
		}
	}
	data := vectors.Bytes(t, v.XXH3Prefixes.DataHex)
	if len(v.XXH3Prefixes.Hashes) != len(data)+1 {
		t.Fatalf("%d prefix hashes for %d bytes", len(v.XXH3Prefixes.Hashes), len(data))
	}
	for n, want := range v.XXH3Prefixes.Hashes {
		if got := xxh3.Hash(data[:n]); got != decimalHash(t, want) {
			t.Errorf("xxh3 of the %d-byte prefix = %d, want %s", n, got, want)
		}
	}
}

func TestVectorPayloads(t *testing.T) {
	v := vectors.Load(t)
	for _, c := range v.Payloads {
		got := make([]byte, PayloadLen(c.Bits, c.Pack))
		PutPayload(got, c.Seq, c.Bits, c.Pack)
		if want := vectors.Bytes(t, c.Hex); !bytes.Equal(got, want) {
			t.Errorf("payload bits=%d pack=%d seq=%d = %x, want %x", c.Bits, c.Pack, c.Seq, got, want)
		}
	}
}

func id(t *testing.T, decimal string) [16]byte {
	t.Helper()
	b, err := msgid.Serialize(decimal)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestVectorFrames(t *testing.T) {
	v := vectors.Load(t)
	kinds := map[string]int{}
	for _, f := range v.Frames {
		r := Request{Client: id(t, f.Client), Number: f.Request, Session: f.Session}
		if f.RequestChecksum != "" {
			r.RequestChecksum = id(t, f.RequestChecksum)
		}
		var got []byte
		switch f.Kind {
		case "login":
			got = Login(&r, Identity{SDKName: f.SDKName, SDKVersion: f.SDKVersion, Username: f.Username, Password: f.Password})
		case "logout":
			got = Logout(&r)
		case "send_messages":
			if f.Stream != 1 || f.Topic != 1 || f.Partition != 0 {
				t.Fatalf("frame for stream %d topic %d partition %d; the producer sends to 1/1/0 only", f.Stream, f.Topic, f.Partition)
			}
			ids := make([][16]byte, len(f.IDs))
			for i, d := range f.IDs {
				ids[i] = id(t, d)
			}
			got = NewBatchEncoder(f.Bits, f.Pack, len(ids)).Encode(&r, f.FirstSeq, len(ids), f.OriginTimestamp, mint.NewPresetOf(ids))
		default:
			t.Fatalf("unknown frame kind %q", f.Kind)
		}
		if want := vectors.Bytes(t, f.Hex); !bytes.Equal(got, want) {
			t.Errorf("%s frame (request %d):\n got %x\nwant %x", f.Kind, f.Request, got, want)
		}
		kinds[f.Kind]++
	}
	if kinds["login"] == 0 || kinds["logout"] == 0 || kinds["send_messages"] == 0 {
		t.Fatalf("vectors lack a frame kind: %v", kinds)
	}
}
