//! What one message ID costs: every idgen strategy and `idgen::mint()` against the usual ways to
//! get 16 random bytes, at 1 and 2 threads. `cargo bench -p harness --bench mint`.
//!
//! Each iteration mints one ID, so times are per ID. The sample size is fixed at 4096 IDs:
//! automatic sizing picks 1 ID per sample for generators that seed on first use, and the seed
//! then dominates. Owned generators live in a thread-local per benchmark thread, as a producer
//! task would hold one.

use std::cell::{Cell, RefCell};

use divan::Bencher;
use idgen::{MessageId, Mint, OsPool, Pooled, ThreadRngUuid, UuidV4, Xoshiro};

fn main() {
    divan::Divan::default()
        .sample_size(4096)
        .sample_count(200)
        .threads([1, 2])
        .items_count(1u32)
        .config_with_args()
        .main();
}

/// Benchmarks an owned generator held in a thread-local.
macro_rules! owned {
    ($name:ident, $ty:ty) => {
        #[divan::bench]
        fn $name(bencher: Bencher) {
            thread_local!(static G: RefCell<$ty> = RefCell::new(<$ty>::new()));
            bencher.bench(|| G.with_borrow_mut(|g| g.mint()));
        }
    };
}

mod idgen_strategies {
    use super::*;

    #[divan::bench]
    fn mint(bencher: Bencher) {
        bencher.bench(idgen::mint);
    }

    owned!(pooled, Pooled);
    owned!(xoshiro, Xoshiro);
    owned!(ospool, OsPool);
    owned!(uuid_v4, UuidV4);
    owned!(thread_rng_uuid, ThreadRngUuid);
}

mod anchors {
    use super::*;

    /// The uuid crate with default features: one getrandom syscall per ID.
    #[divan::bench]
    fn uuid_new_v4(bencher: Bencher) {
        bencher.bench(uuid::Uuid::new_v4);
    }

    #[divan::bench]
    fn rand_random_u128(bencher: Bencher) {
        bencher.bench(rand::random::<u128>);
    }

    #[divan::bench]
    fn getrandom_per_id(bencher: Bencher) {
        bencher.bench(|| {
            let mut id = [0u8; 16];
            getrandom::fill(&mut id).unwrap();
            MessageId::from_le_bytes(id)
        });
    }

    /// Wyrand: a 64-bit state cannot give 128 independent bits, so IDs collide far sooner
    /// than 2^64; listed for speed only.
    #[divan::bench]
    fn fastrand_u128_64bit_state_not_collision_safe(bencher: Bencher) {
        bencher.bench(|| fastrand::u128(..));
    }

    #[divan::bench]
    fn ulid_generate(bencher: Bencher) {
        bencher.bench(ulid::Ulid::generate);
    }

    /// The floor: a thread-local counter, unique per thread only.
    #[divan::bench]
    fn counter_floor(bencher: Bencher) {
        thread_local!(static NEXT: Cell<u128> = const { Cell::new(0) });
        bencher.bench(|| {
            NEXT.with(|next| {
                let id = next.get() + 1;
                next.set(id);
                MessageId::from_u128(id)
            })
        });
    }
}
