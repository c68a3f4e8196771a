//! The benchmark payload: PACK values of BITS bits, each in ceil(BITS/8) little-endian bytes,
//! derived from the message's sequence number so the sink can check delivery (sdks/README.md).

/// XORed into every value so that no payload is a run of zeroes, whatever the sequence number.
const PATTERN: u64 = 0xA5A5_A5A5_A5A5_A5A5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PayloadSpec {
    bits: u32,
    pack: u32,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PayloadSpecError {
    #[error("BITS={0} is out of range: it must be 1..=64")]
    Bits(u32),
    #[error("PACK=0 is out of range: it must be at least 1")]
    Pack,
}

impl PayloadSpec {
    pub fn new(bits: u32, pack: u32) -> Result<Self, PayloadSpecError> {
        if !(1..=64).contains(&bits) {
            return Err(PayloadSpecError::Bits(bits));
        }
        if pack == 0 {
            return Err(PayloadSpecError::Pack);
        }
        Ok(PayloadSpec { bits, pack })
    }

    pub fn bits(&self) -> u32 {
        self.bits
    }

    pub fn pack(&self) -> u32 {
        self.pack
    }

    fn value_len(&self) -> usize {
        self.bits.div_ceil(8) as usize
    }

    fn mask(&self) -> u64 {
        u64::MAX >> (64 - self.bits)
    }

    /// Payload bytes per message (never zero).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.value_len() * self.pack as usize
    }

    pub fn value(&self, seq: u64, i: u32) -> u64 {
        (seq.wrapping_add(u64::from(i)) ^ PATTERN) & self.mask()
    }

    /// Writes message `seq`'s payload into `out`, which is exactly [`Self::len`] bytes.
    pub fn write(&self, seq: u64, out: &mut [u8]) {
        let n = self.value_len();
        // Whole 8-byte stores while they fit: each one's spare high bytes are zero and are
        // overwritten by the next value, so the hot path avoids a short copy per value.
        let wide = self.wide_values(out.len());
        for i in 0..wide {
            out[i * n..i * n + 8].copy_from_slice(&self.value(seq, i as u32).to_le_bytes());
        }
        for i in wide..self.pack as usize {
            out[i * n..i * n + n].copy_from_slice(&self.value(seq, i as u32).to_le_bytes()[..n]);
        }
    }

    /// True when `payload` is exactly message `seq`'s payload.
    pub fn matches(&self, seq: u64, payload: &[u8]) -> bool {
        if payload.len() != self.len() {
            return false;
        }
        let n = self.value_len();
        // A value's bytes read as one 8-byte load, its neighbours' bytes masked off; values
        // are below 2^BITS, so the unmasked bits above BITS must be zero in a match.
        let byte_mask = u64::MAX >> (64 - 8 * n as u32);
        let wide = self.wide_values(payload.len());
        let wide_ok = (0..wide).all(|i| {
            let word = u64::from_le_bytes(payload[i * n..i * n + 8].try_into().expect("8 bytes"));
            word & byte_mask == self.value(seq, i as u32)
        });
        wide_ok
            && (wide..self.pack as usize)
                .all(|i| payload[i * n..i * n + n] == self.value(seq, i as u32).to_le_bytes()[..n])
    }

    /// How many leading values can be read or written as whole 8-byte words within `len` bytes.
    fn wide_values(&self, len: usize) -> usize {
        let n = self.value_len();
        if len < 8 { 0 } else { ((len - 8) / n + 1).min(self.pack as usize) }
    }

    /// How far the sequence number carried by `payload` is from `expected`, modulo 2^BITS:
    /// `Some(0)` for the expected message, positive ahead (messages missing), negative behind
    /// (a repeat). `None` when the payload is not any message's payload.
    pub fn offset_from(&self, expected: u64, payload: &[u8]) -> Option<i64> {
        if payload.len() != self.len() {
            return None;
        }
        let n = self.value_len();
        let mut first = [0u8; 8];
        first[..n].copy_from_slice(&payload[..n]);
        let carried = (u64::from_le_bytes(first) ^ PATTERN) & self.mask();
        let diff = carried.wrapping_sub(expected) & self.mask();
        // Differences past half the sequence space read as "behind".
        let offset = if self.bits < 64 && diff >= 1u64 << (self.bits - 1) {
            -((self.mask() - diff + 1) as i64)
        } else {
            diff as i64
        };
        self.matches(expected.wrapping_add_signed(offset), payload).then_some(offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_42_pack_1_is_six_bytes_and_pack_167_is_1002() {
        assert_eq!(PayloadSpec::new(42, 1).unwrap().len(), 6);
        assert_eq!(PayloadSpec::new(42, 167).unwrap().len(), 1002);
    }

    #[test]
    fn out_of_range_settings_are_refused() {
        assert_eq!(PayloadSpec::new(0, 1), Err(PayloadSpecError::Bits(0)));
        assert_eq!(PayloadSpec::new(65, 1), Err(PayloadSpecError::Bits(65)));
        assert_eq!(PayloadSpec::new(8, 0), Err(PayloadSpecError::Pack));
    }

    #[test]
    fn values_are_masked_and_never_zero_runs() {
        let spec = PayloadSpec::new(42, 3).unwrap();
        let mut out = vec![0u8; spec.len()];
        spec.write(0, &mut out);
        assert_eq!(
            out,
            [
                0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0x01, 0xa4, 0xa5, 0xa5, 0xa5, 0xa5, 0x01, 0xa7, 0xa5, 0xa5, 0xa5, 0xa5,
                0x01
            ]
        );
        assert!(out.iter().all(|&b| b != 0));
    }

    #[test]
    fn wide_and_narrow_writes_agree_with_the_definition_for_every_width() {
        for bits in 1..=64 {
            for pack in [1, 2, 3, 7, 167] {
                let spec = PayloadSpec::new(bits, pack).unwrap();
                let n = bits.div_ceil(8) as usize;
                let mut out = vec![0xEE; spec.len()];
                spec.write(1234, &mut out);
                for (i, chunk) in out.chunks(n).enumerate() {
                    assert_eq!(
                        chunk,
                        &spec.value(1234, i as u32).to_le_bytes()[..n],
                        "bits {bits} pack {pack} value {i}"
                    );
                }
                assert!(spec.matches(1234, &out));
                assert!(!spec.matches(1235, &out));
                let last = out.len() - 1;
                out[last] ^= 0x80;
                assert!(!spec.matches(1234, &out), "bits {bits} pack {pack}: a flipped top bit must not match");
            }
        }
    }

    #[test]
    fn full_width_values_use_every_bit() {
        let spec = PayloadSpec::new(64, 1).unwrap();
        assert_eq!(spec.value(1, 0), 1 ^ PATTERN);
    }

    #[test]
    fn offsets_tell_missing_from_repeated_messages() {
        let spec = PayloadSpec::new(42, 2).unwrap();
        let mut p = vec![0u8; spec.len()];
        spec.write(105, &mut p);
        assert_eq!(spec.offset_from(105, &p), Some(0));
        assert_eq!(spec.offset_from(100, &p), Some(5));
        assert_eq!(spec.offset_from(110, &p), Some(-5));
        p[7] ^= 1;
        assert_eq!(spec.offset_from(105, &p), None, "a corrupted payload is no message's payload");
        assert_eq!(spec.offset_from(105, &p[..6]), None);
    }

    #[test]
    fn offsets_wrap_in_a_small_sequence_space() {
        let spec = PayloadSpec::new(4, 1).unwrap();
        let mut p = vec![0u8; 1];
        spec.write(17, &mut p); // 17 mod 16 = 1
        assert_eq!(spec.offset_from(15, &p), Some(2));
        assert_eq!(spec.offset_from(19, &p), Some(-2));
    }
}
