package producer

import (
	"encoding/binary"
	"maps"
	"net"
	"strings"
	"testing"
	"time"

	"mintbench/sdks/go/iggywire"
)

func settings(server string) Settings {
	return Settings{Server: server, MsgID: "fast", Bits: 42, Pack: 2, Batch: 100, Messages: 1050, Warmup: 250}
}

// seqOf decodes the sequence number carried by a payload's first value.
func seqOf(payload []byte, bits int) uint64 {
	var v [8]byte
	copy(v[:], payload[:(bits+7)/8])
	return (binary.LittleEndian.Uint64(v[:]) ^ 0xA5A5A5A5A5A5A5A5) & (^uint64(0) >> (64 - bits))
}

func TestRunSendsEveryMessageOnceInOrderAndReportsTheTimedWindow(t *testing.T) {
	for _, strategy := range []string{"uuid", "fast", "preset"} {
		sink := startSink(t, acceptAll)
		s := settings(sink.addr)
		s.MsgID = strategy
		result, err := Run(s)
		if err != nil {
			t.Fatalf("%s: %v", strategy, err)
		}
		if result.SDK != "go" || result.MsgID != strategy || result.Messages != 1050 || result.Warmup != 300 || result.TimedMessages != 750 {
			t.Errorf("%s: result %+v", strategy, result)
		}
		if result.ElapsedNs <= 0 || result.MsgsPerSec <= 0 || result.RttP50Ns <= 0 || result.RttP50Ns > result.RttP99Ns || result.RttP99Ns > result.RttP999Ns {
			t.Errorf("%s: timings %+v", strategy, result)
		}

		reqs := sink.requests()
		if reqs[0].operation != iggywire.OpLogin || reqs[0].number != 0 || reqs[0].session != 0 {
			t.Fatalf("%s: first request %+v is not the login", strategy, reqs[0])
		}
		if last := reqs[len(reqs)-1]; last.operation != iggywire.OpLogout {
			t.Fatalf("%s: last request has operation %d, not logout", strategy, last.operation)
		}
		next := uint64(0)
		for i, r := range reqs[1 : len(reqs)-1] {
			if r.operation != iggywire.OpSendMessages || r.number != uint64(i+1) || r.session != fakeSession {
				t.Fatalf("%s: request %d: %+v", strategy, i+1, r)
			}
			count := int(binary.LittleEndian.Uint32(r.body[22:]))
			msgLen := 48 + iggywire.PayloadLen(s.Bits, s.Pack)
			for m := range count {
				at := 26 + 256 + m*msgLen + 48
				if got := seqOf(r.body[at:], s.Bits); got != next {
					t.Fatalf("%s: request %d message %d carries seq %d, want %d", strategy, i+1, m, got, next)
				}
				next++
			}
		}
		if next != 1050 {
			t.Fatalf("%s: sink received %d messages, want 1050", strategy, next)
		}
	}
}

func TestRunStopsOnAnErrorStatus(t *testing.T) {
	sink := startSink(t, func(r request) answer {
		if r.number == 3 {
			return answer{status: 4001}
		}
		return acceptAll(r)
	})
	_, err := Run(settings(sink.addr))
	wantError(t, err, "status 4001", "SEND_MESSAGES request 3")
}

func TestRunStopsOnARefusedLogin(t *testing.T) {
	sink := startSink(t, func(request) answer { return answer{status: 42} })
	_, err := Run(settings(sink.addr))
	wantError(t, err, "status 42", "LOGIN_REGISTER")
}

func TestRunStopsWhenTheServerClosesMidRun(t *testing.T) {
	for _, close := range []answer{{hangUp: true}, {reset: true}} {
		sink := startSink(t, func(r request) answer {
			if r.number == 2 {
				return close
			}
			return acceptAll(r)
		})
		_, err := Run(settings(sink.addr))
		wantError(t, err, "closed the connection", "request 2")
	}
}

func TestRunGivesUpOnASilentServer(t *testing.T) {
	defer func(wait time.Duration) { replyWait = wait }(replyWait)
	replyWait = 100 * time.Millisecond
	sink := startSink(t, func(r request) answer {
		if r.number == 1 {
			return answer{silent: true}
		}
		return acceptAll(r)
	})
	start := time.Now()
	_, err := Run(settings(sink.addr))
	wantError(t, err, "no progress within 100ms", "request 1")
	if time.Since(start) > 5*time.Second {
		t.Errorf("gave up after %s", time.Since(start))
	}
}

func TestRunReportsARefusedConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	_, err = Run(settings(addr))
	wantError(t, err, "cannot connect to SERVER "+addr)
}

func wantError(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err, p)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q spans several lines", err)
	}
}

func TestPercentileIsNearestRank(t *testing.T) {
	sorted := make([]time.Duration, 1000)
	for i := range sorted {
		sorted[i] = time.Duration(i + 1)
	}
	for _, c := range []struct{ perMille, want int }{{500, 500}, {990, 990}, {999, 999}} {
		if got := percentile(sorted, c.perMille); got != time.Duration(c.want) {
			t.Errorf("p%d of 1..1000 = %d, want %d", c.perMille, got, c.want)
		}
	}
	if got := percentile(sorted[:1], 999); got != 1 {
		t.Errorf("p99.9 of one sample = %d", got)
	}
}

func TestSettingsAreCheckedBeforeConnecting(t *testing.T) {
	valid := map[string]string{"SERVER": "127.0.0.1:1", "MSG_ID": "fast", "BITS": "42", "PACK": "1", "BATCH": "10", "MESSAGES": "100", "WARMUP": "10"}
	cases := []struct {
		name, value, want string
		unset             bool
	}{
		{name: "MSG_ID", value: "snowflake", want: `unknown MSG_ID "snowflake"`},
		{name: "BITS", value: "0", want: "BITS"},
		{name: "BITS", value: "65", want: "BITS"},
		{name: "BITS", value: "forty", want: "BITS"},
		{name: "PACK", value: "0", want: "PACK"},
		{name: "BATCH", value: "0", want: "BATCH"},
		{name: "MESSAGES", value: "0", want: "MESSAGES"},
		{name: "MESSAGES", value: "5", want: "below BATCH"},
		{name: "WARMUP", value: "91", want: "no timed batch"},
		{name: "WARMUP", value: "-1", want: "WARMUP"},
		{name: "SERVER", want: "SERVER is not set", unset: true},
	}
	for _, c := range cases {
		env := maps.Clone(valid)
		if c.unset {
			delete(env, c.name)
		} else {
			env[c.name] = c.value
		}
		_, err := SettingsFrom(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s=%q: error %v, want one containing %q", c.name, c.value, err, c.want)
		}
	}
	s, err := SettingsFrom(func(k string) (string, bool) { v, ok := valid[k]; return v, ok })
	if err != nil || s != (Settings{Server: "127.0.0.1:1", MsgID: "fast", Bits: 42, Pack: 1, Batch: 10, Messages: 100, Warmup: 10}) {
		t.Errorf("valid settings: %+v, %v", s, err)
	}
}
