//! The one table of `harness run`'s settings. Each [`Setting`] is defined once, in [`SETTINGS`]; its
//! flag, its environment variable, its suite-file key, its help and default, whether producers
//! get it, how it is shown in the report and in the command that reproduces a workload are all
//! read from it. A new setting is one [`Setting`] here and one field of [`Settings`].

use std::marker::PhantomData;
use std::path::PathBuf;

use anyhow::bail;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};
use serde::Serialize;

use super::affinity;
use super::design::Design;
use super::producer_spec::ProducerSpec;
use super::records::{Arm, Metric, Size};
use super::sdk::{self, SDKS, Sdk};
use super::split::{self, RowSplit};
use crate::producer::{Mode, PayloadArgs, ProduceArgs};

/// One setting.
pub struct Setting {
    /// The environment variable, and the setting's name in messages (`BATCH=0 is ...`).
    pub env: &'static str,
    /// The flag, without `--`; its suite-file key is the same with `_` for `-`.
    pub flag: &'static str,
    /// Older flag spellings that still work.
    pub aliases: &'static [&'static str],
    pub help: &'static str,
    pub default: Fallback,
    /// Sent to every producer run in its environment (sdks/README.md).
    pub to_producer: bool,
    /// A suite file may set it, at its top level or in a workload; it then shapes the workload
    /// (shown by `--dry-run`, and a valid `varies`).
    pub in_suite: bool,
    /// Shown in the report's settings line: what each run measured.
    pub in_line: bool,
    /// Shapes each message's payload. MODE=mint sends no messages, so a mint run leaves such a
    /// setting out of its name, its settings line and the command that reproduces it.
    pub payload: bool,
    pub binding: Binding,
}

/// The value a setting has when nothing gives one.
pub enum Fallback {
    /// Read like a given value.
    Value(&'static str),
    /// Worked out from other settings, as described.
    Derived(&'static str),
}

/// Where a setting's value goes.
pub enum Binding {
    /// A field of a workload's [`Settings`]: how a value is read into it, and how the
    /// resolved value is written out again.
    Workload { set: fn(&mut Settings, &str) -> Result<(), Bad>, get: fn(&Settings) -> String },
    /// How the whole run writes its reports, read by `RunArgs`.
    Output,
    /// An older spelling of another setting: read into its field, never written out.
    Alias { set: fn(&mut Settings, &str) -> Result<(), Bad> },
}

/// Why a value was refused.
#[derive(Debug)]
pub enum Bad {
    /// Not a value of the setting's type at all ("is not a whole number"): said as the user
    /// wrote it, the flag or the variable.
    Unreadable(String),
    /// A readable value out of range: the whole message, naming the setting.
    Refused(String),
}

/// Where a given value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Flag,
    Env,
    Suite,
}

/// The binding of a whole-number field of [`Settings`] with no range of its own.
macro_rules! number_field {
    ($field:ident) => {
        Binding::Workload {
            set: |s, v| {
                s.$field = number(v)?;
                Ok(())
            },
            get: |s| s.$field.to_string(),
        }
    };
}

pub const MODE: Setting = Setting {
    env: "MODE",
    flag: "mode",
    aliases: &[],
    help: "What a run measures: producer (msgs/s against the sink) or mint (IDs/s in a loop, Rust only).",
    default: Fallback::Value("producer"),
    to_producer: true,
    in_suite: true,
    in_line: true,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.mode = match v {
                "producer" => Mode::Producer,
                "mint" => Mode::Mint,
                _ => return Err(Bad::Unreadable("is unknown; expected producer or mint".into())),
            };
            Ok(())
        },
        get: |s| mode_name(s.mode).into(),
    },
};

pub const SDK: Setting = Setting {
    env: "SDK",
    flag: "sdk",
    aliases: &[],
    help: "SDK rows, comma-separated:",
    default: Fallback::Value("rust"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.sdks = list(v);
            listed_once("SDK", &s.sdks)
        },
        get: |s| s.sdks.join(","),
    },
};

/// The first entry a list gives twice. A list's entries are arms, rows or levels: one given
/// twice would run twice under one name.
pub fn repeated<T: PartialEq>(entries: &[T]) -> Option<&T> {
    entries.iter().enumerate().find_map(|(i, e)| entries[..i].contains(e).then_some(e))
}

fn listed_once(env: &str, entries: &[String]) -> Result<(), Bad> {
    match repeated(entries) {
        Some(dup) => Err(Bad::Refused(format!("{env}={dup} is listed twice"))),
        None => Ok(()),
    }
}

pub const MSG_ID: Setting = Setting {
    env: "MSG_ID",
    flag: "msg-id",
    aliases: &[],
    help: "ID strategies, comma-separated; each runs for every SDK. Each SDK's own:",
    default: Fallback::Value("uuid,fast"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.msg_ids = list(v);
            listed_once("MSG_ID", &s.msg_ids)
        },
        get: |s| s.msg_ids.join(","),
    },
};

pub const REPEAT: Setting = Setting {
    env: "REPEAT",
    flag: "repeat",
    aliases: &[],
    help: "Timed runs per arm, after one discarded warm-up run each.",
    default: Fallback::Value("10"),
    to_producer: false,
    in_suite: true,
    in_line: true,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.repeat = at_least("REPEAT", v, 1, "")?;
            Ok(())
        },
        get: |s| s.repeat.to_string(),
    },
};

pub const BITS: Setting = Setting {
    env: "BITS",
    flag: "bits",
    aliases: &[],
    help: "Bits per packed payload value, 1..=64 (42 bits x PACK 1 is ~6 B a message, x 167 is 1,002 B); MODE=mint has no payload.",
    default: Fallback::Value("42"),
    to_producer: true,
    in_suite: true,
    in_line: true,
    payload: true,
    binding: number_field!(bits),
};

pub const PACK: Setting = Setting {
    env: "PACK",
    flag: "pack",
    aliases: &[],
    help: "Values per message; MODE=mint has no payload.",
    default: Fallback::Value("1"),
    to_producer: true,
    in_suite: true,
    in_line: true,
    payload: true,
    binding: number_field!(pack),
};

pub const BATCH: Setting = Setting {
    env: "BATCH",
    flag: "batch",
    aliases: &[],
    help: "Messages per request (one in flight).",
    default: Fallback::Value("1000"),
    to_producer: true,
    in_suite: true,
    in_line: true,
    payload: false,
    binding: number_field!(batch),
};

pub const MESSAGES: Setting = Setting {
    env: "MESSAGES",
    flag: "messages",
    aliases: &[],
    help: "Messages per run, warm-up included.",
    default: Fallback::Value("1000000"),
    to_producer: true,
    in_suite: true,
    in_line: true,
    payload: false,
    binding: number_field!(messages),
};

pub const WARMUP: Setting = Setting {
    env: "WARMUP",
    flag: "warmup",
    aliases: &[],
    help: "Messages before each run's timed window, rounded up to whole batches.",
    default: Fallback::Derived("10% of MESSAGES"),
    to_producer: true,
    in_suite: true,
    in_line: true,
    payload: false,
    binding: number_field!(warmup),
};

pub const TIMEOUT: Setting = Setting {
    env: "TIMEOUT",
    flag: "timeout",
    aliases: &[],
    help: "Seconds one producer run may take before it is killed and reported FAILED.",
    default: Fallback::Value("300"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.timeout_s = at_least("TIMEOUT", v, 1, " second")?;
            Ok(())
        },
        get: |s| s.timeout_s.to_string(),
    },
};

