//! Uniqueness at scale: P processes mint N IDs each with `idgen::mint()`. Some are forked from
//! one parent after it minted and some made from it by the raw `clone` syscall (no atfork
//! handlers run: the cases a per-process pool must survive), the rest spawned afresh. Each
//! writes its IDs into 256 shard files by top byte; each shard is then sorted and checked on its
//! own, so memory stays at one shard's worth. `--record` writes results/uniqueness.json and .md.
//! Usage: `uniqueness run --dir D [--processes 8 --forked 3 --cloned 3 --per-process 12500000]
//! [--record results/uniqueness]`, or `uniqueness check --dir D`.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Parser;
use serde_json::json;

const SHARDS: usize = 256;
/// IDs the parent mints before forking, so the forked children inherit a used pool.
const PARENT_IDS: u64 = 100_000;

#[derive(Parser)]
enum Cmd {
    /// Mint with every process, then check the shards.
    Run {
        #[arg(long)]
        dir: PathBuf,
        #[arg(long, default_value_t = 8)]
        processes: u32,
        /// How many of the processes are forked from the parent.
        #[arg(long, default_value_t = 3)]
        forked: u32,
        /// How many are made from the parent by a raw `clone(SIGCHLD)` syscall (the rest are
        /// spawned).
        #[arg(long, default_value_t = 3)]
        cloned: u32,
        #[arg(long, default_value_t = 12_500_000)]
        per_process: u64,
        /// Write <RECORD>.json and <RECORD>.md with the figures, command, date and machine.
        #[arg(long)]
        record: Option<PathBuf>,
    },
    /// Check the shards already in a directory.
    Check {
        #[arg(long)]
        dir: PathBuf,
    },
    /// One spawned minting process (started by `run`).
    #[command(hide = true)]
    Worker {
        #[arg(long)]
        dir: PathBuf,
        #[arg(long)]
        per_process: u64,
    },
}

fn main() -> ExitCode {
    let outcome = match Cmd::parse() {
        Cmd::Run { dir, processes, forked, cloned, per_process, record } => {
            run(&dir, &Shape { processes, forked, cloned, per_process }, record.as_deref())
        }
        Cmd::Check { dir } => check(&dir).map(|c| c.report_line()).and_then(|(line, ok)| finish(line, ok)),
        Cmd::Worker { dir, per_process } => mint_into(&dir, per_process),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn finish(line: String, ok: bool) -> anyhow::Result<()> {
    println!("{line}");
    if !ok {
        bail!("duplicate IDs found");
    }
    Ok(())
}

/// Mints `n` IDs into `dir/shard-XX` files, one per top byte.
fn mint_into(dir: &Path, n: u64) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut shards: Vec<BufWriter<File>> = (0..SHARDS)
        .map(|s| File::create(dir.join(format!("shard-{s:02x}"))).map(|f| BufWriter::with_capacity(1 << 16, f)))
        .collect::<Result<_, _>>()
        .with_context(|| format!("cannot create shard files in {}", dir.display()))?;
    for _ in 0..n {
        let id = idgen::mint().to_le_bytes();
        shards[id[15] as usize].write_all(&id)?;
    }
    for mut s in shards {
        s.flush()?;
    }
    Ok(())
}

/// How many processes of each kind, and IDs per process.
struct Shape {
    processes: u32,
    forked: u32,
    cloned: u32,
    per_process: u64,
}

impl Shape {
    fn spawned(&self) -> u32 {
        self.processes - self.forked - self.cloned
    }
}

/// A copy of this process that mints into `dir` and exits: made by `fork()` or by the raw
/// `clone` syscall with only SIGCHLD (a fork that runs no atfork handlers).
fn child(dir: &Path, per_process: u64, raw_clone: bool, label: &str) -> anyhow::Result<libc::pid_t> {
    // SAFETY: the parent is single-threaded here; the child only mints, writes files and
    // leaves with _exit, never returning into the parent's code.
    let pid = unsafe {
        if raw_clone { libc::syscall(libc::SYS_clone, libc::SIGCHLD, 0, 0, 0, 0) as libc::pid_t } else { libc::fork() }
    };
    match pid {
        -1 => bail!("{label} failed: {}", std::io::Error::last_os_error()),
        0 => {
            let code = match mint_into(dir, per_process) {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("error: {label} child: {e:#}");
                    1
                }
            };
            unsafe { libc::_exit(code) };
        }
        pid => Ok(pid),
    }
}

fn run(dir: &Path, shape: &Shape, record: Option<&Path>) -> anyhow::Result<()> {
    let Shape { processes, forked, cloned, per_process } = *shape;
    if processes == 0 || per_process == 0 || forked + cloned > processes {
        bail!("need processes > 0, per_process > 0 and forked + cloned <= processes");
    }
    if dir.exists() && std::fs::read_dir(dir)?.next().is_some() {
        bail!("{} is not empty; give a fresh directory", dir.display());
    }
    let started = Instant::now();
    // The parent mints first, so its pool state is what each forked or cloned child inherits.
    mint_into(&dir.join("parent"), PARENT_IDS)?;
    let mut children = Vec::new();
    for i in 0..forked {
        children.push(child(&dir.join(format!("forked-{i}")), per_process, false, "fork")?);
    }
    for i in 0..cloned {
        children.push(child(&dir.join(format!("cloned-{i}")), per_process, true, "raw clone")?);
    }
    let exe = std::env::current_exe()?;
    let spawned: Vec<_> = (forked + cloned..processes)
        .map(|i| {
            Command::new(&exe)
                .args(["worker", "--per-process", &per_process.to_string(), "--dir"])
                .arg(dir.join(format!("spawned-{i}")))
                .spawn()
                .context("cannot spawn a worker")
        })
        .collect::<Result<_, _>>()?;
    for pid in children {
        let mut status = 0;
        // SAFETY: waiting on our own child.
        if unsafe { libc::waitpid(pid, &mut status, 0) } != pid
            || !libc::WIFEXITED(status)
            || libc::WEXITSTATUS(status) != 0
        {
            bail!("child {pid} failed (status {status})");
        }
    }
    for mut child in spawned {
        if !child.wait()?.success() {
            bail!("a spawned worker failed");
        }
    }
    let mint_s = started.elapsed().as_secs_f64();
    let checked = check(dir)?;
    let expected = PARENT_IDS + u64::from(processes) * per_process;
    if checked.ids != expected {
        bail!("found {} IDs in {}, expected {expected}", checked.ids, dir.display());
    }
    let (line, ok) = checked.report_line();
    if let Some(base) = record {
        write_record(base, shape, &checked, mint_s, started.elapsed().as_secs_f64())?;
    }
    finish(line, ok)
}

