package msgid

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"testing"

	"mintbench/sdks/go/internal/vectors"
)

// asAccepted lists every Go form of a decimal ID: the string, a *big.Int,
// and a uint64 when it fits.
func asAccepted(decimal string) []any {
	forms := []any{decimal}
	if n, ok := new(big.Int).SetString(decimal, 10); ok {
		forms = append(forms, n)
	}
	if u, err := strconv.ParseUint(decimal, 10, 64); err == nil {
		forms = append(forms, u)
	}
	return forms
}

func TestVectorIDsSerializeToTheirBytes(t *testing.T) {
	v := vectors.Load(t)
	if len(v.IDs) == 0 {
		t.Fatal("no ids in the vectors")
	}
	for _, c := range v.IDs {
		want := vectors.Bytes(t, c.LEHex)
		for _, form := range append(asAccepted(c.Decimal), want) {
			got, err := Serialize(form)
			if err != nil || !bytes.Equal(got[:], want) {
				t.Errorf("Serialize(%T %v) = %x, %v; want %x", form, form, got, err, want)
			}
		}
	}
}

// asRejected lists the Go forms of a rejected JSON input: a string as it
// is and, when it reads as an integer, as a *big.Int; a number as int64
// when it is one, else as float64.
func asRejected(t *testing.T, input json.RawMessage) []any {
	var s string
	if json.Unmarshal(input, &s) == nil {
		forms := []any{s}
		if n, ok := new(big.Int).SetString(s, 10); ok {
			forms = append(forms, n)
		}
		return forms
	}
	if i, err := strconv.ParseInt(string(input), 10, 64); err == nil {
		return []any{i}
	}
	f, err := strconv.ParseFloat(string(input), 64)
	if err != nil {
		t.Fatalf("rejected input %s is neither a string nor a number", input)
	}
	return []any{f}
}

func TestVectorRejectionsRaiseTheirKind(t *testing.T) {
	v := vectors.Load(t)
	if len(v.Rejected) == 0 {
		t.Fatal("no rejected inputs in the vectors")
	}
	for _, c := range v.Rejected {
		for _, form := range asRejected(t, c.Input) {
			got, err := Serialize(form)
			var idErr *Error
			if !errors.As(err, &idErr) || string(idErr.Kind) != c.Kind {
				t.Errorf("Serialize(%T %v) = %x, %v; want a %s error", form, form, got, err, c.Kind)
			}
		}
	}
}
