package producer

import (
	crand "crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"mintbench/sdks/go/iggywire"
)

// replyWait bounds the connect and every reply, so a stalled sink cannot hang
// a run. A variable so that tests need not wait the full bound.
var replyWait = 10 * time.Second

// maxReplySize rejects a garbled size before allocating for it.
const maxReplySize = 1 << 24

// conn is one logged-in connection with exactly one request in flight.
type conn struct {
	tcp    *net.TCPConn
	server string
	req    iggywire.Request
	header [iggywire.HeaderSize]byte
	body   []byte
}

func dial(server string) (*conn, error) {
	c, err := net.DialTimeout("tcp", server, replyWait)
	if err != nil {
		return nil, fmt.Errorf("cannot connect to SERVER %s: %w", server, err)
	}
	tcp := c.(*net.TCPConn)
	if err := tcp.SetNoDelay(true); err != nil {
		tcp.Close()
		return nil, fmt.Errorf("cannot set TCP_NODELAY towards %s: %w", server, err)
	}
	return &conn{tcp: tcp, server: server, req: iggywire.Request{Client: randomNonZero()}}, nil
}

func randomNonZero() [16]byte {
	for {
		var b [16]byte
		crand.Read(b[:])
		if b != ([16]byte{}) {
			return b
		}
	}
}

// login registers the connection; later requests carry its session.
func (c *conn) login() error {
	c.req.RequestChecksum = randomNonZero()
	body, err := c.roundTrip(iggywire.Login(&c.req, iggywire.Producer), iggywire.OpLogin, "LOGIN_REGISTER")
	c.req.RequestChecksum = [16]byte{}
	if err != nil {
		return err
	}
	session, err := iggywire.SessionFromLogin(body)
	if err != nil {
		return fmt.Errorf("server %s: %w", c.server, err)
	}
	c.req.Session = session
	return nil
}

func (c *conn) logout() error {
	_, err := c.roundTrip(iggywire.Logout(&c.req), iggywire.OpLogout, "LOGOUT")
	return err
}

func (c *conn) close() { c.tcp.Close() }

// roundTrip sends frame (built with c.req) and waits for its reply, returning
// the reply body, valid until the next call. It then numbers the next request.
func (c *conn) roundTrip(frame []byte, operation byte, name string) ([]byte, error) {
	what := fmt.Sprintf("%s request %d", name, c.req.Number)
	if err := c.tcp.SetDeadline(time.Now().Add(replyWait)); err != nil {
		return nil, fmt.Errorf("server %s: %w", c.server, err)
	}
	if _, err := c.tcp.Write(frame); err != nil {
		return nil, c.ioError("sending", what, err)
	}
	if _, err := io.ReadFull(c.tcp, c.header[:]); err != nil {
		return nil, c.ioError("awaiting the reply to", what, err)
	}
	reply, err := iggywire.ParseReply(c.header[:])
	switch {
	case err != nil:
		return nil, fmt.Errorf("server %s, reply to %s: %w", c.server, what, err)
	case reply.Size > maxReplySize:
		return nil, fmt.Errorf("server %s, reply to %s: size %d is over %d", c.server, what, reply.Size, maxReplySize)
	case reply.Number != c.req.Number || reply.Operation != operation:
		return nil, fmt.Errorf("server %s answered request %d operation %d to %s", c.server, reply.Number, reply.Operation, what)
	}
	c.body = c.body[:0]
	c.body = append(c.body, make([]byte, reply.Size-iggywire.HeaderSize)...)
	if _, err := io.ReadFull(c.tcp, c.body); err != nil {
		return nil, c.ioError("reading the reply to", what, err)
	}
	if reply.Status != 0 {
		return nil, fmt.Errorf("server %s replied status %d to %s", c.server, reply.Status, what)
	}
	c.req.Number++
	return c.body, nil
}

func (c *conn) ioError(doing, what string, err error) error {
	var errno syscall.Errno
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("server %s closed the connection while %s %s", c.server, doing, what)
	case errors.As(err, &errno) && (errno == syscall.ECONNRESET || errno == syscall.EPIPE):
		return fmt.Errorf("server %s closed the connection while %s %s (%v)", c.server, doing, what, errno)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("server %s: no progress within %s while %s %s", c.server, replyWait, doing, what)
	default:
		return fmt.Errorf("server %s: %s %s: %w", c.server, doing, what, err)
	}
}
