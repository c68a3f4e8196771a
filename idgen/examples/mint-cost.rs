//! What one message ID costs, per idgen strategy and per peer a Rust user might pick instead
//! (`scripts/mint-costs.sh` drives it):
//!
//! - `mint-cost run NAME -n N` mints N IDs with one source, for callgrind (instructions) and
//!   strace (getrandom calls); `baseline` is the same batch loop minting nothing.
//! - `mint-cost record --counts DIR --runs R --out results/mint-costs.json` times every source
//!   itself (1 and 2 threads), reads DIR's callgrind and `harness syscalls` outputs, sets each
//!   source beside this CPU's AES-128 keystream floor, and writes the JSON; `harness mint-costs`
//!   writes its Markdown, and `harness docs` the documents' blocks.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use aes::cipher::{KeyIvInit, StreamCipher};
use clap::Parser;
use idgen::keystream::AesCtr;
use idgen::{ChaCha8Pool, Counter, MessageId, Mint, OsPool, Pooled, ThreadRngUuid, UuidV4, Xoshiro};
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde_json::{Value, json};

/// IDs per call of a source: the batch the `fill` rows are for.
const BATCH: usize = 1000;
/// Batches per timed sample, samples per run.
const SAMPLE_BATCHES: usize = 4;
const SAMPLES: usize = 200;

#[derive(Clone, Copy, PartialEq)]
enum Group {
    Baseline,
    Idgen,
    Peer,
}

/// Every source: name, group, what it is.
const SOURCES: &[(&str, Group, &str)] = &[
    ("baseline", Group::Baseline, "the batch loop writing nothing"),
    ("fast", Group::Idgen, "`idgen::mint()`: this thread's AES-128-CTR pool"),
    ("fast-atfork", Group::Idgen, "`idgen::mint()` with IDGEN_WIPEONFORK=off (atfork fallback)"),
    ("fill", Group::Idgen, "`idgen::fill()` of 1000-ID batches"),
    (
        "fill-aes-crate",
        Group::Idgen,
        "`fill()`'s batches with the `aes` crate's rounds where idgen runs its own VAES-256 ones (the same elsewhere)",
    ),
    ("pooled", Group::Idgen, "`Pooled`: an owned AES-128-CTR pool"),
    ("chacha8", Group::Idgen, "`ChaCha8Pool`: an owned ChaCha8 pool"),
    ("xoshiro", Group::Idgen, "`Xoshiro`: Xoshiro256++, not a CSPRNG"),
    ("ospool", Group::Idgen, "`OsPool`: 4 KiB of getrandom per 256 IDs"),
    ("uuid", Group::Idgen, "`UuidV4`: what `Uuid::new_v4()` does by default, getrandom per ID"),
    ("threadrng", Group::Idgen, "`ThreadRngUuid`: v4 bits over rand's ThreadRng"),
    ("rand-random-u128", Group::Peer, "`rand::random::<u128>()` (ThreadRng, ChaCha12)"),
    ("rand-chacha8-16-bytes", Group::Peer, "rand_chacha's `ChaCha8Rng::fill_bytes` of 16 bytes"),
    ("aes-ctr-per-id", Group::Peer, "RustCrypto `ctr` AES-128-CTR keystream per ID, no pool"),
    ("uuid-fast-rng", Group::Peer, "`Uuid::new_v4()` with uuid's `fast-rng` feature"),
    ("fastrand-u128", Group::Peer, "`fastrand::u128(..)`: 64-bit state, NOT collision-safe (floor)"),
    ("ulid", Group::Peer, "`ulid::Ulid::generate()`"),
    ("counter", Group::Peer, "`idgen::Counter`: sequential from a random start, NOT collision-safe (floor)"),
];

/// An AES round instruction's reciprocal throughput on a family of cores, from the published
/// instruction tables: the keystream's floor is [`ROUNDS`] of them per 16-byte block.
struct AesRate {
    vendor: &'static str,
    family: u32,
    /// The `vaes` flag: the `aes` crate then runs 2 or 4 blocks per instruction.
    vaes: bool,
    cores: &'static str,
    instruction: &'static str,
    /// Cycles per instruction at full throughput.
    cycles: f64,
    /// 16-byte blocks per instruction.
    blocks: f64,
}

