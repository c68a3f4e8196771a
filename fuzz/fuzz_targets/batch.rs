//! SEND_MESSAGES bodies whose checksums are made to match before parsing, so the fuzzer gets
//! past the XXH3 gates to the counts, lengths and message walk behind them.

#![no_main]

use harness::wire::{BATCH_HEADER_LEN, MESSAGE_HEADER_LEN, decode_send_messages};
use libfuzzer_sys::fuzz_target;
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// Rewrites every message checksum that fits and the batch checksum, walking the body as
/// its own length fields say; stops where they point past the end.
fn fix_checksums(body: &mut [u8]) -> Option<()> {
    let batch_at = 4usize.checked_add(u32_at(body, 0)? as usize)?;
    let count = u32_at(body, batch_at.checked_add(48)?)?;
    let mut batch_checksum = Xxh3::new();
    batch_checksum.update(body.get(batch_at..batch_at + 40)?);
    batch_checksum.update(body.get(batch_at + 48..batch_at + 52)?);
    let producer = body.get(batch_at + 52..batch_at + 72)?;
    if producer.iter().any(|&b| b != 0) {
        batch_checksum.update(producer);
    }
    let mut at = batch_at + BATCH_HEADER_LEN;
    for _ in 0..count {
        let rest = u64::from(u32_at(body, at + 36)?) + u64::from(u32_at(body, at + 32)?);
        let end = (at + MESSAGE_HEADER_LEN).checked_add(usize::try_from(rest).ok()?).filter(|&e| e <= body.len())?;
        let checksum = xxh3_64(&body[at + 8..end]).to_le_bytes();
        body[at..at + 8].copy_from_slice(&checksum);
        batch_checksum.update(&checksum);
        at = end;
    }
    body[batch_at + 40..batch_at + 48].copy_from_slice(&batch_checksum.digest().to_le_bytes());
    Some(())
}

fuzz_target!(|data: &[u8]| {
    let mut body = data.to_vec();
    let _ = fix_checksums(&mut body);
    if let Ok(batch) = decode_send_messages(&body) {
        let mut payload_bytes = 0;
        let walked = batch.messages().inspect(|(_, p)| payload_bytes += p.len()).count();
        assert_eq!(walked as u64, u64::from(batch.count));
        assert!(payload_bytes <= body.len());
    }
});