pub const SYSCALLS: Setting = Setting {
    env: "SYSCALLS",
    flag: "syscalls",
    aliases: &[],
    help: "Two extra runs per arm under `strace -f -c`, differing only in their message count (a tenth of MESSAGES/BATCH batches, 5 to 50, and twice that), for syscalls per message, sends and receives per batch and getrandom calls per 1000 IDs (true or false).",
    default: Fallback::Value("true"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Workload { set: set_syscalls, get: |s| s.syscalls.to_string() },
};

/// The older spelling of SYSCALLS.
pub const COUNTS: Setting = Setting {
    env: "COUNTS",
    flag: "counts",
    aliases: &[],
    help: "The older spelling of SYSCALLS.",
    default: Fallback::Derived("SYSCALLS's"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Alias { set: set_syscalls },
};

fn set_syscalls(s: &mut Settings, v: &str) -> Result<(), Bad> {
    s.syscalls = v.parse().map_err(|_| Bad::Unreadable("is not true or false".into()))?;
    Ok(())
}

pub const DESIGN: Setting = Setting {
    env: "DESIGN",
    flag: "design",
    aliases: &[],
    help: "How arms are compared: lockstep (one process per arm, a set's processes run at once and the sink releases one batch at a time in shuffled blocks, timing each producer's own part of every turn: any build, any language), paired (an SDK's MSG_ID arms share one process, timed batch by batch around each other) or processes (one process per arm, one after another). lockstep and paired add an A/A twin of the base arm.",
    default: Fallback::Derived(
        "lockstep for rows of your own (--producer); paired where it can compare (two or more MSG_IDs of the built-in rows, MODE=producer, METRIC=wall, no prebuilt); else processes",
    ),
    to_producer: false,
    in_suite: true,
    in_line: true,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.design = Design::parse(v)
                .ok_or_else(|| Bad::Unreadable("is unknown; expected lockstep, paired or processes".into()))?;
            Ok(())
        },
        get: |s| s.design.name().into(),
    },
};

/// The older spelling of DESIGN: 1 is paired, 0 processes.
pub const PAIRED: Setting = Setting {
    env: "PAIRED",
    flag: "paired",
    aliases: &[],
    help: "The older spelling of DESIGN: 1 is DESIGN=paired, 0 DESIGN=processes.",
    default: Fallback::Derived("DESIGN's"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Alias {
        set: |s, v| {
            s.design = match v {
                "1" | "true" => Design::Paired,
                "0" | "false" => Design::Processes,
                _ => return Err(Bad::Unreadable("is not 0 or 1".into())),
            };
            Ok(())
        },
    },
};

pub const METRIC: Setting = Setting {
    env: "METRIC",
    flag: "metric",
    aliases: &[],
    help: "What a cross-process verdict compares: wall (msgs/s in the timed window) or cpu (messages per second of the producer's user + system time).",
    default: Fallback::Value("wall"),
    to_producer: false,
    in_suite: true,
    in_line: true,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.metric = match v {
                "wall" => Metric::Wall,
                "cpu" => Metric::Cpu,
                _ => return Err(Bad::Unreadable("is unknown; expected wall or cpu".into())),
            };
            Ok(())
        },
        get: |s| s.metric.name().into(),
    },
};

pub const CPUS: Setting = Setting {
    env: "CPUS",
    flag: "cpus",
    aliases: &[],
    help: "CPUs the runner, its sink and every producer run on: all, or a list such as 0 or 0-1. On one CPU a round trip is a switch on that CPU rather than a wake-up across CPUs, whose cost on a VM moves from process to process; a producer's GC and compiler threads then share that CPU too.",
    default: Fallback::Value("all"),
    to_producer: false,
    in_suite: true,
    in_line: true,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.cpus = affinity::parse(v).map_err(Bad::Unreadable)?;
            Ok(())
        },
        get: |s| affinity::text(s.cpus.as_deref()),
    },
};

pub const FREEZE: Setting = Setting {
    env: "FREEZE",
    flag: "freeze",
    aliases: &[],
    help: "Lock-step only: stop each producer (SIGSTOP) from the moment the sink has read its batch until its next turn (SIGCONT), so its runtime's own threads (GC, JIT compiler, timers) run in its turns only, not in the others' (true or false).",
    default: Fallback::Value("false"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.freeze = v.parse().map_err(|_| Bad::Unreadable("is not true or false".into()))?;
            Ok(())
        },
        get: |s| s.freeze.to_string(),
    },
};

pub const STOLEN: Setting = Setting {
    env: "STOLEN",
    flag: "stolen",
    aliases: &[],
    help: "What a timed launch does whose CPUs lost more than 5% of their time to the hypervisor (steal), which lands in a few turns of one arm and can outweigh a small change: rerun (run it again, up to twice; its runs stay in the JSON marked stolen and count in no figure) or count (count it whatever it lost).",
    default: Fallback::Value("rerun"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.rerun_stolen = match v {
                "rerun" => true,
                "count" => false,
                _ => return Err(Bad::Unreadable("is not rerun or count".into())),
            };
            Ok(())
        },
        get: |s| s.stolen().into(),
    },
};

pub const PRECISION: Setting = Setting {
    env: "PRECISION",
    flag: "precision",
    aliases: &[],
    help: "Run more rounds after REPEAT until every comparison's 95% CI half-width is at most this many % (e.g. 0.5%), or BUDGET runs out, whichever comes first; the report says which. A row already that narrow runs no more, so the time goes to the rows still wide. none: REPEAT rounds.",
    default: Fallback::Value("none"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.precision_pct = match v.strip_suffix('%').unwrap_or(v) {
                "none" => None,
                n => {
                    let pct: f64 = n.parse().map_err(|_| Bad::Unreadable("is not a percentage such as 0.5%".into()))?;
                    if !(pct > 0.0 && pct <= 50.0) {
                        return Err(Bad::Refused(format!(
                            "PRECISION={v} is out of range: it must be above 0 and at most 50 (%)"
                        )));
                    }
                    Some(pct)
                }
            };
            Ok(())
        },
        get: |s| s.precision_pct.map_or("none".into(), |p| format!("{p}%")),
    },
};

pub const BUDGET: Setting = Setting {
    env: "BUDGET",
    flag: "budget",
    aliases: &[],
    help: "Time a workload may take: rounds go on after REPEAT while another fits (until PRECISION is met, if given). none: REPEAT rounds (with PRECISION: at most 1000 rounds).",
    default: Fallback::Value("none"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.budget_s = match v {
                "none" => None,
                _ => Some(
                    humantime::parse_duration(v)
                        .map_err(|_| Bad::Unreadable("is not a duration such as 90s or 10m".into()))?
                        .as_secs()
                        .max(1),
                ),
            };
            Ok(())
        },
        get: |s| {
            s.budget_s
                .map_or("none".into(), |b| humantime::format_duration(std::time::Duration::from_secs(b)).to_string())
        },
    },
};

pub const SPLIT: Setting = Setting {
    env: "SPLIT",
    flag: "split",
    aliases: &[],
    help: "An earlier report's JSON (a lock-step or paired run of the same workloads and rows): each SDK row runs the MESSAGES, WARMUP and REPEAT that today's model advises from what its Budget line there measured (start-up, cost per message, spread), in the time that row took there. Give this run its own NAME. none: every row runs MESSAGES and REPEAT.",
    default: Fallback::Value("none"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.split = (v != "none").then(|| v.to_owned());
            Ok(())
        },
        get: |s| s.split.clone().unwrap_or_else(|| "none".into()),
    },
};