/// AES-128's rounds per block; the first round key's XOR runs on other ports.
const ROUNDS: f64 = 10.0;

const AES_RATES: &[AesRate] = &[
    AesRate {
        vendor: "AuthenticAMD",
        family: 0x17,
        vaes: false,
        cores: "Zen to Zen 2",
        instruction: "AESENC xmm",
        cycles: 0.5,
        blocks: 1.0,
    },
    // Zen 4's VAESENC zmm (1 cycle for 4 blocks) runs at the same rate per block.
    AesRate {
        vendor: "AuthenticAMD",
        family: 0x19,
        vaes: true,
        cores: "Zen 3 and Zen 4",
        instruction: "VAESENC ymm",
        cycles: 0.5,
        blocks: 2.0,
    },
    AesRate {
        vendor: "GenuineIntel",
        family: 6,
        vaes: false,
        cores: "Haswell to Cascade Lake",
        instruction: "AESENC xmm",
        cycles: 1.0,
        blocks: 1.0,
    },
    AesRate {
        vendor: "GenuineIntel",
        family: 6,
        vaes: true,
        cores: "Ice Lake and later",
        instruction: "VAESENC ymm",
        cycles: 0.5,
        blocks: 2.0,
    },
];

/// The AES-128 keystream floor on this CPU: the table's rate for its cores, in cycles and, at
/// the clock measured here, in ns per 16 bytes; `null` with the reason when no entry fits.
fn aes_floor() -> Value {
    let field = |name: &str| cpuinfo(name).unwrap_or_default();
    let (vendor, family) = (field("vendor_id"), field("cpu family").parse::<u32>().unwrap_or(0));
    let vaes = field("flags").split_whitespace().any(|f| f == "vaes");
    let Some(rate) = AES_RATES.iter().find(|r| r.vendor == vendor && r.family == family && r.vaes == vaes) else {
        return json!({ "missing": format!("no instruction-table entry for {vendor} family {family} (vaes: {vaes})") });
    };
    let cycles = ROUNDS * rate.cycles / rate.blocks;
    let ghz = clock_ghz();
    json!({
        "cpu": cpu_model(), "cores": rate.cores, "instruction": rate.instruction,
        "reciprocal_throughput_cycles": rate.cycles, "blocks_per_instruction": rate.blocks, "rounds": ROUNDS,
        "cycles_per_16_bytes": cycles, "clock_ghz": ghz, "ns_per_16_bytes": ghz.map(|g| cycles / g),
    })
}

/// This core's clock while busy, in GHz: a chain of dependent register-to-register adds retires
/// one a cycle. Not adds of an immediate: newer Intel cores fold a chain of those at rename,
/// several a cycle, and read several times their clock. The fastest of 9 timings, since being
/// preempted only slows one down.
#[cfg(target_arch = "x86_64")]
fn clock_ghz() -> Option<f64> {
    const LOOPS: u64 = 1 << 22;
    let once = || {
        let start = Instant::now();
        let (mut x, one) = (0u64, black_box(1u64));
        for _ in 0..LOOPS {
            // SAFETY: register arithmetic only.
            unsafe {
                std::arch::asm!(
                    "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
                    "add {x}, {one}", "add {x}, {one}", "add {x}, {one}", "add {x}, {one}",
                    x = inout(reg) x, one = in(reg) one, options(nomem, nostack),
                )
            };
        }
        black_box(x);
        (8 * LOOPS) as f64 / start.elapsed().as_nanos() as f64
    };
    (0..9).map(|_| once()).max_by(f64::total_cmp)
}

#[cfg(not(target_arch = "x86_64"))]
fn clock_ghz() -> Option<f64> {
    None
}

/// Runs a body over one source as a concrete closure (no dynamic dispatch in the loop).
trait Body {
    type Out;
    fn run(self, fill: impl FnMut(&mut [MessageId])) -> Self::Out;
}

/// Per-ID sources fill a batch one `mint` at a time, as a producer writes each message's ID.
/// The batch, not each ID, goes through `black_box`: a per-ID `black_box` spills every ID to the
/// stack and back, a store-forwarding stall that would dominate the cheap sources.
fn each(mut next: impl FnMut() -> MessageId) -> impl FnMut(&mut [MessageId]) {
    move |out| {
        for id in out {
            *id = next();
        }
    }
}

