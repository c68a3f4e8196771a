//! What one message ID costs: every idgen strategy, `idgen::mint()` and `idgen::fill()` against
//! the CSPRNGs a Rust user would pick instead, at 1 and 2 threads. `cargo bench -p idgen --bench
//! mint`. `scripts/mint-costs.sh` records the same sources with its own timer
//! (examples/mint-cost.rs); this is the interactive view.
//!
//! Each iteration mints one ID (one batch of 1000 for `fill`, counted as 1000 items). The sample
//! size is fixed: automatic sizing picks 1 ID per sample for generators that seed on first use,
//! and the seed then dominates. Owned generators live in a thread-local per benchmark thread, as
//! a producer task would hold one.

use std::cell::RefCell;

use divan::{Bencher, counter::ItemsCount};
use idgen::{ChaCha8Pool, Counter, MessageId, Mint, OsPool, Pooled, ThreadRngUuid, UuidV4, Xoshiro};

fn main() {
    divan::Divan::default().sample_size(4096).sample_count(200).threads([1, 2]).config_with_args().main();
}

/// Benchmarks an owned generator held in a thread-local.
macro_rules! owned {
    ($name:ident, $ty:ty) => {
        #[divan::bench]
        fn $name(bencher: Bencher) {
            thread_local!(static G: RefCell<$ty> = RefCell::new(<$ty>::new()));
            bencher.counter(ItemsCount::new(1u32)).bench(|| G.with_borrow_mut(|g| g.mint()));
        }
    };
}

mod idgen_strategies {
    use super::*;

    #[divan::bench]
    fn mint(bencher: Bencher) {
        bencher.counter(ItemsCount::new(1u32)).bench(idgen::mint);
    }

    /// A 1000-ID batch, keystream straight into the slice.
    #[divan::bench(sample_size = 16)]
    fn fill_1000(bencher: Bencher) {
        let mut batch = vec![MessageId::default(); 1000];
        bencher.counter(ItemsCount::new(batch.len())).bench_local(|| idgen::fill(divan::black_box(&mut batch)));
    }

    owned!(pooled, Pooled);
    owned!(chacha8, ChaCha8Pool);
    owned!(xoshiro, Xoshiro);
    owned!(ospool, OsPool);
    owned!(uuid_v4, UuidV4);
    owned!(thread_rng_uuid, ThreadRngUuid);
}

mod peers {
    use aes::cipher::{KeyIvInit, StreamCipher};
    use rand_chacha::rand_core::{Rng, SeedableRng};

    use super::*;

    /// The uuid crate with `fast-rng` (in this build's features): ThreadRng behind `new_v4`.
    #[divan::bench]
    fn uuid_new_v4_fast_rng(bencher: Bencher) {
        bencher.counter(ItemsCount::new(1u32)).bench(uuid::Uuid::new_v4);
    }

    #[divan::bench]
    fn rand_random_u128(bencher: Bencher) {
        bencher.counter(ItemsCount::new(1u32)).bench(rand::random::<u128>);
    }

    #[divan::bench]
    fn rand_chacha8_fill_16_bytes(bencher: Bencher) {
        thread_local!(static G: RefCell<rand_chacha::ChaCha8Rng> = RefCell::new(rand_chacha::ChaCha8Rng::from_rng(&mut rand::rng())));
        bencher.counter(ItemsCount::new(1u32)).bench(|| {
            G.with_borrow_mut(|g| {
                let mut id = [0u8; 16];
                g.fill_bytes(&mut id);
                MessageId::from_le_bytes(id)
            })
        });
    }

    /// RustCrypto `ctr` over `aes`: one 16-byte keystream call per ID, no pool.
    #[divan::bench]
    fn aes128_ctr_per_id(bencher: Bencher) {
        type Ctr = ctr::Ctr128LE<aes::Aes128>;
        thread_local!(static G: RefCell<Ctr> = RefCell::new(Ctr::new(&rand::random::<[u8; 16]>().into(), &rand::random::<[u8; 16]>().into())));
        bencher.counter(ItemsCount::new(1u32)).bench(|| {
            G.with_borrow_mut(|g| {
                let mut id = [0u8; 16];
                g.apply_keystream(&mut id);
                MessageId::from_le_bytes(id)
            })
        });
    }

    #[divan::bench]
    fn getrandom_per_id(bencher: Bencher) {
        bencher.counter(ItemsCount::new(1u32)).bench(|| {
            let mut id = [0u8; 16];
            getrandom::fill(&mut id).unwrap();
            MessageId::from_le_bytes(id)
        });
    }

    #[divan::bench]
    fn ulid_generate(bencher: Bencher) {
        bencher.counter(ItemsCount::new(1u32)).bench(ulid::Ulid::generate);
    }

    /// Wyrand: a 64-bit state cannot give 128 independent bits, so IDs collide far sooner
    /// than 2^64; the speed floor, not collision-safe.
    #[divan::bench]
    fn fastrand_u128_not_collision_safe(bencher: Bencher) {
        bencher.counter(ItemsCount::new(1u32)).bench(|| fastrand::u128(..));
    }

    /// The floor: `idgen::Counter`, sequential from a random start, NOT collision-safe.
    #[divan::bench]
    fn counter_floor(bencher: Bencher) {
        thread_local!(static G: RefCell<Counter> = RefCell::new(Counter::new()));
        bencher.counter(ItemsCount::new(1u32)).bench(|| G.with_borrow_mut(|g| g.mint()));
    }
}