pub const UPSTREAM: Setting = Setting {
    env: "UPSTREAM",
    flag: "upstream",
    aliases: &[],
    help: "An Iggy server (host:port) the sink forwards every request to, relaying its replies while it still verifies every batch and paces lock-step sets: your own server behind the same checks and timing. none: the sink answers itself.",
    default: Fallback::Value("none"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.upstream = (v != "none").then(|| v.to_owned());
            Ok(())
        },
        get: |s| s.upstream.clone().unwrap_or_else(|| "none".into()),
    },
};

pub const SEED: Setting = Setting {
    env: "SEED",
    flag: "seed",
    aliases: &[],
    help: "Seed of the randomised order: of the rounds' processes, and of each paired process's blocks.",
    default: Fallback::Derived("a fresh random seed, recorded in the report"),
    to_producer: false,
    in_suite: true,
    in_line: false,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            s.seed = number(v)?;
            Ok(())
        },
        get: |s| s.seed.to_string(),
    },
};

pub const NAME: Setting = Setting {
    env: "NAME",
    flag: "name",
    aliases: &[],
    help: "Report name: the report is RESULTS_DIR/NAME.md, .json and .html.",
    default: Fallback::Derived("the suite's name, or MODE-SDK-bitsBITS-packPACK (MODE=mint: MODE-SDK)"),
    to_producer: false,
    in_suite: false,
    in_line: false,
    payload: false,
    binding: Binding::Workload {
        set: |s, v| {
            check_file_name("NAME", v).map_err(|e| Bad::Refused(e.to_string()))?;
            s.name = v.into();
            Ok(())
        },
        get: |s| s.name.clone(),
    },
};

pub const RESULTS_DIR: Setting = Setting {
    env: "RESULTS_DIR",
    flag: "results-dir",
    aliases: &["report"],
    help: "Where reports are written.",
    default: Fallback::Derived("results/"),
    to_producer: false,
    in_suite: false,
    in_line: false,
    payload: false,
    binding: Binding::Output,
};

pub const FORMAT: Setting = Setting {
    env: "FORMAT",
    flag: "format",
    aliases: &[],
    help: "Report formats, comma-separated: md (tables and verdicts), json (every raw sample and the sink's counts; also what FORCE checks), html (charts, for a browser).",
    default: Fallback::Value("md,json,html"),
    to_producer: false,
    in_suite: false,
    in_line: false,
    payload: false,
    binding: Binding::Output,
};

pub const FORCE: Setting = Setting {
    env: "FORCE",
    flag: "force",
    aliases: &[],
    help: "Replace a complete report with more timed runs (REPEAT) or messages per run (MESSAGES) in a workload than this run, or with a workload this run lacks; without it such a run is refused before it starts (true or false).",
    default: Fallback::Value("false"),
    to_producer: false,
    in_suite: false,
    in_line: false,
    payload: false,
    binding: Binding::Output,
};

/// Every setting, in the order flags, reports and commands show them.
pub const SETTINGS: &[&Setting] = &[
    &MODE,
    &SDK,
    &MSG_ID,
    &REPEAT,
    &BITS,
    &PACK,
    &BATCH,
    &MESSAGES,
    &WARMUP,
    &TIMEOUT,
    &SYSCALLS,
    &COUNTS,
    &DESIGN,
    &PAIRED,
    &METRIC,
    &CPUS,
    &FREEZE,
    &STOLEN,
    &PRECISION,
    &BUDGET,
    &SPLIT,
    &UPSTREAM,
    &SEED,
    &NAME,
    &RESULTS_DIR,
    &FORMAT,
    &FORCE,
];

/// Variables producers read that no row sends from a setting: the launcher sets SERVER, MSG_ID,
/// PAIRED, SEED, INJECT_NS and INJECT_ARM per run, and SEND_PATH from the SDK row; the iggy row
/// reads PARTITIONS.
const PRODUCER_ONLY: &[&str] = &["SERVER", "PAIRED", "SEED", "INJECT_NS", "INJECT_ARM", "SEND_PATH", "PARTITIONS"];

/// Every variable the harness and its producers read, for clearing a test's environment.
pub fn env_names() -> Vec<&'static str> {
    SETTINGS.iter().map(|s| s.env).chain(PRODUCER_ONLY.iter().copied()).collect()
}

/// The settings as a Markdown table: variable, flag, suite key, default, meaning.
pub fn table() -> String {
    let mut out = String::from("| setting | flag | suite key | default | meaning |\n|---|---|---|---|---|\n");
    for s in SETTINGS {
        let key = if s.in_suite { format!("`{}`", s.key()) } else { "-".into() };
        out += &format!("| `{}` | `--{}` | {key} | {} | {} |\n", s.env, s.flag, s.default_text(), s.meaning());
    }
    out
}

impl Setting {
    /// The key of this setting in a suite file.
    pub fn key(&self) -> String {
        self.flag.replace('-', "_")
    }

    /// The help, and the names a value may take where the table of SDK rows lists them.
    pub fn meaning(&self) -> String {
        let choices = match self.env {
            "SDK" => format!(" {}.", SDKS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")),
            "MSG_ID" => SDKS.iter().map(|s| format!(" {}: {}.", s.name, s.msg_ids.join(", "))).collect(),
            _ => String::new(),
        };
        format!("{}{choices}", self.help)
    }

    pub fn default_text(&self) -> &'static str {
        match self.default {
            Fallback::Value(v) | Fallback::Derived(v) => v,
        }
    }

    /// The flag's help: the meaning and the default.
    pub fn help_text(&self) -> String {
        format!("{} [default: {}]", self.meaning(), self.default_text())
    }

    fn arg(&'static self) -> Arg {
        let arg = Arg::new(self.env)
            .long(self.flag)
            .visible_aliases(self.aliases)
            .env(self.env)
            .value_name(self.env)
            .action(ArgAction::Set)
            // `--repeat -1` is a value to refuse by name, not an unknown flag.
            .allow_negative_numbers(true)
            .help(self.help_text());
        if self.is_switch() { arg.num_args(0..=1).default_missing_value("true") } else { arg }
    }

    /// A true-or-false setting: its bare flag (`--force`) means true.
    fn is_switch(&self) -> bool {
        matches!(self.default_text(), "true" | "false")
    }

    fn get(&self) -> Option<fn(&Settings) -> String> {
        match self.binding {
            Binding::Workload { get, .. } => Some(get),
            Binding::Output | Binding::Alias { .. } => None,
        }
    }
}

pub fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Producer => "producer",
        Mode::Mint => "mint",
    }
}

fn list(v: &str) -> Vec<String> {
    v.split(',').map(str::to_owned).collect()
}

fn number<T: std::str::FromStr>(v: &str) -> Result<T, Bad> {
    v.parse().map_err(|_| Bad::Unreadable("is not a whole number".into()))
}

fn at_least<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    env: &str,
    v: &str,
    min: T,
    unit: &str,
) -> Result<T, Bad> {
    let n: T = number(v)?;
    if n < min {
        return Err(Bad::Refused(format!("{env}={v} is out of range: it must be at least {min}{unit}")));
    }
    Ok(n)
}

pub fn check_file_name(what: &str, name: &str) -> anyhow::Result<()> {
    // `.` and `..` are directories, and a NAME of `..` would write `...md`.
    if name.is_empty() || name.contains('/') || name.starts_with('.') {
        bail!("{what}={name:?} must be a plain file name (no '/', not starting with '.')");
    }
    Ok(())
}

