// Package msgid turns the message IDs callers hand to a producer (numbers, big
// integers, decimal strings, raw bytes) into the 16 little-endian bytes of the
// wire. Anything outside 0..=2^128-1 is an error, never a truncated value.
package msgid

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
)

// Kind names why an input was rejected; the values match sdks/vectors.json.
type Kind string

const (
	Negative   Kind = "negative"
	TooLarge   Kind = "too_large"
	NotInteger Kind = "not_integer"
	Invalid    Kind = "invalid"
)

// Error names the rejected input and the bound it broke.
type Error struct {
	Input string
	Kind  Kind
}

func (e *Error) Error() string {
	why := map[Kind]string{
		Negative:   "is negative",
		TooLarge:   "is too large",
		NotInteger: "is not an integer",
		Invalid:    "is neither a decimal integer nor 16 bytes",
	}[e.Kind]
	return fmt.Sprintf("message id %s %s: it must be an integer in 0..=2^128-1", e.Input, why)
}

var (
	maxID = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
	// Decimal strings are integers, digits only: "1.5", "1e3" or " 12" are
	// invalid rather than read loosely, as in the Rust reference.
	decimalInt = regexp.MustCompile(`^-?[0-9]+$`)
)

// Serialize is the contract's serializeMessageId (sdks/README.md): it returns
// the 16 little-endian bytes of id, which may be any Go integer type, a
// float64 holding an integer, a *big.Int, a decimal string, or exactly 16
// bytes (taken as they are).
func Serialize(id any) ([16]byte, error) {
	switch v := id.(type) {
	case uint64:
		return fromBig(new(big.Int).SetUint64(v), v)
	case uint:
		return fromBig(new(big.Int).SetUint64(uint64(v)), v)
	case uint32:
		return fromBig(new(big.Int).SetUint64(uint64(v)), v)
	case int64:
		return fromBig(big.NewInt(v), v)
	case int:
		return fromBig(big.NewInt(int64(v)), v)
	case int32:
		return fromBig(big.NewInt(int64(v)), v)
	case float64:
		return fromFloat(v)
	case *big.Int:
		if v == nil {
			return [16]byte{}, &Error{Input: "<nil>", Kind: Invalid}
		}
		return fromBig(v, v)
	case string:
		return fromDecimal(v)
	case []byte:
		if len(v) != 16 {
			return [16]byte{}, &Error{Input: fmt.Sprintf("%d bytes %x", len(v), v), Kind: Invalid}
		}
		return [16]byte(v), nil
	case [16]byte:
		return v, nil
	default:
		return [16]byte{}, &Error{Input: fmt.Sprintf("%v (%T)", id, id), Kind: Invalid}
	}
}

func fromBig(n *big.Int, input any) ([16]byte, error) {
	switch {
	case n.Sign() < 0:
		return [16]byte{}, &Error{Input: fmt.Sprint(input), Kind: Negative}
	case n.Cmp(maxID) > 0:
		return [16]byte{}, &Error{Input: fmt.Sprint(input), Kind: TooLarge}
	}
	var out [16]byte
	n.FillBytes(out[:]) // big-endian
	for i, j := 0, 15; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

func fromFloat(f float64) ([16]byte, error) {
	input := fmt.Sprint(f)
	switch {
	case math.IsNaN(f):
		return [16]byte{}, &Error{Input: input, Kind: Invalid}
	case f < 0:
		return [16]byte{}, &Error{Input: input, Kind: Negative}
	case math.IsInf(f, 1):
		return [16]byte{}, &Error{Input: input, Kind: TooLarge}
	case f != math.Trunc(f):
		return [16]byte{}, &Error{Input: input, Kind: NotInteger}
	}
	n, _ := big.NewFloat(f).Int(nil) // exact: f is an integer
	return fromBig(n, input)
}

func fromDecimal(s string) ([16]byte, error) {
	quoted := fmt.Sprintf("%q", s)
	if !decimalInt.MatchString(s) {
		return [16]byte{}, &Error{Input: quoted, Kind: Invalid}
	}
	n, _ := new(big.Int).SetString(s, 10)
	return fromBig(n, quoted)
}
