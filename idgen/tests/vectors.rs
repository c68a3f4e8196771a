//! The SDK contract's shared vectors (sdks/vectors.json): `ids` and `rejected`.

use idgen::MessageId;
use serde_json::Value;

fn vectors() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../sdks/vectors.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).expect("vectors.json parses")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn ids_encode_to_their_le_bytes() {
    let ids = vectors()["ids"].as_array().expect("ids").clone();
    assert!(!ids.is_empty());
    for v in ids {
        let decimal = v["decimal"].as_str().unwrap();
        let id: MessageId = decimal.parse().unwrap();
        assert_eq!(hex(&id.to_le_bytes()), v["le_hex"].as_str().unwrap(), "{decimal}");
        assert_eq!(id.as_u128().to_string(), decimal);
    }
}

#[test]
fn rejected_inputs_fail_with_their_kind() {
    let rejected = vectors()["rejected"].as_array().expect("rejected").clone();
    assert!(!rejected.is_empty());
    for v in rejected {
        let err = match &v["input"] {
            Value::String(s) => s.parse::<MessageId>().expect_err(s),
            Value::Number(n) => MessageId::try_from(n.as_f64().unwrap()).expect_err(&n.to_string()),
            other => panic!("unexpected input {other}"),
        };
        assert_eq!(err.kind(), v["kind"].as_str().unwrap(), "{}", v["input"]);
    }
}