/// A workload's resolved settings, recorded beside its results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    pub mode: Mode,
    pub sdks: Vec<String>,
    pub msg_ids: Vec<String>,
    pub repeat: u32,
    pub bits: u32,
    pub pack: u32,
    pub batch: u32,
    pub messages: u64,
    pub warmup: u64,
    pub timeout_s: u64,
    /// SYSCALLS: count each arm's syscalls under strace. Written `counts` in a report, as it
    /// always was.
    #[serde(rename = "counts")]
    pub syscalls: bool,
    pub design: Design,
    pub metric: Metric,
    /// The CPUs the run is confined to (CPUS); None: every one the runner may use.
    pub cpus: Option<Vec<usize>>,
    /// FREEZE: lock-step producers are stopped outside their turns.
    pub freeze: bool,
    /// STOLEN: a launch the hypervisor took over 5% of its CPUs' time from runs again.
    pub rerun_stolen: bool,
    /// PRECISION: rounds go on until every comparison's CI half-width is at most this (%).
    pub precision_pct: Option<f64>,
    /// BUDGET: seconds the workload's rounds may take.
    pub budget_s: Option<u64>,
    /// SPLIT: the earlier report the rows' splits were read from, as given, and the splits.
    pub split: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rows: Vec<RowSplit>,
    /// UPSTREAM: the Iggy server the sink forwards to, as given.
    pub upstream: Option<String>,
    pub seed: u64,
    pub name: String,
    /// The rows a user defined (`--producer`, `[producers]`) that SDK names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub producers: Vec<ProducerSpec>,
}

impl Settings {
    /// The environment every producer run gets (sdks/README.md), less SERVER and MSG_ID, for a
    /// run of `size` messages.
    pub fn producer_env(&self, size: Size) -> Vec<(&'static str, String)> {
        let sized = Settings { messages: size.messages, warmup: size.warmup, ..self.clone() };
        SETTINGS.iter().filter(|s| s.to_producer).filter_map(|s| s.get().map(|get| (s.env, get(&sized)))).collect()
    }

    pub fn size(&self) -> Size {
        Size { messages: self.messages, warmup: self.warmup }
    }

    /// Under SPLIT, what each row runs: `SPLIT=FILE: node MESSAGES=311000 WARMUP=100000
    /// REPEAT=27, ...`.
    pub fn split_line(&self) -> Option<String> {
        let path = self.split.as_ref()?;
        let rows = self
            .rows
            .iter()
            .map(|r| format!("{} MESSAGES={} WARMUP={} REPEAT={}", r.row, r.messages, r.warmup, r.repeat));
        Some(format!("SPLIT={path}: {}", rows.collect::<Vec<_>>().join(", ")))
    }

    /// The settings one launch runs with: its row's split (SPLIT) where it has one, these
    /// otherwise (the control's launches, every row without SPLIT).
    pub fn for_launch<'a>(&self, launch: impl IntoIterator<Item = &'a Arm>) -> Settings {
        let rows: Vec<&str> = launch.into_iter().filter(|a| a.control.is_none()).map(|a| a.sdk.as_str()).collect();
        match self.rows.iter().find(|r| rows.contains(&r.row.as_str())) {
            Some(r) => Settings { messages: r.messages, warmup: r.warmup, repeat: r.repeat, ..self.clone() },
            None => self.clone(),
        }
    }

    /// Every setting that shapes the measurement, as (suite key, value), for showing and diffing.
    pub fn fields(&self) -> Vec<(String, String)> {
        SETTINGS.iter().filter(|s| s.in_suite).filter_map(|s| s.get().map(|get| (s.key(), get(self)))).collect()
    }

    /// STOLEN's value: rerun or count.
    pub fn stolen(&self) -> &'static str {
        if self.rerun_stolen { "rerun" } else { "count" }
    }

    /// What each run measured, as `NAME=value ...`, for the report.
    pub fn line(&self) -> String {
        self.pairs(|s| s.in_line).join(" ")
    }

    /// The full command that reproduces this workload on its own.
    pub fn command(&self) -> String {
        format!("{} scripts/bench.sh{}", self.pairs(|_| true).join(" "), self.producer_flags())
    }

    /// ` --producer 'NAME=COMMAND'` for each user row, quoted for a shell.
    fn producer_flags(&self) -> String {
        self.producers
            .iter()
            .map(|u| {
                format!(
                    " --producer {}",
                    shlex::try_quote(&format!("{}={}", u.name, u.command_line())).unwrap_or_default()
                )
            })
            .collect()
    }

    /// `NAME=value` of each setting `which` picks that means something to this run's MODE.
    fn pairs(&self, which: impl Fn(&Setting) -> bool) -> Vec<String> {
        SETTINGS
            .iter()
            .filter(|s| which(s) && self.uses(s))
            .filter_map(|s| s.get().map(|get| format!("{}={}", s.env, get(self))))
            .collect()
    }

    /// Whether `setting` shapes this run: MODE=mint has no payload.
    pub fn uses(&self, setting: &Setting) -> bool {
        self.mode == Mode::Producer || !setting.payload
    }

    /// The default report name: MODE-SDK-bitsBITS-packPACK, or for MODE=mint (no payload)
    /// MODE-SDK.
    fn default_name(&self) -> String {
        let mut name = format!("{}-{}", mode_name(self.mode), self.sdks.join("-"));
        if self.uses(&BITS) {
            name += &format!("-bits{}-pack{}", self.bits, self.pack);
        }
        name
    }
}

/// One value given for a setting, and by whom.
#[derive(Clone, Debug)]
struct Given {
    setting: &'static Setting,
    value: String,
    source: Source,
}

/// One layer of settings: the command line, a workload, or a suite's top level. Unset settings
/// fall through to the layer below, and finally to the defaults.
#[derive(Clone, Debug, Default)]
pub struct Layer {
    given: Vec<Given>,
    /// User rows as given, `NAME=COMMAND`: every layer's, the lower layers' first.
    producers: Vec<String>,
}

impl std::fmt::Debug for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.env)
    }
}

impl Layer {
    /// This layer with `setting` set to `value` (replacing what it had).
    pub fn with(mut self, setting: &'static Setting, value: &str, source: Source) -> Layer {
        self.given.retain(|g| g.setting.env != setting.env);
        self.given.push(Given { setting, value: value.into(), source });
        self
    }

    /// FORCE, the one output setting `harness calibrate` shares with `harness run`.
    pub fn force(&self) -> anyhow::Result<bool> {
        match self.get(&FORCE) {
            None => Ok(false),
            Some(v) => v.parse().map_err(|_| anyhow::anyhow!("FORCE={v} is not true or false")),
        }
    }

    /// The value given for `setting`, if any.
    pub fn get(&self, setting: &Setting) -> Option<&str> {
        self.given.iter().find(|g| g.setting.env == setting.env).map(|g| g.value.as_str())
    }

    /// This layer with its unset settings taken from `below`.
    pub fn over(&self, below: &Layer) -> Layer {
        let mut merged = self.clone();
        merged.given.extend(below.given.iter().filter(|b| self.get(b.setting).is_none()).cloned());
        merged.producers = below.producers.iter().chain(&self.producers).cloned().collect();
        merged
    }

    /// The suite settings given, as `NAME=value` in table order (what overrides a suite file).
    pub fn given(&self) -> Vec<String> {
        SETTINGS.iter().filter(|s| s.in_suite).filter_map(|s| self.get(s).map(|v| format!("{}={v}", s.env))).collect()
    }