fn dispatch<B: Body>(name: &str, body: B) -> Option<B::Out> {
    Some(match name {
        "baseline" => body.run(|out| {
            black_box(out);
        }),
        "fast" | "fast-atfork" => body.run(each(idgen::mint)),
        "fill" => body.run(idgen::fill),
        "fill-aes-crate" => {
            let mut seed = [0; 32];
            getrandom::fill(&mut seed).expect("the OS random source");
            let mut g = Pooled::with_keystream(AesCtr::with_crate_rounds(seed));
            body.run(move |out| g.fill(out))
        }
        "pooled" => {
            let mut g = Pooled::new();
            body.run(each(move || g.mint()))
        }
        "chacha8" => {
            let mut g = ChaCha8Pool::new();
            body.run(each(move || g.mint()))
        }
        "xoshiro" => {
            let mut g = Xoshiro::new();
            body.run(each(move || g.mint()))
        }
        "ospool" => {
            let mut g = OsPool::new();
            body.run(each(move || g.mint()))
        }
        "uuid" => body.run(each(|| UuidV4.mint())),
        "threadrng" => body.run(each(|| ThreadRngUuid.mint())),
        "rand-random-u128" => body.run(each(|| MessageId::from_u128(rand::random()))),
        "rand-chacha8-16-bytes" => {
            let mut rng = rand_chacha::ChaCha8Rng::from_rng(&mut rand::rng());
            body.run(each(move || {
                let mut id = [0u8; 16];
                rng.fill_bytes(&mut id);
                MessageId::from_le_bytes(id)
            }))
        }
        "aes-ctr-per-id" => {
            let key: [u8; 16] = rand::random();
            let iv: [u8; 16] = rand::random();
            let mut cipher = ctr::Ctr128LE::<aes::Aes128>::new(&key.into(), &iv.into());
            body.run(each(move || {
                let mut id = [0u8; 16];
                cipher.apply_keystream(&mut id);
                MessageId::from_le_bytes(id)
            }))
        }
        "uuid-fast-rng" => body.run(each(|| MessageId::from_u128(uuid::Uuid::new_v4().as_u128()))),
        "fastrand-u128" => body.run(each(|| MessageId::from_u128(fastrand::u128(..)))),
        "ulid" => body.run(each(|| MessageId::from_u128(ulid::Ulid::generate().into()))),
        "counter" => {
            let mut g = Counter::new();
            body.run(each(move || g.mint()))
        }
        _ => return None,
    })
}

/// Mints `n` IDs (rounded up to whole batches) and folds them, so nothing is optimised away.
struct Count(u64);

impl Body for Count {
    type Out = u128;
    fn run(self, mut fill: impl FnMut(&mut [MessageId])) -> u128 {
        let mut batch = [MessageId::default(); BATCH];
        let mut acc = 0u128;
        for _ in 0..self.0.div_ceil(BATCH as u64) {
            fill(black_box(&mut batch));
            acc ^= black_box(&batch)[BATCH - 1].as_u128();
        }
        acc
    }
}

/// ns per ID of each sample, after one warm-up sample.
struct Time;

impl Body for Time {
    type Out = Vec<f64>;
    fn run(self, mut fill: impl FnMut(&mut [MessageId])) -> Vec<f64> {
        let mut batch = [MessageId::default(); BATCH];
        let mut sample = || {
            let start = Instant::now();
            for _ in 0..SAMPLE_BATCHES {
                fill(black_box(&mut batch));
            }
            start.elapsed().as_nanos() as f64 / (SAMPLE_BATCHES * BATCH) as f64
        };
        sample();
        (0..SAMPLES).map(|_| sample()).collect()
    }
}

#[derive(Parser)]
#[command(about = "Instructions, getrandom calls and ns per message ID of each source")]
enum Cmd {
    /// Mint N IDs with one source (for callgrind and strace).
    Run {
        name: String,
        #[arg(short, default_value_t = 1 << 18)]
        n: u64,
    },
    /// Time every source, read the counts and write the results and docs.
    Record {
        /// Where `callgrind.NAME` and `syscalls.NAME.json` of `run NAME` are.
        #[arg(long)]
        counts: PathBuf,
        /// IDs per counted run (the N given to `run`).
        #[arg(short, long)]
        n: u64,
        /// Timed runs per source and thread count.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// The command to record as the one that made the results.
        #[arg(long)]
        command: String,
        /// Where to write the results, as JSON (`harness mint-costs` turns it into Markdown).
        #[arg(long)]
        out: PathBuf,
    },
    /// The source names, one a line.
    List,
}

