//! The run orchestrator behind `harness run` and `harness calibrate`.
//!
//! Data flows one way. A suite file (or the flags alone) is read through the settings table
//! into workloads of resolved [`settings::Settings`]; each workload becomes arms (the A/A
//! control, then SDK x MSG_ID); the launcher runs every arm's producer processes against in-process
//! sinks and gives back run records; the analysis turns an arm's records into summaries and
//! comparisons; budgets and warnings judge the analysis; the report holds all of it and renders
//! it as terminal text, Markdown, JSON and HTML. `run` and `calibrate` drive that loop.
//!
//! The modules below are listed from the bottom up: each uses only modules listed before it.

/// The designs: lock-step sets, paired processes, one process per arm.
pub mod design;
/// Plain data: arms, run records, outcomes, latency, syscall counts, sizes, warnings.
pub mod records;
/// How figures read in every report.
pub mod figures;
/// A producer's CPU time, from wait4.
pub mod cpu;
/// Which CPUs a run may use (CPUS).
pub mod affinity;
/// Rows a user defines at run time (`--producer NAME=COMMAND`, a suite's `[producers]`), and how
/// a program is found.
pub mod producer_spec;
/// The SDK rows: how to build and start each producer.
pub mod sdk;
/// The split model: how a group of launches' time is best split between launches and their length.
pub mod advice;
/// SPLIT: each row's MESSAGES and REPEAT advised from what an earlier report's Budget lines measured.
pub mod split;
/// The one table of settings, and a workload's resolved values.
pub mod settings;
/// How a design turns arms into processes and rounds.
pub mod schedule;
/// strace: its command and its summary table.
pub mod syscalls;
/// Sinks and producer processes: one run of one arm.
pub mod launch;
/// Summaries and comparisons of a workload's arms.
pub mod analysis;
/// Each group of launches' Budget line, from what its own rounds measured.
pub mod allocation;
/// A workload's `expect` block, judged.
pub mod budget;
/// Warnings about the settings, the machine and the results.
pub mod warnings;
/// Suite files, and the workloads they resolve to.
pub mod suite;
/// The report's contents and its renderers.
pub mod report;
/// When a report may be replaced.
pub mod overwrite;
/// `harness run`.
pub mod run;
/// `harness calibrate`.
pub mod calibrate;

pub use calibrate::{CalibrateArgs, calibrate};
pub use run::run;
pub use settings::RunArgs;
