//! The contents of one `harness run`'s report as its runs arrive: what every renderer reads. It
//! is also the JSON report, field for field.

use std::path::Path;

use serde::Serialize;

use crate::machine::{self, Machine};
use crate::producer::Mode;
use crate::runner::advice::Allocation;
use crate::runner::allocation;
use crate::runner::analysis::{Analysis, baseline_pairs};
use crate::runner::budget::{BudgetResult, Budgets};
use crate::runner::records::{Arm, RunRecord, SyscallCounts, Warning, launches_in};
use crate::runner::settings::Settings;
use crate::runner::suite::Suite;
use crate::runner::warnings;

#[derive(Serialize)]
pub struct Report {
    pub name: String,
    /// False until the last run is recorded: an incomplete report is not a result.
    pub complete: bool,
    pub runs_done: usize,
    pub runs_total: usize,
    pub command: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub machine: Machine,
    pub started: String,
    pub finished: Option<String>,
    /// About the machine while the runs ran.
    pub warnings: Vec<Warning>,
    pub workloads: Vec<WorkloadReport>,
}

#[derive(Serialize)]
pub struct WorkloadReport {
    pub name: String,
    /// Reproduces this workload on its own.
    pub command: String,
    pub settings: Settings,
    /// The budgets asked for (a suite's `expect` table).
    #[serde(rename = "expect", skip_serializing_if = "Option::is_none")]
    pub asked: Option<Budgets>,
    pub analysis: Option<Analysis>,
    /// Judged once the workload's runs are done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budgets: Option<Vec<BudgetResult>>,
    pub warnings: Vec<Warning>,
    /// Why the rounds stopped, where PRECISION or BUDGET decided it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// Lock-step and paired: per group of launches (an SDK row's), how the same time would best
    /// be split between launches and their length, from these rounds.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub allocations: Vec<Allocation>,
    pub arms: Vec<Arm>,
}

/// What a run of `mode` counts per second.
pub fn unit(mode: Mode) -> &'static str {
    match mode {
        Mode::Producer => "msgs/s",
        Mode::Mint => "IDs/s",
    }
}

impl WorkloadReport {
    fn analyse(&mut self) {
        let analysis = Analysis::of(&self.arms, &baseline_pairs(&self.arms));
        self.allocations = allocation::of(&self.arms, &analysis, &self.settings);
        self.analysis = Some(analysis);
    }

    pub fn unit(&self) -> &'static str {
        unit(self.settings.mode)
    }

    pub fn failed_budgets(&self) -> impl Iterator<Item = &BudgetResult> {
        self.budgets.iter().flatten().filter(|c| !c.passed)
    }
}

impl Report {
    pub fn new(suite: &Suite, machine: Machine, runs_total: usize) -> Report {
        let workloads = suite
            .workloads
            .iter()
            .map(|w| WorkloadReport {
                name: w.settings.name.clone(),
                command: w.settings.command(),
                settings: w.settings.clone(),
                asked: w.budgets.clone(),
                analysis: None,
                budgets: None,
                warnings: warnings::settings(&w.settings),
                stopped: None,
                allocations: Vec::new(),
                arms: w.arms(),
            })
            .collect();
        Report {
            name: suite.name.clone(),
            complete: false,
            runs_done: 0,
            runs_total,
            command: suite.command(),
            description: suite.description.clone(),
            machine,
            started: machine::timestamp(),
            finished: None,
            warnings: suite.intent_warnings().into_iter().chain(warnings::governor()).collect(),
            workloads,
        }
    }

    /// One step is done: the records of its arms (one, or a paired group or lock-step set), from
    /// each launch it ran (a stolen one, then the one run again).
    pub fn record_process(&mut self, workload: usize, records: Vec<(usize, RunRecord)>) {
        let w = &mut self.workloads[workload];
        self.runs_done += launches_in(&records);
        for (arm, run) in records {
            w.arms[arm].runs.push(run);
        }
        w.analyse();
    }

    /// The instrumented runs of an arm are done: its syscall counts, or why there are none.
    pub fn record_syscalls(
        &mut self,
        workload: usize,
        arm: usize,
        syscalls: Result<SyscallCounts, String>,
        runs: usize,
    ) {
        let w = &mut self.workloads[workload];
        match syscalls {
            Ok(c) => w.arms[arm].syscalls = Some(c),
            Err(why) => w.warnings.push(Warning {
                cause: why,
                fix: "see the error above; the throughput results do not depend on these runs".into(),
            }),
        }
        self.runs_done += runs;
        w.analyse();
    }

    /// The workload's runs are done: its budgets and the warnings its results carry.
    pub fn finish_workload(&mut self, workload: usize, mint_costs: &Path, machine_warning: Option<Warning>) {
        let w = &mut self.workloads[workload];
        w.analyse();
        let analysis = w.analysis.as_ref().expect("analysed");
        w.warnings.extend(warnings::results(&w.settings, &w.arms, analysis));
        w.warnings.extend(machine_warning);
        w.budgets = w.asked.as_ref().map(|e| e.judge(&w.settings, &w.arms, analysis, mint_costs));
    }

    pub fn finish(&mut self) {
        self.complete = self.runs_done == self.runs_total;
        self.finished = Some(machine::timestamp());
    }

    pub fn any_failed(&self) -> bool {
        self.workloads.iter().any(|w| w.arms.iter().any(|a| a.failure().is_some()))
    }

    pub fn failed_budgets(&self) -> Vec<(&str, &BudgetResult)> {
        self.workloads.iter().flat_map(|w| w.failed_budgets().map(move |c| (w.name.as_str(), c))).collect()
    }

    pub fn all_warnings(&self) -> impl Iterator<Item = &Warning> {
        self.warnings.iter().chain(self.workloads.iter().flat_map(|w| &w.warnings))
    }

    /// The mode of the report's paragraphs: its first workload's.
    pub fn mode(&self) -> Mode {
        self.workloads.first().map_or(Mode::Producer, |w| w.settings.mode)
    }

    pub fn status_line(&self) -> String {
        if self.complete {
            format!("Complete: {} of {} runs.", self.runs_done, self.runs_total)
        } else {
            format!(
                "INCOMPLETE: {} of {} runs recorded. This is not a result: the run is in progress or was interrupted.",
                self.runs_done, self.runs_total
            )
        }
    }
}
