//! Minting: resolve, uniqueness across threads and a forked child, bit balance, UUID bits,
//! and pinned outputs of the seeded generators.

use idgen::{MessageId, Mint, OsPool, Pooled, Strategy, ThreadRngUuid, UuidV4, Xoshiro};

#[test]
fn resolve_mints_zero_and_keeps_the_rest() {
    let minted = [idgen::resolve(0), idgen::resolve(0)];
    assert!(!minted[0].is_zero());
    assert_ne!(minted[0], minted[1]);
    for n in [1, 42, u128::MAX] {
        assert_eq!(idgen::resolve(n), MessageId::from_u128(n));
    }
}

#[test]
fn fill_matches_mint_order() {
    let seed = [9; 32];
    let mut out = [MessageId::default(); 300];
    Pooled::from_seed(seed).fill(&mut out);
    let mut one_by_one = Pooled::from_seed(seed);
    assert!(out.iter().all(|id| *id == one_by_one.mint()));
}

/// Everything the child writes to `fd`, as u128s.
fn read_ids(fd: i32) -> Vec<u128> {
    use std::io::Read;
    use std::os::fd::FromRawFd;
    let mut bytes = Vec::new();
    // SAFETY: `fd` is the read end of a pipe this test owns; the File closes it.
    unsafe { std::fs::File::from_raw_fd(fd) }
        .read_to_end(&mut bytes)
        .unwrap();
    assert_eq!(bytes.len() % 16, 0);
    bytes
        .chunks_exact(16)
        .map(|c| u128::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Forks; the child calls `child` with the pipe's write end and exits, the parent gets the
/// read end and the child's pid.
fn fork_with_pipe(child: impl FnOnce(i32)) -> (i32, libc::pid_t) {
    let mut fds = [0; 2];
    // SAFETY: plain syscalls; the child only mints, writes and _exits (no allocation, no locks).
    unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        let pid = libc::fork();
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            libc::close(fds[0]);
            child(fds[1]);
            libc::_exit(0);
        }
        libc::close(fds[1]);
        (fds[0], pid)
    }
}

/// In the child: writes all of `bytes` or exits with status 3.
fn write_all(fd: i32, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: writes from a live buffer to a pipe the child owns.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n <= 0 {
            unsafe { libc::_exit(3) };
        }
        bytes = &bytes[n as usize..];
    }
}

fn wait_ok(pid: libc::pid_t) {
    let mut status = 0;
    // SAFETY: waits for our own child.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "child status {status}"
    );
}

fn assert_unique(mut ids: Vec<u128>) {
    ids.sort_unstable();
    let dup = ids.windows(2).find(|w| w[0] == w[1]);
    assert!(dup.is_none(), "duplicate id {dup:x?} among {}", ids.len());
}

/// 10^7 IDs from `mint()`: two threads plus a child forked from one of them mid-pool.
#[test]
fn mint_is_unique_across_threads_and_fork() {
    const PER_THREAD: usize = 4_000_000;
    const CHILD: usize = 2_000_000;
    const BEFORE_FORK: usize = 1_000;

    let other = std::thread::spawn(|| {
        (0..PER_THREAD)
            .map(|_| idgen::mint().as_u128())
            .collect::<Vec<u128>>()
    });
    let mut ids: Vec<u128> = (0..BEFORE_FORK).map(|_| idgen::mint().as_u128()).collect();
    let (read_fd, pid) = fork_with_pipe(|fd| {
        let mut buf = [[0u8; 16]; 1000];
        for _ in 0..CHILD / buf.len() {
            buf.iter_mut()
                .for_each(|b| *b = idgen::mint().to_le_bytes());
            write_all(fd, buf.as_flattened());
        }
    });
    ids.extend((BEFORE_FORK..PER_THREAD).map(|_| idgen::mint().as_u128()));
    let child = read_ids(read_fd);
    wait_ok(pid);
    assert_eq!(child.len(), CHILD);
    ids.extend(child);
    ids.extend(other.join().unwrap());
    assert_eq!(ids.len(), 10_000_000);
    assert_unique(ids);
}

/// Generators owned by a value and copied into a child must not repeat in it either.
#[test]
fn owned_generators_reseed_in_a_forked_child() {
    const N: usize = 1_000;
    let mut gens: Vec<Box<dyn Mint>> = vec![
        Box::new(Pooled::new()),
        Box::new(Pooled::from_seed([1; 32])),
        Box::new(Xoshiro::new()),
        Box::new(Xoshiro::from_seed([1; 32])),
        Box::new(OsPool::new()),
    ];
    for g in &mut gens {
        g.mint();
    }
    let (read_fd, pid) = fork_with_pipe(|fd| {
        for g in &mut gens {
            for _ in 0..N {
                write_all(fd, &g.mint().to_le_bytes());
            }
        }
    });
    let child = read_ids(read_fd);
    wait_ok(pid);
    assert_eq!(child.len(), N * gens.len());
    for (g, child_ids) in gens.iter_mut().zip(child.chunks(N)) {
        let mut ids: Vec<u128> = (0..N).map(|_| g.mint().as_u128()).collect();
        ids.extend_from_slice(child_ids);
        assert_unique(ids);
    }
}