struct Checked {
    ids: u64,
    duplicates: u64,
    largest_shard_ids: usize,
    writers: usize,
}

impl Checked {
    fn report_line(&self) -> (String, bool) {
        let line = format!(
            "{} IDs from {} writers, {} duplicates (largest shard {} IDs)",
            self.ids, self.writers, self.duplicates, self.largest_shard_ids
        );
        (line, self.duplicates == 0)
    }
}

/// Sorts each shard across every writer's directory and counts repeated IDs.
fn check(dir: &Path) -> anyhow::Result<Checked> {
    let mut writers: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    writers.retain(|p| p.is_dir());
    writers.sort();
    if writers.is_empty() {
        bail!("{} holds no writer directories", dir.display());
    }
    let mut out = Checked { ids: 0, duplicates: 0, largest_shard_ids: 0, writers: writers.len() };
    let mut bytes = Vec::new();
    for s in 0..SHARDS {
        bytes.clear();
        for w in &writers {
            let path = w.join(format!("shard-{s:02x}"));
            File::open(&path)
                .and_then(|mut f| f.read_to_end(&mut bytes))
                .with_context(|| format!("cannot read {}", path.display()))?;
        }
        if bytes.len() % 16 != 0 {
            bail!("shard {s:02x} holds {} bytes, not whole 16-byte IDs", bytes.len());
        }
        let mut ids: Vec<u128> =
            bytes.chunks_exact(16).map(|c| u128::from_le_bytes(c.try_into().expect("16 bytes"))).collect();
        ids.sort_unstable();
        out.duplicates += ids.windows(2).filter(|w| w[0] == w[1]).count() as u64;
        out.ids += ids.len() as u64;
        out.largest_shard_ids = out.largest_shard_ids.max(ids.len());
    }
    Ok(out)
}

fn write_record(base: &Path, shape: &Shape, c: &Checked, mint_s: f64, total_s: f64) -> anyhow::Result<()> {
    let Shape { processes, forked, cloned, per_process } = *shape;
    let spawned = shape.spawned();
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let date = command_output("date", &["-u", "+%Y-%m-%dT%H:%M:%SZ"]);
    let machine =
        format!("{}; {} CPUs; {}", cpu_model(), command_output("nproc", &[]), command_output("uname", &["-sr"]));
    // The minting code is idgen's: a commit with idgen changes on top would not be what ran.
    let mut commit = command_output("git", &["rev-parse", "--short", "HEAD"]);
    if !command_output("git", &["status", "--porcelain", "--", "idgen"]).is_empty() {
        commit.push_str(" with uncommitted changes under idgen/");
    }
    let json = json!({
        "command": command, "date": date, "machine": machine, "commit": commit,
        "processes": processes, "forked": forked, "raw_cloned": cloned, "spawned": spawned,
        "fork_model": format!("{:?}", idgen::fork_model()),
        "ids_per_process": per_process, "parent_ids_before_fork": PARENT_IDS,
        "ids": c.ids, "duplicates": c.duplicates, "shards": SHARDS, "largest_shard_ids": c.largest_shard_ids,
        "mint_and_write_seconds": mint_s, "total_seconds": total_s,
    });
    let md = format!(
        "# Uniqueness at scale\n\n\
         {} IDs from `idgen::mint()`: {processes} processes x {per_process} ({forked} forked and {cloned} made by a raw \
         `clone(SIGCHLD)` syscall from one parent after it minted {PARENT_IDS}, {spawned} spawned), plus the parent's \
         {PARENT_IDS}. Fork model: {:?}. Merged by top byte into {SHARDS} shards, each \
         sorted on its own (largest {} IDs, {:.1} MiB).\n\n\
         | IDs | duplicates | mint and write | total |\n|---|---|---|---|\n| {} | **{}** | {mint_s:.1} s | {total_s:.1} s |\n\n\
         - command: `{command}` (via `scripts/uniqueness.sh`)\n- date: {date}\n- machine: {machine}\n- commit: {commit}\n",
        c.ids,
        idgen::fork_model(),
        c.largest_shard_ids,
        c.largest_shard_ids as f64 * 16.0 / (1 << 20) as f64,
        c.ids,
        c.duplicates,
    );
    let with_ext = |ext: &str| base.with_extension(ext);
    std::fs::write(with_ext("json"), serde_json::to_string_pretty(&json)? + "\n")?;
    std::fs::write(with_ext("md"), md)?;
    eprintln!("wrote {} and {}", with_ext("json").display(), with_ext("md").display());
    Ok(())
}

fn command_output(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}
