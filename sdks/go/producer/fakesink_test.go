package producer

import (
	"encoding/binary"
	"io"
	"net"
	"sync"
	"testing"

	"mintbench/sdks/go/iggywire"
)

// request is what the fake sink saw of one request.
type request struct {
	operation byte
	number    uint64
	session   uint64
	body      []byte
}

// answer tells the fake sink how to reply; hangUp closes the connection
// instead, reset aborts it (RST), silent leaves the request unanswered.
type answer struct {
	status                uint32
	body                  []byte
	hangUp, reset, silent bool
}

// fakeSink serves one connection on loopback, answering each request with
// decide, and records every request it saw.
type fakeSink struct {
	addr string
	mu   sync.Mutex
	seen []request
}

const fakeSession = 0xC0FFEE

func startSink(t *testing.T, decide func(request) answer) *fakeSink {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &fakeSink{addr: ln.Addr().String()}
	done := make(chan struct{})
	t.Cleanup(func() { ln.Close(); <-done })
	go func() {
		defer close(done)
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		s.serve(c, decide)
	}()
	return s
}

func (s *fakeSink) serve(c net.Conn, decide func(request) answer) {
	le := binary.LittleEndian
	for {
		head := make([]byte, iggywire.HeaderSize)
		if _, err := io.ReadFull(c, head); err != nil {
			return
		}
		req := request{operation: head[176], number: le.Uint64(head[168:]), session: le.Uint64(head[184:])}
		req.body = make([]byte, le.Uint32(head[48:])-iggywire.HeaderSize)
		if _, err := io.ReadFull(c, req.body); err != nil {
			return
		}
		s.mu.Lock()
		s.seen = append(s.seen, req)
		s.mu.Unlock()
		a := decide(req)
		if a.reset {
			c.(*net.TCPConn).SetLinger(0) // close with RST, not FIN
		}
		if a.hangUp || a.reset {
			return
		}
		if a.silent {
			continue
		}
		reply := make([]byte, iggywire.HeaderSize, iggywire.HeaderSize+len(a.body))
		reply = append(reply, a.body...)
		le.PutUint32(reply[48:], uint32(len(reply)))
		reply[60] = 8
		le.PutUint64(reply[200:], req.number)
		reply[208] = req.operation
		le.PutUint32(reply[216:], a.status)
		if _, err := c.Write(reply); err != nil {
			return
		}
	}
}

func (s *fakeSink) requests() []request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen
}

// acceptAll logs in with fakeSession and acknowledges everything.
func acceptAll(r request) answer {
	if r.operation == iggywire.OpLogin {
		body := make([]byte, 16)
		binary.LittleEndian.PutUint64(body[8:], fakeSession)
		return answer{body: body}
	}
	return answer{}
}