    /// The settings of a suite-file table; a key that is no setting of a suite is refused.
    pub fn from_toml(table: toml::Table) -> anyhow::Result<Layer> {
        let mut layer = Layer::default();
        for (key, value) in table {
            let Some(setting) = SETTINGS.iter().find(|s| s.in_suite && s.key() == key) else {
                let keys: Vec<String> =
                    SETTINGS.iter().filter(|s| s.in_suite).map(|s| format!("`{}`", s.key())).collect();
                bail!("unknown field `{key}`, expected one of {}", keys.join(", "));
            };
            let text = match value {
                toml::Value::String(s) => s,
                toml::Value::Integer(n) => n.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                toml::Value::Array(items) => items
                    .iter()
                    .map(|v| v.as_str().map(str::to_owned).ok_or_else(|| anyhow::anyhow!("`{key}` must list strings")))
                    .collect::<anyhow::Result<Vec<_>>>()?
                    .join(","),
                other => {
                    bail!("`{key}` must be a string, number, boolean or list of strings, not {}", other.type_str())
                }
            };
            layer = layer.with(setting, &text, Source::Suite);
        }
        Ok(layer)
    }

    /// Applies the defaults and checks every setting before anything runs, naming the setting
    /// at fault. `name` is the workload's name, if it has one; it wins over NAME.
    pub fn resolve(&self, name: Option<&str>) -> anyhow::Result<(Settings, Vec<&'static Sdk>)> {
        let mut s = Settings {
            mode: Mode::Producer,
            sdks: Vec::new(),
            msg_ids: Vec::new(),
            repeat: 0,
            bits: 0,
            pack: 0,
            batch: 0,
            messages: 0,
            warmup: 0,
            timeout_s: 0,
            syscalls: false,
            design: Design::Processes,
            metric: Metric::Wall,
            cpus: None,
            freeze: false,
            rerun_stolen: false,
            precision_pct: None,
            budget_s: None,
            split: None,
            rows: Vec::new(),
            upstream: None,
            seed: 0,
            name: String::new(),
            producers: Vec::new(),
        };
        let layer = match name {
            Some(name) => self.clone().with(&NAME, name, Source::Suite),
            None => self.clone(),
        };
        for setting in SETTINGS {
            let (Binding::Workload { set, .. } | Binding::Alias { set }) = setting.binding else { continue };
            let (value, source) = match (layer.given.iter().find(|g| g.setting.env == setting.env), &setting.default) {
                (Some(g), _) => (g.value.as_str(), g.source),
                (None, Fallback::Value(v)) => (*v, Source::Env),
                (None, Fallback::Derived(_)) => continue,
            };
            set(&mut s, value).map_err(|bad| anyhow::anyhow!("{}", refusal(setting, value, source, bad)))?;
        }
        let users = layer.user_rows()?;
        if layer.get(&SDK).is_none() && !users.is_empty() {
            s.sdks = users.iter().map(|u| u.name.clone()).collect();
        }
        s.producers = users.into_iter().filter(|u| s.sdks.contains(&u.name)).collect();
        let is_user = |name: &String| s.producers.iter().any(|u| &u.name == name);
        let sdks = s
            .sdks
            .iter()
            .filter(|name| !is_user(name))
            .map(|name| sdk::find(name))
            .collect::<anyhow::Result<Vec<_>>>()?;
        if let Some(other) = s.sdks.iter().find(|name| *name != "rust").filter(|_| s.mode == Mode::Mint) {
            bail!(
                "MODE=mint runs the Rust strategies only (SDK={other}); sdks/<lang>/mint-bench.sh measures node's, java's, go's, csharp's and python's mint paths, and target/release/iggy-producer with MODE=mint the released Rust client's (sdks/iggy/README.md)"
            );
        }
        for sdk in &sdks {
            for msg_id in &s.msg_ids {
                sdk.check_msg_id(msg_id)?;
            }
        }
        // The payload and batch settings are checked as the Rust producer checks them. MSG_ID was
        // checked per SDK above, so a name every row knows stands in for it, except in MODE=mint,
        // where the Rust producer runs each MSG_ID as it is checked here.
        let stand_in = ["fast".to_owned()];
        let msg_ids = if s.mode == Mode::Mint { s.msg_ids.clone() } else { stand_in.to_vec() };
        for msg_id in &msg_ids {
            s.warmup = plan_warmup(&s, msg_id, s.messages, layer.get(&WARMUP).map(|_| s.warmup))?;
        }
        match (layer.get(&DESIGN), layer.get(&PAIRED)) {
            (Some(design), Some(paired)) => bail!(
                "DESIGN={design} and PAIRED={paired} are both given: PAIRED is the older spelling of DESIGN (1: paired, 0: processes); give one"
            ),
            (None, None) => s.design = default_design(&s),
            _ => check_design(&s)?,
        }
        if let (Some(syscalls), Some(counts)) = (layer.get(&SYSCALLS), layer.get(&COUNTS)) {
            bail!(
                "SYSCALLS={syscalls} and COUNTS={counts} are both given: COUNTS is the older spelling of SYSCALLS; give one"
            );
        }
        if layer.get(&SEED).is_none() {
            s.seed = rand::random();
        }
        if layer.get(&NAME).is_none() {
            s.name = s.default_name();
            check_file_name("NAME", &s.name)?;
        }
        if let Some(path) = &s.split {
            // The rows of each lock-step set (sdk::set_of, as schedule::launches groups them),
            // rows of one's own last.
            let mut launches: Vec<Vec<String>> = Vec::new();
            for row in &s.sdks {
                match launches.iter_mut().find(|l| sdk::set_of(&l[0]) == sdk::set_of(row)) {
                    Some(set) => set.push(row.clone()),
                    None => launches.push(vec![row.clone()]),
                }
            }
            launches.sort_by_key(|l| sdk::set_of(&l[0]) == sdk::OWN_ROWS);
            s.rows = split::read(path, &s.name, &launches, s.batch)?;
            for r in &s.rows {
                plan_warmup(&s, &msg_ids[0], r.messages, Some(r.warmup)).map_err(|e| {
                    anyhow::anyhow!(
                        "SPLIT={path}: row {}'s MESSAGES={} WARMUP={} cannot run here: {e}",
                        r.row,
                        r.messages,
                        r.warmup
                    )
                })?;
            }
        }
        Ok((s, sdks))
    }
}

/// The warm-up a run of `messages` gets (`warmup`, or the default share), checked as the Rust
/// producer checks its payload and batch settings.
fn plan_warmup(s: &Settings, msg_id: &str, messages: u64, warmup: Option<u64>) -> anyhow::Result<u64> {
    let payload = PayloadArgs { bits: s.bits, pack: s.pack, batch: s.batch, messages, warmup };
    let plan = ProduceArgs { server: String::new(), mode: s.mode, msg_id: msg_id.to_owned(), payload }.plan()?;
    Ok(plan.warmup)
}

/// Rows of one's own are separate builds: lock-step compares them (their commands need not
/// implement paired mode). Built-in rows pair where they can, as the calibration showed paired
/// tighter than processes; lock-step is asked for by name there until its own calibration says
/// otherwise.
fn default_design(s: &Settings) -> Design {
    let design = if s.producers.is_empty() { Design::Paired } else { Design::Lockstep };
    let mut trial = s.clone();
    trial.design = design;
    if check_design(&trial).is_ok() { design } else { Design::Processes }
}

