//! The 16-byte message ID and its text form.

use std::fmt;
use std::str::FromStr;

/// A 16-byte message ID: the little-endian bytes of a u128, the layout of the ID field in Iggy's
/// message header. Alignment 1, so it can sit inside a wire frame.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct MessageId([u8; 16]);

impl MessageId {
    pub const fn from_u128(value: u128) -> Self {
        Self(value.to_le_bytes())
    }

    pub const fn as_u128(self) -> u128 {
        u128::from_le_bytes(self.0)
    }

    pub const fn to_le_bytes(self) -> [u8; 16] {
        self.0
    }

    pub const fn from_le_bytes(bytes: [u8; 16]) -> Self {
        Self(bytes)
    }

    /// The IDs' bytes in place, for keystreams that write straight into a caller's slice.
    pub(crate) fn slice_as_bytes_mut(ids: &mut [Self]) -> &mut [[u8; 16]] {
        // SAFETY: `MessageId` is `repr(transparent)` over `[u8; 16]`.
        unsafe { std::slice::from_raw_parts_mut(ids.as_mut_ptr().cast(), ids.len()) }
    }

    /// Zero is the SDK's "mint one for me" value, never a minted ID in practice (p = 2^-128).
    pub const fn is_zero(self) -> bool {
        self.as_u128() == 0
    }
}

impl From<u128> for MessageId {
    fn from(value: u128) -> Self {
        Self::from_u128(value)
    }
}

impl From<MessageId> for u128 {
    fn from(id: MessageId) -> Self {
        id.as_u128()
    }
}

/// Numeric order, not byte order.
impl Ord for MessageId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_u128().cmp(&other.as_u128())
    }
}

impl PartialOrd for MessageId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// 32 lowercase hex digits of the u128 value.
impl fmt::LowerHex for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.as_u128())
    }
}

impl fmt::Display for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerHex::fmt(self, f)
    }
}

impl fmt::Debug for MessageId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MessageId(0x{self:x})")
    }
}

/// Why a string is not a message ID. Each variant keeps the rejected input; the message names
/// it and the bound.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseIdError {
    #[error("message id {input:?} is negative; message ids are integers in 0..2^128")]
    Negative { input: String },
    #[error("message id {input:?} is 2^128 or more; message ids are integers in 0..2^128")]
    TooLarge { input: String },
    #[error("message id {input:?} is not an integer; message ids are integers in 0..2^128")]
    NotInteger { input: String },
    #[error("message id {input:?} is not a decimal or 0x-hex integer in 0..2^128")]
    Invalid { input: String },
}

impl ParseIdError {
    /// The kind as `sdks/vectors.json` names it: `negative`, `too_large`, `not_integer`, `invalid`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Negative { .. } => "negative",
            Self::TooLarge { .. } => "too_large",
            Self::NotInteger { .. } => "not_integer",
            Self::Invalid { .. } => "invalid",
        }
    }

    pub fn input(&self) -> &str {
        match self {
            Self::Negative { input }
            | Self::TooLarge { input }
            | Self::NotInteger { input }
            | Self::Invalid { input } => input,
        }
    }
}

#[derive(Clone, Copy)]
enum Kind {
    TooLarge,
    Invalid,
}

/// Decimal (`123`) or hex (`0x7b`, `0X7B`). No sign, whitespace, underscores, fraction or
/// exponent: a string that is not an integer literal is `Invalid` (the SDK contract's rule; only
/// a number input can be `NotInteger`). A minus sign before a literal makes it `Negative`.
impl FromStr for MessageId {
    type Err = ParseIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (negative, body) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let parsed = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            Some(hex) => digits(hex, 16),
            None => digits(body, 10),
        };
        let input = s.to_owned();
        match (negative, parsed) {
            (_, Err(Kind::Invalid)) => Err(ParseIdError::Invalid { input }),
            (true, _) => Err(ParseIdError::Negative { input }),
            (false, Err(Kind::TooLarge)) => Err(ParseIdError::TooLarge { input }),
            (false, Ok(value)) => Ok(Self::from_u128(value)),
        }
    }
}

/// Parses digits in `radix`, scanning to the end after an overflow so that garbage past the
/// bound is reported as garbage.
fn digits(text: &str, radix: u32) -> Result<u128, Kind> {
    if text.is_empty() {
        return Err(Kind::Invalid);
    }
    let mut value: Option<u128> = Some(0);
    for c in text.chars() {
        let digit = c.to_digit(radix).ok_or(Kind::Invalid)?;
        value = value.and_then(|v| v.checked_mul(u128::from(radix))).and_then(|v| v.checked_add(u128::from(digit)));
    }
    value.ok_or(Kind::TooLarge)
}

/// A JSON-style number: exact integers in 0..2^128 convert, anything else is rejected.
impl TryFrom<f64> for MessageId {
    type Error = ParseIdError;

    fn try_from(value: f64) -> Result<Self, Self::Error> {
        let input = value.to_string();
        if value < 0.0 {
            Err(ParseIdError::Negative { input })
        } else if value.is_nan() || (value.is_finite() && value.fract() != 0.0) {
            Err(ParseIdError::NotInteger { input })
        } else if value >= u128::MAX as f64 {
            // u128::MAX rounds to exactly 2^128 as an f64; +inf lands here too.
            Err(ParseIdError::TooLarge { input })
        } else {
            Ok(Self::from_u128(value as u128))
        }
    }
}
