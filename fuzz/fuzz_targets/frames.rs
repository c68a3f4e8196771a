//! A byte stream read as the sink reads a connection: 256-byte headers, each followed by the
//! body its size field announces, every body handed to the parser its operation selects.

#![no_main]

use harness::wire::{
    HEADER_LEN, Operation, PayloadSpec, RequestHeader, command, decode_create_stream, decode_create_topic,
    decode_get_partition_route, decode_get_stream, decode_get_topic, decode_send_messages, login_reply_session,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let spec = PayloadSpec::new(42, 1).expect("valid");
    let mut rest = data;
    while rest.len() >= HEADER_LEN {
        let request = RequestHeader::decode(&rest[..HEADER_LEN]);
        let size = request.size as usize;
        if size < HEADER_LEN || size > rest.len() {
            break;
        }
        let body = &rest[HEADER_LEN..size];
        match request.operation {
            Operation::SendMessages => {
                if let Ok(batch) = decode_send_messages(body) {
                    let mut seen = 0;
                    for (_, payload) in batch.messages() {
                        let _ = spec.offset_from(seen, payload);
                        seen += 1;
                    }
                    assert_eq!(seen, u64::from(batch.count));
                }
            }
            Operation::Login => {
                let _ = login_reply_session(body);
            }
            Operation::CreateStream => {
                let _ = decode_create_stream(body);
            }
            Operation::CreateTopic => {
                let _ = decode_create_topic(body);
            }
            Operation::NonReplicated(command::GET_STREAM) => {
                let _ = decode_get_stream(body);
            }
            Operation::NonReplicated(command::GET_TOPIC) => {
                let _ = decode_get_topic(body);
            }
            Operation::NonReplicated(command::GET_PARTITION_ROUTE) => {
                let _ = decode_get_partition_route(body);
            }
            _ => {}
        }
        rest = &rest[size..];
    }
});
