//! The harness's reusable parts: the wire format, the sink and the Rust producer. The `harness`
//! binary drives them; the real-client member (`iggy-producer/`) and the fuzz targets (`fuzz/`)
//! use them too.

pub mod mint_report;
pub mod producer;
pub mod sink;
pub mod wire;