/// The hazard the strategy table states for `ThreadRngUuid` (and so the Iggy Rust SDK's path):
/// `rand`'s ThreadRng is not reseeded on fork, so a child repeats its parent's next IDs.
#[test]
fn thread_rng_uuid_repeats_its_parent_in_a_forked_child() {
    const N: usize = 100;
    // A fresh thread, so its ThreadRng is far from its 64 KiB reseed point.
    let (parent, child) = std::thread::spawn(|| {
        ThreadRngUuid.mint();
        let (read_fd, pid) = fork_with_pipe(|fd| {
            for _ in 0..N {
                write_all(fd, &ThreadRngUuid.mint().to_le_bytes());
            }
        });
        let child = read_ids(read_fd);
        wait_ok(pid);
        let parent: Vec<u128> = (0..N).map(|_| ThreadRngUuid.mint().as_u128()).collect();
        (parent, child)
    })
    .join()
    .unwrap();
    assert_eq!(child, parent);
}

/// Counts of set bits at each of the 128 positions over `n` IDs, via per-byte histograms.
fn bit_counts(n: usize, mut next: impl FnMut() -> MessageId) -> [u64; 128] {
    let mut hist = [[0u64; 256]; 16];
    for _ in 0..n {
        for (h, b) in hist.iter_mut().zip(next().as_u128().to_le_bytes()) {
            h[usize::from(b)] += 1;
        }
    }
    std::array::from_fn(|bit| {
        let h = &hist[bit / 8];
        (0..256)
            .filter(|v| v >> (bit % 8) & 1 == 1)
            .map(|v| h[v])
            .sum()
    })
}

/// The six fixed bits of a v4 UUID as a u128: version 4 at bits 76..80, variant 0b10 at 62..64.
const V4_MASK: u128 = 0xF << 76 | 0b11 << 62;
const V4_BITS: u128 = 0x4 << 76 | 0b10 << 62;

#[test]
fn every_strategy_balances_each_bit_within_6_sigma() {
    const N: usize = 1_000_000;
    let bound = 6.0 * (N as f64).sqrt() / 2.0;
    for strategy in Strategy::ALL {
        let mut g = strategy.build();
        let fixed = match strategy {
            Strategy::Uuid | Strategy::ThreadRng => V4_MASK,
            _ => 0,
        };
        for (bit, count) in bit_counts(N, || g.mint()).into_iter().enumerate() {
            if fixed >> bit & 1 == 1 {
                let expect = if V4_BITS >> bit & 1 == 1 { N as u64 } else { 0 };
                assert_eq!(count, expect, "{strategy}: fixed bit {bit}");
            } else {
                let off = (count as f64 - N as f64 / 2.0).abs();
                assert!(
                    off <= bound,
                    "{strategy}: bit {bit} set {count} times of {N}"
                );
            }
        }
    }
}

#[test]
fn uuid_strategies_carry_version_4_and_variant_bits() {
    for id in (0..1000)
        .map(|_| UuidV4.mint())
        .chain((0..1000).map(|_| ThreadRngUuid.mint()))
    {
        assert_eq!(id.as_u128() & V4_MASK, V4_BITS, "{id}");
        let uuid = uuid::Uuid::from_u128(id.as_u128());
        assert_eq!(uuid.get_version(), Some(uuid::Version::Random));
        assert_eq!(uuid.get_variant(), uuid::Variant::RFC4122);
    }
}

const SEED: [u8; 32] = {
    let mut seed = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        seed[i] = i as u8;
        i += 1;
    }
    seed
};

#[test]
fn pooled_from_seed_is_the_chacha8_keystream() {
    let mut pooled = Pooled::from_seed(SEED);
    let first: Vec<String> = (0..3).map(|_| pooled.mint().to_string()).collect();
    assert_eq!(
        first,
        [
            "3312c5317b66e8d96aab126e8fb21540",
            "cbbebcffd72e6b324fd9b29027178ff7",
            "fd909d75bc55406f3bce895f36ad9eff",
        ]
    );
    // Across two refills, against an independent implementation (rand_chacha, ppv-lite86).
    use rand_chacha::rand_core::{Rng, SeedableRng};
    let mut reference = rand_chacha::ChaCha8Rng::from_seed(SEED);
    let mut pooled = Pooled::from_seed(SEED);
    for i in 0..600 {
        let mut bytes = [0u8; 16];
        reference.fill_bytes(&mut bytes);
        assert_eq!(pooled.mint().to_le_bytes(), bytes, "id {i}");
    }
}

#[test]
fn xoshiro_from_seed_is_xoshiro256plusplus() {
    // State words 1, 2, 3, 4: the reference algorithm's first output is rotl(1 + 4, 23) + 1.
    let mut seed = [0u8; 32];
    for (i, word) in seed.chunks_exact_mut(8).enumerate() {
        word.copy_from_slice(&(i as u64 + 1).to_le_bytes());
    }
    assert_eq!(
        Xoshiro::from_seed(seed).mint().as_u128() as u64,
        (5 << 23) + 1
    );

    let mut xoshiro = Xoshiro::from_seed(SEED);
    let first: Vec<String> = (0..3).map(|_| xoshiro.mint().to_string()).collect();
    assert_eq!(
        first,
        [
            "a2209f1d9c1e9d1b171513110f151311",
            "f4601386bb253984e0d100f0a090c0b0",
            "56ee6ac1eb074678f9bad1aa0181e716",
        ]
    );
}
