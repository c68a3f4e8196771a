package producer

import (
	"encoding/binary"
	"encoding/json"
	"maps"
	"net"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"mintbench/sdks/go/iggywire"
	"mintbench/sdks/go/internal/vectors"
)

func settings(server string) Settings {
	return Settings{Server: server, MsgIDs: []string{"fast"}, SendPath: "lean", Bits: 42, Pack: 2, Batch: 100, Messages: 1050, Warmup: 250}
}

// seqOf decodes the sequence number carried by a payload's first value.
func seqOf(payload []byte, bits int) uint64 {
	var v [8]byte
	copy(v[:], payload[:(bits+7)/8])
	return (binary.LittleEndian.Uint64(v[:]) ^ 0xA5A5A5A5A5A5A5A5) & (^uint64(0) >> (64 - bits))
}

// sentSeqs checks the requests a fake sink saw (login, SEND_MESSAGES..., logout)
// and returns each SEND_MESSAGES request's (first seq, count); the seqs must
// run 0, 1, 2, ... without a gap.
func sentSeqs(t *testing.T, reqs []request, bits, pack int) [][2]int {
	t.Helper()
	if reqs[0].operation != iggywire.OpLogin || reqs[0].number != 0 || reqs[0].session != 0 {
		t.Fatalf("first request %+v is not the login", reqs[0])
	}
	if last := reqs[len(reqs)-1]; last.operation != iggywire.OpLogout {
		t.Fatalf("last request has operation %d, not logout", last.operation)
	}
	var batches [][2]int
	next := uint64(0)
	for i, r := range reqs[1 : len(reqs)-1] {
		if r.operation != iggywire.OpSendMessages || r.number != uint64(i+1) || r.session != fakeSession {
			t.Fatalf("request %d: %+v", i+1, r)
		}
		count := int(binary.LittleEndian.Uint32(r.body[22:]))
		batches = append(batches, [2]int{int(next), count})
		msgLen := 48 + iggywire.PayloadLen(bits, pack)
		for m := range count {
			at := 26 + 256 + m*msgLen + 48
			if got := seqOf(r.body[at:], bits); got != next {
				t.Fatalf("request %d message %d carries seq %d, want %d", i+1, m, got, next)
			}
			next++
		}
	}
	return batches
}

// wantKeys checks the JSON result line has exactly the contract's keys.
func wantKeys(t *testing.T, result any, keys ...string) {
	t.Helper()
	line, err := json.Marshal(result)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(fields))
	if want := slices.Sorted(slices.Values(keys)); !slices.Equal(got, want) {
		t.Errorf("result keys %v, want %v", got, want)
	}
	if seed, ok := fields["seed"]; ok && seed[0] != '"' {
		t.Errorf("seed %s is not a JSON string", seed)
	}
}

