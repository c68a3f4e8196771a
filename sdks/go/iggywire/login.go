package iggywire

import (
	"encoding/binary"
	"fmt"
)

const protocolVersion = 0x3002 // 0.12.2 as major<<20 | minor<<10 | patch

// Identity is who a login says it is.
type Identity struct {
	SDKName, SDKVersion, Username, Password string
}

// Producer is the identity of this SDK's benchmark producer.
var Producer = Identity{SDKName: "mintbench-go", SDKVersion: "0.1.0", Username: "iggy", Password: "iggy"}

// Login returns the LOGIN_REGISTER frame for id.
func Login(r *Request, id Identity) []byte {
	var body []byte
	body = binary.LittleEndian.AppendUint32(body, protocolVersion)
	body = appendShortString(body, id.SDKName)
	body = appendShortString(body, id.SDKVersion)
	body = append(body, make([]byte, 32)...) // bind secret: none
	body = appendShortString(body, id.Username)
	body = appendShortString(body, id.Password)
	body = binary.LittleEndian.AppendUint32(body, 0) // no context
	return Frame(r, OpLogin, body)
}

func appendShortString(b []byte, s string) []byte {
	return append(append(b, byte(len(s))), s...)
}

// SessionFromLogin reads the session from a successful login reply's body.
func SessionFromLogin(body []byte) (uint64, error) {
	if len(body) < 16 {
		return 0, fmt.Errorf("login reply body has %d bytes, want at least 16", len(body))
	}
	session := binary.LittleEndian.Uint64(body[8:16])
	if session == 0 {
		return 0, fmt.Errorf("login reply carries session 0")
	}
	return session, nil
}

// Logout returns the LOGOUT frame (no body).
func Logout(r *Request) []byte {
	return Frame(r, OpLogout, nil)
}
