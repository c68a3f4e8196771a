package faithful

import (
	"sync"

	"mintbench/sdks/go/iggywire"
)

// The SDK's TCP client encodes each request into a buffer from a process-wide
// pool: the zeroed header space first, then the command appended after it,
// then the header stamped in place. A buffer that grew past maxPooled is
// dropped rather than pooled, so large batches start from a fresh one.
const maxPooled = 64 * 1024

var requestPrologue [iggywire.HeaderSize]byte

var requestBufPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 256)
	return &b
}}

func acquireRequestBuf() *[]byte { return requestBufPool.Get().(*[]byte) }

func releaseRequestBuf(b *[]byte) {
	if cap(*b) > maxPooled {
		return
	}
	*b = (*b)[:0]
	requestBufPool.Put(b)
}

// appendRequest encodes cmd as a whole request frame into *buf.
func appendRequest(buf *[]byte, r *iggywire.Request, cmd *SendMessages) ([]byte, error) {
	frame, err := cmd.AppendBinary(append((*buf)[:0], requestPrologue[:]...))
	if err != nil {
		return nil, err
	}
	*buf = frame
	iggywire.PutHeader(frame, iggywire.OpSendMessages, r)
	return frame, nil
}