/// What the workload's design cannot do, said before anything runs.
fn check_design(s: &Settings) -> anyhow::Result<()> {
    match s.design {
        Design::Processes => Ok(()),
        Design::Paired => check_paired(s),
        Design::Lockstep => check_lockstep(s),
    }
}

fn check_lockstep(s: &Settings) -> anyhow::Result<()> {
    if s.mode == Mode::Mint {
        bail!("DESIGN=lockstep needs MODE=producer: the sink paces and times the batches");
    }
    if s.metric == Metric::Cpu {
        bail!("METRIC=cpu needs DESIGN=processes: lock-step compares the producers' turns as the sink times them");
    }
    let built_in = s.sdks.iter().filter(|n| !s.producers.iter().any(|p| &p.name == *n)).count();
    if s.msg_ids.len() < 2 && (s.producers.len() < 2 || built_in > 0) {
        bail!(
            "DESIGN=lockstep compares the arms of a set, but SDK={} MSG_ID={} gives each row one arm: list two MSG_IDs, or two rows of your own (--producer)",
            s.sdks.join(","),
            s.msg_ids.join(",")
        );
    }
    Ok(())
}

/// What paired mode cannot do, said before anything runs.
fn check_paired(s: &Settings) -> anyhow::Result<()> {
    if s.msg_ids.len() < 2 {
        bail!(
            "DESIGN=paired compares MSG_IDs inside one process, but MSG_ID={} names only one: list at least two (e.g. uuid,fast)",
            s.msg_ids.join(",")
        );
    }
    if s.mode == Mode::Mint {
        bail!("DESIGN=paired needs MODE=producer: it times batches sent to the sink");
    }
    if s.metric == Metric::Cpu {
        bail!(
            "METRIC=cpu needs DESIGN=processes: the arms of a paired process share its CPU time, so only wall time tells them apart"
        );
    }
    if s.msg_ids.iter().any(|m| m == "prebuilt") {
        bail!(
            "MSG_ID=prebuilt cannot run with DESIGN=paired: its frames are built before the timed window, so there is no batch to time around the others"
        );
    }
    if let [first, .., last] = s.producers.as_slice() {
        bail!(
            "DESIGN=paired times the MSG_IDs of one build inside one process, but --producer gives {} builds ({} .. {}), which cannot share a process: compare builds with DESIGN=lockstep",
            s.producers.len(),
            first.name,
            last.name
        );
    }
    Ok(())
}

impl Layer {
    /// This layer with user rows `specs` (`NAME=COMMAND`) added after its own.
    pub fn with_producers(mut self, specs: impl IntoIterator<Item = String>) -> Layer {
        self.producers.extend(specs);
        self
    }

    /// The user rows, each checked by [`ProducerSpec::parse`] and named once.
    pub fn user_rows(&self) -> anyhow::Result<Vec<ProducerSpec>> {
        let builtin: Vec<&str> = SDKS.iter().map(|s| s.name).collect();
        let mut rows: Vec<ProducerSpec> = Vec::new();
        for spec in &self.producers {
            let row = ProducerSpec::parse(spec, &builtin)?;
            if rows.iter().any(|r| r.name == row.name) {
                bail!("--producer {}: the name is given twice", row.name);
            }
            rows.push(row);
        }
        Ok(rows)
    }
}

/// `--producer NAME=COMMAND`, for a selection that chooses SDK rows.
const PRODUCER_ARG: &str = "producer";

/// The one line for a refused value: a value of the wrong type is named as it was written.
fn refusal(setting: &Setting, value: &str, source: Source, bad: Bad) -> String {
    match (bad, source) {
        (Bad::Refused(message), _) => message,
        (Bad::Unreadable(why), Source::Flag) => format!("--{} {value} {why}", setting.flag),
        (Bad::Unreadable(why), _) => format!("{}={value} {why}", setting.env),
    }
}

/// Which settings a command takes as flags.
pub trait Selection: Clone + Send + Sync + 'static {
    fn includes(setting: &Setting) -> bool;
}

/// Flags and variables for a [`Selection`] of the table, read into a [`Layer`].
#[derive(Clone, Debug)]
pub struct Flags<S> {
    pub layer: Layer,
    selection: PhantomData<S>,
}

impl<S: Selection> Flags<S> {
    fn settings() -> impl Iterator<Item = &'static Setting> {
        SETTINGS.iter().copied().filter(|s| S::includes(s))
    }
}

impl<S: Selection> clap::FromArgMatches for Flags<S> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = Flags { layer: Layer::default(), selection: PhantomData };
        flags.update_from_arg_matches(matches)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        for setting in Self::settings() {
            if let Some(value) = matches.get_one::<String>(setting.env) {
                let source = if matches.value_source(setting.env) == Some(ValueSource::EnvVariable) {
                    Source::Env
                } else {
                    Source::Flag
                };
                self.layer = std::mem::take(&mut self.layer).with(setting, value, source);
            }
        }
        if S::includes(&SDK) {
            let specs = matches.get_many::<String>(PRODUCER_ARG).into_iter().flatten().cloned();
            self.layer = std::mem::take(&mut self.layer).with_producers(specs);
        }
        Ok(())
    }
}

