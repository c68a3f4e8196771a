package iggywire

// payloadXor keeps payload bytes away from runs of zeroes.
const payloadXor = 0xA5A5A5A5A5A5A5A5

// PayloadLen is the size of a message carrying pack values of bits bits.
func PayloadLen(bits, pack int) int {
	return pack * valueBytes(bits)
}

func valueBytes(bits int) int { return (bits + 7) / 8 }

// PutPayload writes the payload of message seq into dst[:PayloadLen(bits, pack)]:
// value i is ((seq+i) XOR payloadXor) masked to bits, in its low bytes,
// little-endian. The sink decodes seq from value 0 and checks the rest.
func PutPayload(dst []byte, seq uint64, bits, pack int) {
	mask := ^uint64(0) >> (64 - bits)
	width := valueBytes(bits)
	for i := range pack {
		v := ((seq + uint64(i)) ^ payloadXor) & mask
		for b := range width {
			dst[i*width+b] = byte(v >> (8 * b))
		}
	}
}
