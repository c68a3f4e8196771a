package msgid

import (
	"encoding/hex"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
)

func mustHex(t *testing.T, s string) [16]byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 16 {
		t.Fatalf("bad test hex %q", s)
	}
	return [16]byte(b)
}

func TestAcceptsEveryInputType(t *testing.T) {
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
	cases := []struct {
		input any
		want  string
	}{
		{uint64(1), "01000000000000000000000000000000"},
		{uint64(math.MaxUint64), "ffffffffffffffff0000000000000000"},
		{0, "00000000000000000000000000000000"},
		{int64(0x0102), "02010000000000000000000000000000"},
		{float64(1 << 60), "00000000000000100000000000000000"},
		{max, "ffffffffffffffffffffffffffffffff"},
		{"340282366920938463463374607431768211455", "ffffffffffffffffffffffffffffffff"},
		{"18446744073709551616", "00000000000000000100000000000000"},
		{[]byte("0123456789abcdef"), hex.EncodeToString([]byte("0123456789abcdef"))},
	}
	for _, c := range cases {
		got, err := Serialize(c.input)
		if err != nil {
			t.Errorf("Serialize(%v): %v", c.input, err)
			continue
		}
		if got != mustHex(t, c.want) {
			t.Errorf("Serialize(%v) = %x, want %s", c.input, got, c.want)
		}
	}
}

func TestRejectsWithKindNamingInputAndBound(t *testing.T) {
	cases := []struct {
		input any
		kind  Kind
	}{
		{-1, Negative},
		{int64(math.MinInt64), Negative},
		{big.NewInt(-5), Negative},
		{"-7", Negative},
		{-2.5, Negative},
		{"340282366920938463463374607431768211456", TooLarge},
		{new(big.Int).Lsh(big.NewInt(1), 200), TooLarge},
		{math.Ldexp(1, 128), TooLarge},
		{math.Inf(1), TooLarge},
		{1.5, NotInteger},
		{"1.5", Invalid},
		{"1e3", Invalid},
		{"", Invalid},
		{"12abc", Invalid},
		{" 1", Invalid},
		{"0x10", Invalid},
		{math.NaN(), Invalid},
		{[]byte{1, 2, 3}, Invalid},
		{(*big.Int)(nil), Invalid},
		{struct{}{}, Invalid},
	}
	for _, c := range cases {
		got, err := Serialize(c.input)
		var idErr *Error
		if !errors.As(err, &idErr) {
			t.Errorf("Serialize(%#v) = %x, %v; want a %s error", c.input, got, err, c.kind)
			continue
		}
		if idErr.Kind != c.kind {
			t.Errorf("Serialize(%#v): kind %s, want %s", c.input, idErr.Kind, c.kind)
		}
		if msg := err.Error(); !strings.Contains(msg, idErr.Input) || !strings.Contains(msg, "2^128-1") {
			t.Errorf("Serialize(%#v): message %q names neither input nor bound", c.input, msg)
		}
	}
}
