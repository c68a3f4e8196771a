//! MessageId: encodings, text form, parse errors.

use idgen::{MessageId, ParseIdError, Strategy};

const TWO_128: &str = "340282366920938463463374607431768211456";
const TWO_128_PLUS_5: &str = "340282366920938463463374607431768211461";

#[test]
fn u128_and_le_bytes_round_trip() {
    for value in [0, 1, 0x0102_0304, u128::from(u64::MAX) + 1, u128::MAX] {
        let id = MessageId::from_u128(value);
        assert_eq!(id.as_u128(), value);
        assert_eq!(id.to_le_bytes(), value.to_le_bytes());
        assert_eq!(MessageId::from_le_bytes(id.to_le_bytes()), id);
    }
    assert_eq!(MessageId::from_u128(0x0102).to_le_bytes()[..3], [0x02, 0x01, 0x00]);
    assert!(MessageId::from_u128(0).is_zero());
    assert!(!MessageId::from_u128(1 << 127).is_zero());
}

#[test]
fn display_is_32_hex_digits_and_parses_back() {
    let id = MessageId::from_u128(0xabc);
    assert_eq!(id.to_string(), "00000000000000000000000000000abc");
    assert_eq!(format!("{id:x}"), id.to_string());
    assert_eq!(MessageId::from_u128(u128::MAX).to_string(), "f".repeat(32));
    for value in [0, 7, 0xdead_beef << 64, u128::MAX] {
        let id = MessageId::from_u128(value);
        assert_eq!(format!("0x{id}").parse::<MessageId>(), Ok(id));
        assert_eq!(value.to_string().parse::<MessageId>(), Ok(id));
    }
}

#[test]
fn parses_decimal_and_hex() {
    let parse = |s: &str| s.parse::<MessageId>().map(MessageId::as_u128);
    assert_eq!(parse("0"), Ok(0));
    assert_eq!(parse("000123"), Ok(123));
    assert_eq!(parse("0x7B"), Ok(123));
    assert_eq!(parse("0X7b"), Ok(123));
    assert_eq!(parse("340282366920938463463374607431768211455"), Ok(u128::MAX));
    assert_eq!(parse(&format!("0x0{}", "f".repeat(32))), Ok(u128::MAX));
}

fn rejected(input: &str) -> ParseIdError {
    let err = input.parse::<MessageId>().expect_err(input);
    assert_eq!(err.input(), input);
    let message = err.to_string();
    assert!(message.contains(&format!("{input:?}")), "{message}");
    assert!(message.contains("2^128"), "{message}");
    err
}

#[test]
fn rejects_out_of_range_and_garbage_by_kind() {
    let cases = [
        (TWO_128, "too_large"),
        (TWO_128_PLUS_5, "too_large"),
        ("0x1", "ok"),
        (&format!("0x1{}", "0".repeat(32)), "too_large"),
        ("-1", "negative"),
        ("-0x5", "negative"),
        ("-340282366920938463463374607431768211456", "negative"),
        ("-1.5", "invalid"),
        ("1.5", "invalid"),
        ("2e3", "invalid"),
        ("", "invalid"),
        ("12x", "invalid"),
        ("-", "invalid"),
        ("0x", "invalid"),
        ("0xg", "invalid"),
        (" 1", "invalid"),
        ("+1", "invalid"),
        ("1_000", "invalid"),
        (&format!("{TWO_128}x"), "invalid"),
    ];
    for (input, kind) in cases {
        if kind == "ok" {
            assert!(input.parse::<MessageId>().is_ok(), "{input}");
        } else {
            assert_eq!(rejected(input).kind(), kind, "{input}");
        }
    }
}

#[test]
fn numbers_convert_only_when_exact_integers_in_range() {
    let ok = |v: f64| MessageId::try_from(v).map(MessageId::as_u128);
    assert_eq!(ok(0.0), Ok(0));
    assert_eq!(ok(42.0), Ok(42));
    assert_eq!(ok(2f64.powi(127)), Ok(1 << 127));
    let kind = |v: f64| MessageId::try_from(v).unwrap_err().kind();
    assert_eq!(kind(-1.0), "negative");
    assert_eq!(kind(f64::NEG_INFINITY), "negative");
    assert_eq!(kind(1.5), "not_integer");
    assert_eq!(kind(f64::NAN), "not_integer");
    assert_eq!(kind(2f64.powi(128)), "too_large");
    assert_eq!(kind(f64::INFINITY), "too_large");
    let err = MessageId::try_from(1.5).unwrap_err();
    assert_eq!(err.input(), "1.5");
    assert!(err.to_string().contains("\"1.5\"") && err.to_string().contains("2^128"));
}

#[test]
fn strategy_names_round_trip() {
    for strategy in Strategy::ALL {
        assert_eq!(strategy.name().parse::<Strategy>(), Ok(strategy));
        assert_eq!(strategy.to_string(), strategy.name());
        let mut mint = strategy.build();
        let ids = [mint.mint(), mint.mint()];
        assert_ne!(ids[0], ids[1], "{strategy}");
    }
    let err = "uuidv4".parse::<Strategy>().unwrap_err();
    assert!(err.to_string().contains("\"uuidv4\""));
}