impl<S: Selection> clap::Args for Flags<S> {
    fn augment_args(cmd: Command) -> Command {
        let cmd = Self::settings().fold(cmd, |cmd, setting| cmd.arg(setting.arg()));
        if !S::includes(&SDK) {
            return cmd;
        }
        cmd.arg(
            Arg::new(PRODUCER_ARG)
                .long(PRODUCER_ARG)
                .value_name("NAME=COMMAND")
                .action(ArgAction::Append)
                .help("A row of your own (repeatable): COMMAND follows sdks/README.md's contract and is started from the repo root, never built. The first such row is the baseline of the others. SDK defaults to these rows."),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

/// `harness run`: every setting.
#[derive(Clone, Debug)]
pub struct Run;

impl Selection for Run {
    fn includes(_: &Setting) -> bool {
        true
    }
}

/// `harness run`'s command line.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// A suite file (suites/*.toml): shared settings and [[workload]]s; flags and variables
    /// given here override it.
    #[arg(short = 'f', long = "file")]
    pub file: Option<PathBuf>,
    /// Print each workload's resolved settings and what differs between them; run nothing.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub flags: Flags<Run>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Md,
    Json,
    Html,
}

impl RunArgs {
    pub fn layer(&self) -> &Layer {
        &self.flags.layer
    }

    pub fn name(&self) -> anyhow::Result<Option<&str>> {
        let name = self.layer().get(&NAME);
        if let Some(name) = name {
            check_file_name("NAME", name)?;
        }
        Ok(name)
    }

    pub fn results_dir(&self) -> anyhow::Result<Option<PathBuf>> {
        match self.layer().get(&RESULTS_DIR) {
            Some("") => bail!("RESULTS_DIR is empty: give a directory, or unset it for results/"),
            dir => Ok(dir.map(PathBuf::from)),
        }
    }

    pub fn force(&self) -> anyhow::Result<bool> {
        self.layer().force()
    }

    pub fn formats(&self) -> anyhow::Result<Vec<Format>> {
        let text = self.layer().get(&FORMAT).unwrap_or(FORMAT.default_text());
        list(text)
            .iter()
            .map(|f| match f.as_str() {
                "md" => Ok(Format::Md),
                "json" => Ok(Format::Json),
                "html" => Ok(Format::Html),
                _ => bail!("FORMAT={text} names {f:?}, which is not md, json or html"),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: RunArgs,
    }

    fn args(flags: &[&str]) -> RunArgs {
        Cli::try_parse_from(["run"].iter().chain(flags)).unwrap().args
    }

    fn resolve(flags: &[&str]) -> anyhow::Result<Settings> {
        let args = args(flags);
        args.layer().resolve(None).map(|(r, _)| r)
    }

    #[test]
    fn defaults_resolve_to_a_named_run() {
        let r = resolve(&[]).unwrap();
        assert_eq!(r.name, "producer-rust-bits42-pack1");
        assert_eq!((r.warmup, r.repeat, r.syscalls), (100_000, 10, true));
        assert!(r.command().starts_with("MODE=producer SDK=rust MSG_ID=uuid,fast REPEAT=10 BITS=42"));
        assert_eq!(
            r.line(),
            "MODE=producer REPEAT=10 BITS=42 PACK=1 BATCH=1000 MESSAGES=1000000 WARMUP=100000 DESIGN=paired METRIC=wall CPUS=all"
        );
    }

    #[test]
    fn a_mint_run_carries_no_payload_settings() {
        let r = resolve(&["--mode", "mint", "--msg-id", "uuid,fast", "--bits", "17", "--pack", "5"]).unwrap();
        assert_eq!(r.name, "mint-rust");
        assert_eq!(
            r.line(),
            "MODE=mint REPEAT=10 BATCH=1000 MESSAGES=1000000 WARMUP=100000 DESIGN=processes METRIC=wall CPUS=all"
        );
        assert!(
            r.command().starts_with("MODE=mint SDK=rust MSG_ID=uuid,fast REPEAT=10 BATCH=1000 "),
            "{}",
            r.command()
        );
        assert!(!r.command().contains("BITS=") && !r.command().contains("PACK="), "{}", r.command());
        assert_eq!(resolve(&["--bits", "17", "--pack", "5"]).unwrap().name, "producer-rust-bits17-pack5");
    }

    #[test]
    fn each_design_is_the_default_where_it_can_compare() {
        let design = |flags: &[&str]| resolve(flags).unwrap().design;
        assert_eq!(design(&[]), Design::Paired);
        assert_eq!(design(&["--sdk", "go,csharp", "--msg-id", "uuid,fast,preset"]), Design::Paired);
        // Where it cannot, the default is one process per arm, and no error.
        for flags in
            [&["--msg-id", "fast"][..], &["--mode", "mint"], &["--metric", "cpu"], &["--msg-id", "uuid,prebuilt"]]
        {
            assert_eq!(design(flags), Design::Processes, "{flags:?}");
        }
        // Rows of one's own are separate builds: lock-step, which needs nothing of their commands.
        let builds = ["--producer", "before=/bin/true", "--producer", "after=/bin/true", "--msg-id", "sdk"];
        assert_eq!(design(&builds), Design::Lockstep);
        assert_eq!(design(&["--producer", "mine=/bin/true"]), Design::Lockstep);
        assert_eq!(
            design(&["--producer", "mine=/bin/true", "--msg-id", "sdk"]),
            Design::Processes,
            "one arm: nothing to compare"
        );
        // PAIRED is DESIGN's older spelling.
        assert_eq!(design(&["--producer", "mine=/bin/true", "--paired", "1"]), Design::Paired);
        assert_eq!(design(&["--paired", "0"]), Design::Processes);
        assert_eq!(design(&["--design", "lockstep", "--sdk", "go", "--msg-id", "uuid,fast,preset"]), Design::Lockstep);
        let r = resolve(&["--design", "lockstep"]).unwrap();
        assert!(r.line().contains("DESIGN=lockstep") && !r.line().contains("PAIRED"), "{}", r.line());
        assert!(r.command().contains("DESIGN=lockstep") && !r.command().contains("PAIRED="), "{}", r.command());
    }

    #[test]
    fn each_design_refuses_what_it_cannot_compare() {
        let err = |flags: &[&str]| resolve(flags).unwrap_err().to_string();
        assert!(
            err(&["--paired", "1", "--msg-id", "fast"])
                .starts_with("DESIGN=paired compares MSG_IDs inside one process, but MSG_ID=fast names only one")
        );
        assert!(err(&["--design", "paired", "--metric", "cpu"]).starts_with("METRIC=cpu needs DESIGN=processes"));
        assert!(
            err(&["--paired", "1", "--msg-id", "uuid,prebuilt"])
                .starts_with("MSG_ID=prebuilt cannot run with DESIGN=paired")
        );
        // Two builds are two processes: their comparison cannot be paired. One build's MSG_IDs can.
        let builds = ["--paired", "1", "--producer", "before=/bin/true", "--producer", "after=/bin/true"];
        assert!(err(&builds).starts_with("DESIGN=paired times the MSG_IDs of one build inside one process, but --producer gives 2 builds (before .. after)"), "{}", err(&builds));
        assert_eq!(resolve(&builds[..4]).unwrap().design, Design::Paired);
        assert!(err(&["--design", "lockstep", "--msg-id", "fast"]).starts_with(
            "DESIGN=lockstep compares the arms of a set, but SDK=rust MSG_ID=fast gives each row one arm"
        ));
        assert!(err(&["--design", "lockstep", "--mode", "mint"]).starts_with("DESIGN=lockstep needs MODE=producer"));
        assert!(err(&["--design", "lockstep", "--metric", "cpu"]).starts_with("METRIC=cpu needs DESIGN=processes"));
        assert_eq!(err(&["--design", "duet"]), "--design duet is unknown; expected lockstep, paired or processes");
        assert!(err(&["--design", "paired", "--paired", "0"]).starts_with("DESIGN=paired and PAIRED=0 are both given"));
        assert_eq!(err(&["--metric", "gpu"]), "--metric gpu is unknown; expected wall or cpu");
        assert_eq!(err(&["--paired", "yes"]), "--paired yes is not 0 or 1");
        let r = resolve(&["--paired", "1", "--seed", "42"]).unwrap();
        assert_eq!((r.design, r.seed), (Design::Paired, 42));
        assert_ne!(resolve(&[]).unwrap().seed, resolve(&[]).unwrap().seed, "an unset seed is drawn afresh");
    }

    #[test]
    fn cpus_confine_a_run_to_cpus_the_runner_may_use() {
        let err = |flags: &[&str]| resolve(flags).unwrap_err().to_string();
        let first = affinity::allowed()[0];
        let r = resolve(&["--cpus", &first.to_string()]).unwrap();
        assert_eq!(r.cpus, Some(vec![first]));
        assert!(r.line().ends_with(&format!(" CPUS={first}")), "{}", r.line());
        assert_eq!(resolve(&[]).unwrap().cpus, None);
        assert_eq!(err(&["--cpus", "x"]), "--cpus x is not all or a list of CPUs (e.g. 0 or 0-1)");
        assert!(
            err(&["--cpus", "4096"]).starts_with("--cpus 4096 is out of range: CPU 4096 is not one the runner may use"),
            "{}",
            err(&["--cpus", "4096"])
        );
    }

    #[test]
    fn bad_settings_are_refused_by_name() {
        let err = |flags: &[&str]| resolve(flags).unwrap_err().to_string();
        assert!(err(&["--repeat", "0"]).starts_with("REPEAT=0"));
        assert!(err(&["--sdk", "rust,cobol"]).starts_with("SDK=cobol is unknown"));
        assert!(err(&["--msg-id", "uuid,nope"]).starts_with("MSG_ID=nope is unknown to SDK rust"));
        assert!(err(&["--msg-id", "uuid,fast,uuid"]).starts_with("MSG_ID=uuid is listed twice"));
        assert!(err(&["--sdk", "rust,go,rust"]).starts_with("SDK=rust is listed twice"));
        assert!(err(&["--bits", "65"]).starts_with("BITS=65"));
        assert!(err(&["--pack", "0"]).starts_with("PACK=0"));
        assert!(err(&["--batch", "0"]).starts_with("BATCH=0"));
        assert!(err(&["--messages", "5"]).starts_with("MESSAGES=5 is below BATCH=1000"));
        assert!(
            err(&["--mode", "mint", "--sdk", "node"]).starts_with("MODE=mint runs the Rust strategies only (SDK=node)")
        );
        assert!(
            err(&["--mode", "mint", "--sdk", "rust,iggy"])
                .starts_with("MODE=mint runs the Rust strategies only (SDK=iggy)")
        );
        assert!(
            err(&["--mode", "mint", "--msg-id", "uuid,prebuilt"]).starts_with("MSG_ID=prebuilt needs MODE=producer")
        );
        assert!(err(&["--pack", "12000"]).starts_with("BATCH=1000 x PACK=12000 makes a request"));
        assert!(err(&["--name", "a/b"]).contains("plain file name"));
        assert!(err(&["--name", ".."]).contains("plain file name"));
        assert!(err(&["--name", ".hidden"]).contains("plain file name"));
        assert_eq!(err(&["--bits", "abc"]), "--bits abc is not a whole number");
        assert_eq!(err(&["--mode", "nope"]), "--mode nope is unknown; expected producer or mint");
        assert_eq!(err(&["--syscalls", "maybe"]), "--syscalls maybe is not true or false");
        assert_eq!(err(&["--freeze", "sometimes"]), "--freeze sometimes is not true or false");
        assert_eq!(err(&["--stolen", "drop"]), "--stolen drop is not rerun or count");
        assert!(STOLEN.help.contains(&format!("more than {}%", crate::runner::records::STOLEN_LAUNCH_PCT)));
        assert_eq!(err(&["--counts", "maybe"]), "--counts maybe is not true or false");
        let from_env = Layer::default().with(&BITS, "abc", Source::Env).resolve(None).unwrap_err();
        assert_eq!(from_env.to_string(), "BITS=abc is not a whole number");
        assert!(
            args(&["--format", "md,pdf"]).formats().unwrap_err().to_string().starts_with("FORMAT=md,pdf names \"pdf\"")
        );
    }

    #[test]
    fn upper_layers_win_setting_by_setting() {
        let top = Layer::default().with(&REPEAT, "10", Source::Suite).with(&PACK, "1", Source::Suite).with(
            &MESSAGES,
            "500",
            Source::Suite,
        );
        let workload = Layer::default().with(&PACK, "167", Source::Suite);
        let merged = args(&["--messages", "20000"]).layer().over(&workload.over(&top));
        assert_eq!(
            (merged.get(&REPEAT), merged.get(&PACK), merged.get(&MESSAGES), merged.get(&BITS)),
            (Some("10"), Some("167"), Some("20000"), None)
        );
        assert_eq!(merged.given(), ["REPEAT=10", "PACK=167", "MESSAGES=20000"]);
    }

    /// The environment a reproducing command sets, read back as a layer.
    fn layer_of_command(command: &str) -> Layer {
        let env = command.strip_suffix(" scripts/bench.sh").expect("a mint-bench.sh command");
        env.split(' ').fold(Layer::default(), |layer, pair| {
            let (name, value) = pair.split_once('=').expect("NAME=value");
            layer.with(SETTINGS.iter().find(|s| s.env == name).expect("a setting"), value, Source::Env)
        })
    }

    #[test]
    fn the_command_reproduces_every_resolved_setting() {
        let flags = [
            "--mode",
            "producer",
            "--sdk",
            "rust,node",
            "--msg-id",
            "fast,uuid",
            "--repeat",
            "3",
            "--bits",
            "17",
            "--pack",
            "5",
        ];
        let more = [
            "--batch",
            "200",
            "--messages",
            "5000",
            "--warmup",
            "250",
            "--timeout",
            "7",
            "--syscalls",
            "false",
            "--name",
            "x",
        ];
        let settings = resolve(&[&flags[..], &more[..]].concat()).unwrap();
        let again = layer_of_command(&settings.command()).resolve(None).unwrap().0;
        assert_eq!(again, settings);
        let defaults = resolve(&[]).unwrap();
        assert_eq!(layer_of_command(&defaults.command()).resolve(None).unwrap().0, defaults);
    }

    #[test]
    fn every_setting_has_help_and_a_distinct_name() {
        for (i, s) in SETTINGS.iter().enumerate() {
            assert!(s.help.trim_end().ends_with(['.', ':']) && s.help.len() > 10, "{} needs help text", s.env);
            assert_eq!(s.flag.replace('-', "_").to_uppercase(), s.env, "{}: flag and variable spell one name", s.env);
            assert!(SETTINGS[..i].iter().all(|o| o.env != s.env), "{} is defined twice", s.env);
            assert!(
                !(s.to_producer && matches!(s.binding, Binding::Output)),
                "{}: only workload settings reach producers",
                s.env
            );
        }
        let help = SDK.meaning() + &MSG_ID.meaning();
        assert!(help.contains("iggy") && help.contains("java-lean: uuid, securerandom-pool"), "{help}");
    }

    #[test]
    fn producers_get_the_contract_settings_sized_per_run() {
        let s = resolve(&[]).unwrap();
        let env = s.producer_env(Size { messages: 51_000, warmup: 1000 });
        let names: Vec<&str> = env.iter().map(|(k, _)| *k).collect();
        assert_eq!(names, ["MODE", "BITS", "PACK", "BATCH", "MESSAGES", "WARMUP"]);
        assert_eq!((env[4].1.as_str(), env[5].1.as_str()), ("51000", "1000"));
    }

    #[test]
    fn suite_tables_set_only_suite_settings() {
        let table: toml::Table = toml::from_str("repeat = 3\nsdk = [\"rust\", \"go\"]\nsyscalls = false\n").unwrap();
        let layer = Layer::from_toml(table).unwrap();
        assert_eq!(layer.given(), ["SDK=rust,go", "REPEAT=3", "SYSCALLS=false"]);
        let bad: toml::Table = toml::from_str("format = \"md\"\n").unwrap();
        assert!(Layer::from_toml(bad).unwrap_err().to_string().starts_with("unknown field `format`"));
    }

    #[test]
    fn counts_is_the_older_spelling_of_syscalls() {
        let table: toml::Table = toml::from_str("counts = false\n").unwrap();
        let (s, _) = Layer::from_toml(table).unwrap().resolve(None).unwrap();
        assert!(!s.syscalls);
        assert!(!resolve(&["--counts", "false"]).unwrap().syscalls);
        assert!(resolve(&["--counts", "true"]).unwrap().syscalls);
        let r = resolve(&["--counts", "false"]).unwrap();
        assert!(r.command().contains("SYSCALLS=false") && !r.command().contains("COUNTS="), "{}", r.command());
        let both = Layer::default()
            .with(&SYSCALLS, "true", Source::Flag)
            .with(&COUNTS, "false", Source::Env)
            .resolve(None)
            .unwrap_err();
        assert!(both.to_string().starts_with("SYSCALLS=true and COUNTS=false are both given"), "{both}");
    }
}