fn main() -> ExitCode {
    let outcome = match Cmd::parse() {
        Cmd::Run { name, n } => run(&name, n),
        Cmd::Record { counts, n, runs, command, out } => record(&counts, n, runs, &command, &out),
        Cmd::List => {
            SOURCES.iter().for_each(|s| println!("{}", s.0));
            Ok(())
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn unknown(name: &str) -> String {
    let names: Vec<&str> = SOURCES.iter().map(|s| s.0).collect();
    format!("unknown source {name:?}; expected one of {}", names.join(", "))
}

fn run(name: &str, n: u64) -> Result<(), String> {
    if name == "fast-atfork" {
        // SAFETY: single-threaded, before anything reads the environment.
        unsafe { std::env::set_var("IDGEN_WIPEONFORK", "off") };
    }
    let acc = dispatch(name, Count(n)).ok_or_else(|| unknown(name))?;
    println!(
        "{name} n={n} xor={acc:032x} fork model {:?} aes in hardware {}",
        idgen::fork_model(),
        aes::hardware_accelerated()
    );
    Ok(())
}

/// Median, min and max.
fn spread(mut values: Vec<f64>) -> Value {
    values.sort_by(f64::total_cmp);
    let median = values[values.len() / 2];
    json!({ "median": median, "min": values[0], "max": values[values.len() - 1] })
}

/// Per run, the median sample of every thread's samples; `threads` threads each with their own
/// source, started together.
fn timed_run(name: &str, threads: usize) -> Result<f64, String> {
    let samples: Vec<Vec<f64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(|| dispatch(name, Time))).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("timing thread").ok_or_else(|| unknown(name)))
            .collect::<Result<_, _>>()
    })?;
    let mut all: Vec<f64> = samples.into_iter().flatten().collect();
    all.sort_by(f64::total_cmp);
    Ok(all[all.len() / 2])
}