func TestRunSendsEveryMessageOnceInOrderAndReportsTheTimedWindow(t *testing.T) {
	for _, path := range sendPaths {
		for _, strategy := range []string{"uuid", "fast", "preset", "counter"} {
			sink := startSink(t, acceptAll)
			s := settings(sink.addr)
			s.MsgIDs, s.SendPath = []string{strategy}, path.name
			out, err := Run(s)
			if err != nil {
				t.Fatalf("%s %s: %v", path.name, strategy, err)
			}
			wantKeys(t, out, "sdk", "msg_id", "send_path", "messages", "warmup", "timed_messages", "elapsed_ns", "msgs_per_sec",
				"injected_ns", "rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "alloc_bytes_per_msg")
			result := out.(Result)
			if result.SDK != "go" || result.MsgID != strategy || result.SendPath != path.name || result.Messages != 1050 || result.Warmup != 300 || result.TimedMessages != 750 || result.InjectedNs != 0 {
				t.Errorf("%s %s: result %+v", path.name, strategy, result)
			}
			if result.ElapsedNs <= 0 || result.MsgsPerSec <= 0 || result.RttP50Ns <= 0 || result.RttP50Ns > result.RttP99Ns || result.RttP99Ns > result.RttP999Ns || result.AllocBytesPerMsg <= 0 {
				t.Errorf("%s %s: timings %+v", path.name, strategy, result)
			}
			batches := sentSeqs(t, sink.requests(), s.Bits, s.Pack)
			if len(batches) != 11 || batches[10] != [2]int{1000, 50} {
				t.Fatalf("%s %s: batches %v, want 11 ending with 50 messages", path.name, strategy, batches)
			}
		}
	}
}

// Paired mode against the fake sink, with the block order of the shared
// vectors: every arm sends one batch per block in that order, the sink sees
// one numbering across the arms, and each arm reports its timed blocks.
func TestPairedRunFollowsTheBlockOrderAndReportsEachArm(t *testing.T) {
	v := vectors.Load(t)
	for _, path := range sendPaths {
		for _, c := range v.BlockOrders {
			if c.Arms != 3 || c.Seed != "42" {
				continue
			}
			sink := startSink(t, acceptAll)
			s := settings(sink.addr)
			s.Paired, s.Seed, s.SendPath, s.MsgIDs = true, 42, path.name, []string{"uuid", "fast", "preset"}
			s.Messages, s.Warmup = 750, 150 // 8 blocks, the last of 50 messages; 2 of warm-up
			arms := make([]*arm, 3)
			var sentBy []int
			for i := range arms {
				arms[i], _ = newArm(s, i)
				encode := arms[i].encode
				arms[i].encode = func(r *iggywire.Request, firstSeq uint64, count int) ([]byte, error) {
					sentBy = append(sentBy, i)
					return encode(r, firstSeq, count)
				}
			}
			out, err := run(s, arms)
			if err != nil {
				t.Fatalf("%s: %v", path.name, err)
			}
			want := slices.Concat(c.Blocks...)
			if !slices.Equal(sentBy, want) {
				t.Errorf("%s: arms sent in order %v, want the blocks %v", path.name, sentBy, c.Blocks)
			}
			batches := sentSeqs(t, sink.requests(), s.Bits, s.Pack)
			if len(batches) != 24 || batches[23][0]+batches[23][1] != 3*750 || batches[21][1] != 50 {
				t.Fatalf("%s: the sink saw batches %v", path.name, batches)
			}

			wantKeys(t, out, "sdk", "paired", "seed", "send_path", "messages", "warmup", "blocks", "arms")
			r := out.(PairedResult)
			if r.SDK != "go" || !r.Paired || r.Seed != "42" || r.SendPath != path.name || r.Messages != 750 || r.Warmup != 200 || r.Blocks != 6 || len(r.Arms) != 3 {
				t.Fatalf("%s: result %+v", path.name, r)
			}
			for i, a := range r.Arms {
				wantKeys(t, a, "msg_id", "timed_messages", "elapsed_ns", "msgs_per_sec", "injected_ns", "rtt_p50_ns", "rtt_p99_ns", "rtt_p999_ns", "batch_ns")
				if a.MsgID != s.MsgIDs[i] || a.TimedMessages != 550 || len(a.BatchNs) != 6 || a.InjectedNs != 0 || a.MsgsPerSec <= 0 {
					t.Errorf("%s: arm %d %+v", path.name, i, a)
				}
				// Nearest rank over the arm's 6 timed round trips: p50 is the 3rd
				// smallest, p99 and p99.9 the largest; none is a warm-up one.
				rtts := arms[i].rttNs
				if len(rtts) != 6 {
					t.Fatalf("%s: arm %d kept %d round trips, want its 6 timed batches", path.name, i, len(rtts))
				}
				for k, ns := range rtts {
					if ns <= 0 || ns > a.BatchNs[k] {
						t.Errorf("%s: arm %d round trip %d ns outside its batch time %d", path.name, i, ns, a.BatchNs[k])
					}
				}
				sorted := slices.Sorted(slices.Values(rtts))
				if a.RttP50Ns != sorted[2] || a.RttP99Ns != sorted[5] || a.RttP999Ns != sorted[5] {
					t.Errorf("%s: arm %d round trips p50 %d, p99 %d, p99.9 %d, want %d, %d, %d of %v",
						path.name, i, a.RttP50Ns, a.RttP99Ns, a.RttP999Ns, sorted[2], sorted[5], sorted[5], rtts)
				}
				var sum int64
				for _, ns := range a.BatchNs {
					if ns <= 0 {
						t.Errorf("%s: arm %d batch time %d", path.name, i, ns)
					}
					sum += ns
				}
				if a.ElapsedNs != sum {
					t.Errorf("%s: arm %d elapsed %d is not the sum %d of its batches", path.name, i, a.ElapsedNs, sum)
				}
			}
		}
	}
}

// Injected work is spun per batch before the frame is built and counted for
// timed batches only: at least n*INJECT_NS per timed batch, inside the times.
func TestInjectedWorkIsMeasuredForTheChosenArm(t *testing.T) {
	const injectNs = 20000.5 // a decimal: each batch spins count times it, to the nearest ns
	sink := startSink(t, acceptAll)
	s := settings(sink.addr)
	s.Messages, s.Warmup, s.InjectNs = 500, 100, injectNs
	out, err := Run(s)
	if err != nil {
		t.Fatal(err)
	}
	one := out.(Result)
	if one.InjectedNs < int64(400*injectNs) || one.InjectedNs > one.ElapsedNs {
		t.Errorf("one arm: injected %d ns, want at least %d and at most the elapsed %d", one.InjectedNs, int64(400*injectNs), one.ElapsedNs)
	}

	sink = startSink(t, acceptAll)
	s = settings(sink.addr)
	s.Paired, s.MsgIDs, s.InjectNs, s.InjectArm = true, []string{"fast", "fast", "fast"}, injectNs, 1
	s.Messages, s.Warmup = 500, 100
	out, err = Run(s)
	if err != nil {
		t.Fatal(err)
	}
	arms := out.(PairedResult).Arms
	if arms[0].InjectedNs != 0 || arms[2].InjectedNs != 0 {
		t.Errorf("arms without injection report %d and %d ns", arms[0].InjectedNs, arms[2].InjectedNs)
	}
	if got := arms[1].InjectedNs; got < int64(400*injectNs) || got > arms[1].ElapsedNs {
		t.Errorf("injected arm: %d ns, want at least %d and at most its elapsed %d", got, int64(400*injectNs), arms[1].ElapsedNs)
	}
	for _, ns := range arms[1].BatchNs {
		if ns < int64(100*injectNs) {
			t.Errorf("an injected batch took %d ns, below its %d ns of injected work", ns, int64(100*injectNs))
		}
	}
}

func TestSpinLastsAtLeastItsTimeFromTheBatchStart(t *testing.T) {
	start := time.Now()
	spun := spin(start, time.Millisecond)
	if spun < time.Millisecond || spun > time.Since(start) {
		t.Errorf("spun %s for 1ms, within %s", spun, time.Since(start))
	}
	// Time already past since the batch's start counts toward the target.
	if spun := spin(time.Now().Add(-50*time.Millisecond), time.Millisecond); spun < 50*time.Millisecond {
		t.Errorf("a start 50ms ago spun %s", spun)
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
	sorted := make([]int64, 1000)
	for i := range sorted {
		sorted[i] = int64(i + 1)
	}
	for _, c := range []struct{ perMille, want int }{{500, 500}, {990, 990}, {999, 999}} {
		if got := percentile(sorted, c.perMille); got != int64(c.want) {
			t.Errorf("p%d of 1..1000 = %d, want %d", c.perMille, got, c.want)
		}
	}
	if got := percentile(sorted[:1], 999); got != 1 {
		t.Errorf("p99.9 of one sample = %d", got)
	}
}

func TestSettingsAreCheckedBeforeConnecting(t *testing.T) {
	valid := map[string]string{"SERVER": "127.0.0.1:1", "MSG_ID": "fast", "BITS": "42", "PACK": "1", "BATCH": "10", "MESSAGES": "100", "WARMUP": "10",
		"MODE": "producer", "PAIRED": "0", "SEED": "7", "SEND_PATH": "lean", "INJECT_NS": "0", "INJECT_ARM": "0"}
	cases := []struct {
		env   map[string]string
		want  string
		unset string
	}{
		{env: map[string]string{"MSG_ID": "snowflake"}, want: "MSG_ID=snowflake is unknown; expected one of uuid, uuidpool, cryptorand, fast, preset, counter"},
		{env: map[string]string{"MSG_ID": "uuidpool", "SEND_PATH": "faithful"}, want: "MSG_ID=uuidpool is unknown; expected one of uuid, fast, preset, counter"},
		{env: map[string]string{"MSG_ID": "uuid,fast"}, want: "MSG_ID=uuid,fast is unknown"},
		{env: map[string]string{"MSG_ID": "uuid,", "PAIRED": "1"}, want: "MSG_ID= is unknown"},
		{env: map[string]string{"MODE": "mint"}, want: "MODE=mint is unknown"},
		{env: map[string]string{"SEND_PATH": "verbose"}, want: "SEND_PATH=verbose is unknown; expected one of lean, faithful"},
		{env: map[string]string{"PAIRED": "2"}, want: "PAIRED"},
		{env: map[string]string{"PAIRED": "1"}, want: "PAIRED=1 needs at least two arms"},
		{env: map[string]string{"PAIRED": "1", "MSG_ID": "uuid,uuidpool"}, want: "cannot share a process"},
		{env: map[string]string{"PAIRED": "1", "MSG_ID": "uuid,fast", "INJECT_ARM": "2"}, want: "INJECT_ARM=2 is outside"},
		{env: map[string]string{"INJECT_ARM": "1"}, want: "INJECT_ARM=1 is outside"},
		{env: map[string]string{"INJECT_NS": "-5"}, want: `INJECT_NS="-5": must be a decimal number of ns in 0..=1000000000`},
		{env: map[string]string{"INJECT_NS": "abc"}, want: `INJECT_NS="abc": must be a decimal`},
		{env: map[string]string{"INJECT_NS": "1e3"}, want: `INJECT_NS="1e3": must be a decimal`},
		{env: map[string]string{"INJECT_NS": "1.2.3"}, want: `INJECT_NS="1.2.3": must be a decimal`},
		{env: map[string]string{"INJECT_NS": "1000000000.5"}, want: `INJECT_NS="1000000000.5": must be a decimal`},
		{env: map[string]string{"SEED": "-1"}, want: "SEED"},
		{env: map[string]string{"SEED": "18446744073709551616"}, want: "SEED"},
		{env: map[string]string{"BITS": "0"}, want: "BITS"},
		{env: map[string]string{"BITS": "65"}, want: "BITS"},
		{env: map[string]string{"BITS": "forty"}, want: "BITS"},
		{env: map[string]string{"PACK": "0"}, want: "PACK"},
		{env: map[string]string{"BATCH": "0"}, want: "BATCH"},
		{env: map[string]string{"MESSAGES": "0"}, want: "MESSAGES"},
		{env: map[string]string{"MESSAGES": "5"}, want: "below BATCH"},
		{env: map[string]string{"WARMUP": "91"}, want: "no timed batch"},
		{env: map[string]string{"WARMUP": "-1"}, want: "WARMUP"},
		{unset: "SERVER", want: "SERVER is not set"},
		{unset: "MSG_ID", want: "MSG_ID is not set"},
	}
	for _, c := range cases {
		env := maps.Clone(valid)
		maps.Copy(env, c.env)
		delete(env, c.unset)
		_, err := SettingsFrom(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v without %q: error %v, want one containing %q", c.env, c.unset, err, c.want)
		}
	}

	s, err := SettingsFrom(func(k string) (string, bool) { v, ok := valid[k]; return v, ok })
	want := Settings{Server: "127.0.0.1:1", MsgIDs: []string{"fast"}, Seed: 7, SendPath: "lean", Bits: 42, Pack: 1, Batch: 10, Messages: 100, Warmup: 10}
	if err != nil || !reflect.DeepEqual(s, want) {
		t.Errorf("valid settings: %+v, %v", s, err)
	}
	paired := maps.Clone(valid)
	maps.Copy(paired, map[string]string{"PAIRED": "1", "MSG_ID": "uuid,fast,uuid", "SEND_PATH": "faithful", "SEED": "18446744073709551615", "INJECT_NS": "50.25", "INJECT_ARM": "2"})
	s, err = SettingsFrom(func(k string) (string, bool) { v, ok := paired[k]; return v, ok })
	if err != nil || !s.Paired || !slices.Equal(s.MsgIDs, []string{"uuid", "fast", "uuid"}) || s.Seed != ^uint64(0) || s.InjectNs != 50.25 || s.InjectArm != 2 || s.SendPath != "faithful" {
		t.Errorf("paired settings: %+v, %v", s, err)
	}
	// Unset, the settings of the extended contract mean one lean arm, no injection.
	for _, k := range []string{"MODE", "PAIRED", "SEED", "SEND_PATH", "INJECT_NS", "INJECT_ARM"} {
		delete(valid, k)
	}
	s, err = SettingsFrom(func(k string) (string, bool) { v, ok := valid[k]; return v, ok })
	want.Seed = 0
	if err != nil || !reflect.DeepEqual(s, want) {
		t.Errorf("settings without the extended ones: %+v, %v", s, err)
	}
}