/// callgrind's total instructions (`summary:` line) of `run NAME`.
fn callgrind_ir(dir: &Path, name: &str) -> Result<f64, String> {
    let path = dir.join(format!("callgrind.{name}"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .find_map(|l| l.strip_prefix("summary: ").or_else(|| l.strip_prefix("totals: ")))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .ok_or_else(|| format!("{}: no summary line", path.display()))
}

/// The functions a pool's keystream runs in: the cipher (its backend, with our counter blocks
/// inlined), the keystream's own code and the pool's refill.
fn in_keystream(function: &str) -> bool {
    ["aes::", "chacha", "keystream", "refill"].iter().any(|part| function.contains(part))
}

/// callgrind's own (exclusive) instructions of `run NAME` in the functions `keep` accepts.
/// The format names a function once as `fn=(id) name` (or `cfn=`) and then by `(id)`; a cost
/// line is positions then the count, and the line after `calls=` is a call's inclusive cost,
/// which is the callee's, not the caller's own.
fn callgrind_self_ir(dir: &Path, name: &str, keep: impl Fn(&str) -> bool) -> Result<f64, String> {
    let path = dir.join(format!("callgrind.{name}"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut names = std::collections::HashMap::new();
    let mut name_of = |spec: &str| {
        let (id, given) = spec.split_once(") ").map_or((spec.trim_end_matches(')'), None), |(i, n)| (i, Some(n)));
        if let Some(given) = given {
            names.insert(id.to_owned(), given.to_owned());
        }
        names.get(id).cloned().unwrap_or_default()
    };
    let (mut counting, mut after_call, mut total) = (false, false, 0u64);
    for line in text.lines() {
        if let Some(spec) = line.strip_prefix("fn=(") {
            counting = keep(&name_of(spec));
        } else if let Some(spec) = line.strip_prefix("cfn=(") {
            name_of(spec);
        } else if line.starts_with("calls=") {
            after_call = true;
        } else if line.starts_with(|c: char| c.is_ascii_digit() || "+-*".contains(c)) {
            if counting && !after_call {
                total += line.split_whitespace().last().and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            }
            after_call = false;
        }
    }
    Ok(total as f64)
}

/// getrandom calls of `run NAME`, as `harness syscalls --trace getrandom` printed them.
fn getrandom_calls(dir: &Path, name: &str) -> Result<f64, String> {
    let path = dir.join(format!("syscalls.{name}.json"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    json["getrandom"].as_f64().ok_or_else(|| format!("{}: no getrandom count", path.display()))
}

fn record(counts: &Path, n: u64, runs: usize, command: &str, out: &Path) -> Result<(), String> {
    if runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    let counted = n.div_ceil(BATCH as u64) as f64 * BATCH as f64;
    let floor = aes_floor();
    let floor_ns = floor["ns_per_16_bytes"].as_f64();
    let mut rows = Vec::new();
    let mut medians = std::collections::HashMap::new();
    for &(name, group, what) in SOURCES.iter().filter(|s| s.1 != Group::Baseline) {
        eprintln!("mint-cost: timing {name}");
        let mut by_threads = Vec::new();
        for threads in [1, 2] {
            let per_run = (0..runs).map(|_| timed_run(name, threads)).collect::<Result<Vec<_>, _>>()?;
            medians.insert((name, threads), per_run.clone());
            by_threads
                .push(json!({ "threads": threads, "ns_per_id": spread(per_run.clone()), "run_medians": per_run }));
        }
        let ir = (callgrind_ir(counts, name)? - callgrind_ir(counts, "baseline")?) / counted;
        let keystream_ir = (group == Group::Idgen)
            .then(|| callgrind_self_ir(counts, name, in_keystream))
            .transpose()?
            .filter(|&k| k > 0.0)
            .map(|k| k / counted);
        let calls = (getrandom_calls(counts, name)? - getrandom_calls(counts, "baseline")?) / counted * 1000.0;
        let (one, two) = (by_threads[0]["ns_per_id"]["median"].as_f64(), by_threads[1]["ns_per_id"]["median"].as_f64());
        rows.push(json!({
            "name": name, "group": if group == Group::Idgen { "idgen" } else { "peer" }, "what": what,
            "ir_per_id": ir, "keystream_ir_per_id": keystream_ir, "getrandom_per_1000": calls,
            "ns_per_id": by_threads[0]["ns_per_id"], "ns_per_id_2_threads": by_threads[1]["ns_per_id"],
            "two_thread_ratio": two.zip(one).map(|(t, o)| t / o),
            "x_aes_floor": one.zip(floor_ns).map(|(o, f)| o / f),
            "runs": by_threads,
        }));
    }
    // Speed-ups from the same run's medians, then their median over runs.
    let ratio = |slow: &str| {
        let r: Vec<f64> = medians[&(slow, 1)].iter().zip(&medians[&("fast", 1)]).map(|(s, f)| s / f).collect();
        spread(r)
    };
    let row = |name: &str| rows.iter().find(|r| r["name"] == name).cloned().unwrap_or_default();
    let num = |name: &str, key: &str| row(name)[key].as_f64().unwrap_or(f64::NAN);
    let median = |name: &str| row(name)["ns_per_id"]["median"].as_f64().unwrap_or(f64::NAN);
    let vs_rand = ratio("rand-random-u128");
    let vs_uuid = ratio("uuid");
    let target = |what: &str, value: f64, met: bool| json!({ "target": what, "value": value, "met": met });
    let targets = vec![
        target("mint() <= 18 Ir/ID", num("fast", "ir_per_id"), num("fast", "ir_per_id") <= 18.0),
        target("fill() <= 10 Ir/ID", num("fill", "ir_per_id"), num("fill", "ir_per_id") <= 10.0),
        target(
            "fill() within 1.5x of the AES-128 keystream floor (ns/ID, 1 thread)",
            num("fill", "x_aes_floor"),
            num("fill", "x_aes_floor") <= 1.5,
        ),
        target("mint() <= 2.0 ns/ID median at 1 thread", median("fast"), median("fast") <= 2.0),
        target(
            "mint() per-thread ns/ID at 2 threads within 10% of 1 thread",
            num("fast", "two_thread_ratio"),
            num("fast", "two_thread_ratio") <= 1.10,
        ),
        target("fill <= 0.5 ns/ID for a 1000-ID batch", median("fill"), median("fill") <= 0.5),
        target(
            "mint() >= 4x faster than rand::random::<u128>() (same runs, median)",
            vs_rand["median"].as_f64().unwrap_or(0.0),
            vs_rand["median"].as_f64().unwrap_or(0.0) >= 4.0,
        ),
        target(
            "mint() >= 150x faster than Uuid::new_v4() (same runs, median)",
            vs_uuid["median"].as_f64().unwrap_or(0.0),
            vs_uuid["median"].as_f64().unwrap_or(0.0) >= 150.0,
        ),
        target(
            "mint() <= 0.01 getrandom per 1000 IDs",
            num("fast", "getrandom_per_1000"),
            num("fast", "getrandom_per_1000") <= 0.01,
        ),
        target(
            "wipe-on-fork adds <= 2 Ir/ID over the atfork fallback",
            num("fast", "ir_per_id") - num("fast-atfork", "ir_per_id"),
            num("fast", "ir_per_id") - num("fast-atfork", "ir_per_id") <= 2.0,
        ),
    ];
    let json = json!({
        "tool": "valgrind --tool=callgrind and strace -f -c on `mint-cost run`; wall clock in `mint-cost record` (idgen/examples/mint-cost.rs)",
        "command": command,
        "date": sh("date", &["-u", "+%Y-%m-%dT%H:%M:%SZ"]),
        "cpu": cpu_model(),
        "cores": sh("nproc", &[]),
        "toolchain": sh("rustc", &["-V"]),
        "valgrind": sh("valgrind", &["--version"]),
        "fork_model": format!("{:?}", idgen::fork_model()),
        "aes_hardware": aes::hardware_accelerated(),
        "aes_floor": floor,
        // valgrind runs AES-NI's one block per instruction: the rounds, the first key's XOR, the store.
        "aes_block_ir_under_callgrind": ROUNDS + 2.0,
        "ids_per_counted_run": counted,
        "timing": format!("{SAMPLES} samples of {SAMPLE_BATCHES} x {BATCH} IDs after one warm-up, per run the median sample (of all threads' samples); {runs} runs per source and thread count"),
        "unit": { "ir_per_id": "user-space instructions per ID", "ns_per_id": "ns per ID per thread" },
        "strategies": rows,
        "speedup_vs_rand_random_u128": vs_rand,
        "speedup_vs_uuid_new_v4": vs_uuid,
        "targets": targets,
    });
    std::fs::write(out, serde_json::to_string_pretty(&json).expect("json") + "\n")
        .map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("mint-cost: wrote {}", out.display());
    Ok(())
}

fn sh(program: &str, args: &[&str]) -> String {
    std::process::Command::new(program)
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// The first CPU's value of a /proc/cpuinfo field.
fn cpuinfo(field: &str) -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines().find_map(|l| l.split_once(':').filter(|(k, _)| k.trim() == field).map(|(_, v)| v.trim().to_owned()))
}

fn cpu_model() -> String {
    cpuinfo("model name").unwrap_or_else(|| "unknown CPU".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_s_own_instructions_leave_out_what_it_calls() {
        // A caller (5 + 2 own) calls the cipher (inclusive 40, not the caller's), which is named
        // in full at the call and by id in its own block (30 own, then 10 more after "+2").
        let dir = std::env::temp_dir().join(format!("mint-cost-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = "events: Ir\nsummary: 47\n\nfn=(1) mint_cost::main\n3 5\ncfn=(2) aes::backends::x86_aes::Aes<_>::encrypt\ncalls=1 0\n4 40\n+1 2\n\nfn=(2)\n0 30\n+2 10\n";
        std::fs::write(dir.join("callgrind.fill"), text).unwrap();
        assert_eq!(callgrind_self_ir(&dir, "fill", in_keystream), Ok(40.0));
        assert_eq!(callgrind_self_ir(&dir, "fill", |f| f == "mint_cost::main"), Ok(7.0));
        assert_eq!(callgrind_ir(&dir, "fill"), Ok(47.0));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
