//! Suite files (suites/*.toml): settings shared at the top level, one `[[workload]]` per
//! measurement overriding only what differs. Without a file, the flags and variables make a
//! suite of one workload.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, bail};
use serde::Deserialize;

use super::budget::Budgets;
use super::producer_spec::ProducerSpec;
use super::records::{Arm, CONTROL_SDK, Warning};
use super::schedule;
use super::sdk::{self, Sdk};
use super::settings::{Layer, RunArgs, Settings, check_file_name};
use super::syscalls;
use super::warnings;
use crate::producer::Mode;

pub struct Suite {
    pub name: String,
    pub description: Option<String>,
    pub file: Option<PathBuf>,
    /// The settings given as flags or variables, as NAME=value.
    pub overrides: Vec<String>,
    pub workloads: Vec<Workload>,
}

pub struct Workload {
    pub settings: Settings,
    pub sdks: Vec<&'static Sdk>,
    pub budgets: Option<Budgets>,
    pub compare: Option<Intent>,
}

/// Two workloads meant to be compared, differing in one field only.
#[derive(Clone, Debug)]
pub struct Intent {
    pub with: String,
    pub varies: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkloadHead {
    name: String,
    compare_with: Option<String>,
    varies: Option<String>,
}

impl Suite {
    pub fn load(args: &RunArgs) -> anyhow::Result<Suite> {
        let overrides = args.layer().given();
        let Some(file) = &args.file else {
            let (settings, sdks) = args.layer().resolve(None)?;
            let workload = Workload { settings, sdks, budgets: None, compare: None };
            let suite = Suite {
                name: workload.settings.name.clone(),
                description: None,
                file: None,
                overrides,
                workloads: vec![workload],
            };
            suite.check_rows_run(&args.layer().user_rows()?)?;
            return Ok(suite);
        };
        let shown = file.display();
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read suite {shown}"))?;
        let mut top: toml::Table = toml::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{shown}{}: {}", line_of(&text, e.span()), e.message().trim()))?;
        let name = take_string(&mut top, "name", &shown)?
            .unwrap_or_else(|| file.file_stem().map_or("suite".into(), |s| s.to_string_lossy().into_owned()));
        let name = args.name()?.map_or(name, str::to_owned);
        check_file_name("NAME", &name)?;
        let description = take_string(&mut top, "description", &shown)?;
        let tables = match top.remove("workload") {
            None => vec![toml::Table::from_iter([("name".to_owned(), toml::Value::String(name.clone()))])],
            Some(toml::Value::Array(items)) if items.is_empty() => bail!(
                "{shown}: `workload` is empty: give at least one [[workload]], or leave the key out for one workload of the top-level settings"
            ),
            Some(toml::Value::Array(items)) => items
                .into_iter()
                .map(|v| match v {
                    toml::Value::Table(t) => Ok(t),
                    _ => bail!("{shown}: each [[workload]] must be a table"),
                })
                .collect::<anyhow::Result<_>>()?,
            Some(_) => bail!("{shown}: `workload` must be an array of tables ([[workload]])"),
        };
        let shared_budgets = take_budgets(&mut top).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
        let producers = take_producers(&mut top).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
        let shared = Layer::from_toml(top).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?.with_producers(producers);
        let mut workloads = Vec::new();
        for mut table in tables {
            let head_keys = ["name", "compare_with", "varies"];
            let head: toml::Table =
                head_keys.iter().filter_map(|k| table.remove(*k).map(|v| (k.to_string(), v))).collect();
            let head: WorkloadHead =
                from_table("[[workload]]", "[[workload]] ", head).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
            let in_workload = |e: anyhow::Error| anyhow::anyhow!("{shown}: workload {:?}: {e}", head.name);
            let budgets = match (take_budgets(&mut table).map_err(in_workload)?, &shared_budgets) {
                (Some(own), Some(shared)) => Some(own.over(shared)),
                (own, shared) => own.or_else(|| shared.clone()),
            };
            let own = Layer::from_toml(table).map_err(in_workload)?;
            check_file_name("workload name", &head.name)?;
            if workloads.iter().any(|w: &Workload| w.settings.name == head.name) {
                bail!("{shown}: workload {:?} is defined twice", head.name);
            }
            let layer = args.layer().over(&own.over(&shared));
            let (settings, sdks) =
                layer.resolve(Some(&head.name)).with_context(|| format!("{shown}: workload {:?}", head.name))?;
            if let Some(budgets) = &budgets {
                budgets.check(&settings).with_context(|| format!("{shown}: workload {:?}", head.name))?;
            }
            let compare = match (head.compare_with, head.varies) {
                (None, None) => None,
                (Some(with), Some(varies)) => Some(Intent { with, varies }),
                _ => bail!(
                    "{shown}: workload {:?}: compare_with and varies go together (which workload, and the one field that differs)",
                    head.name
                ),
            };
            workloads.push(Workload { settings, sdks, budgets, compare });
        }
        // NAME is no suite setting, but a run that renamed its report is reproduced under that name.
        let overrides = overrides.into_iter().chain(args.name()?.map(|n| format!("NAME={n}"))).collect();
        let suite = Suite { name, description, file: Some(file.clone()), overrides, workloads };
        suite.check_intents(&shown.to_string())?;
        suite.check_rows_run(&args.layer().over(&shared).user_rows()?).with_context(|| shown.to_string())?;
        Ok(suite)
    }

    /// A row a user defined that no workload's SDK names would otherwise be left out without a
    /// word (a suite's rows need only be run by one of its workloads).
    fn check_rows_run(&self, defined: &[ProducerSpec]) -> anyhow::Result<()> {
        let run = |name: &str| self.workloads.iter().any(|w| w.settings.producers.iter().any(|p| p.name == name));
        let Some(row) = defined.iter().find(|row| !run(&row.name)) else { return Ok(()) };
        let mut sdks: Vec<&str> = Vec::new();
        for name in self.workloads.iter().flat_map(|w| &w.settings.sdks) {
            if !sdks.contains(&name.as_str()) {
                sdks.push(name);
            }
        }
        bail!(
            "the row {} (--producer or [producers]) is in no workload's SDK (SDK={}): add {} to SDK, or leave the row out",
            row.name,
            sdks.join(","),
            row.name
        )
    }

    fn check_intents(&self, shown: &str) -> anyhow::Result<()> {
        for w in &self.workloads {
            let Some(intent) = &w.compare else { continue };
            if !self.workloads.iter().any(|o| o.settings.name == intent.with) {
                bail!(
                    "{shown}: workload {:?}: compare_with = {:?} names no workload of this suite",
                    w.settings.name,
                    intent.with
                );
            }
            if !w.settings.fields().iter().any(|(f, _)| *f == intent.varies) {
                let names: Vec<String> = w.settings.fields().into_iter().map(|(f, _)| f).collect();
                bail!(
                    "{shown}: workload {:?}: varies = {:?} is not a setting ({})",
                    w.settings.name,
                    intent.varies,
                    names.join(", ")
                );
            }
        }
        Ok(())
    }

    /// The command that reproduces the whole suite.
    pub fn command(&self) -> String {
        let env = self.overrides.iter().map(|o| format!("{o} ")).collect::<String>();
        match &self.file {
            Some(file) => format!("{env}cargo run --release -p harness -- run -f {}", file.display()),
            None => self.workloads[0].settings.command(),
        }
    }

    /// The built-in SDK rows the suite runs, the control's first: what the runner builds and
    /// scripts/setup.sh sets up. Rows a user defined are neither.
    pub fn sdk_rows(&self) -> Vec<&'static Sdk> {
        let mut rows = vec![sdk::find(CONTROL_SDK).expect("the control's row is a built-in row")];
        for s in self.workloads.iter().flat_map(|w| &w.sdks) {
            if !rows.iter().any(|r| r.name == s.name) {
                rows.push(s);
            }
        }
        rows
    }

    /// Runs each workload will start, warm-ups and instrumented runs included.
    pub fn runs(&self, strace: bool) -> usize {
        self.workloads
            .iter()
            .map(|w| {
                let arms = w.arms();
                let counted = if w.settings.syscalls && strace {
                    syscalls::RUNS * arms.iter().filter(|a| a.is_under_test()).count()
                } else {
                    0
                };
                schedule::plan(&arms, &w.settings).len() + counted
            })
            .sum()
    }

    /// Workloads meant to be compared that differ in more (or less) than the intended field.
    pub fn intent_warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        for w in &self.workloads {
            let Some(intent) = &w.compare else { continue };
            let other = self.workloads.iter().find(|o| o.settings.name == intent.with).expect("checked on load");
            let differing = differences(&other.settings, &w.settings);
            let extra: Vec<String> = differing
                .iter()
                .filter(|(f, _, _)| *f != intent.varies)
                .map(|(f, a, b)| format!("{f} ({a} vs {b})"))
                .collect();
            if !extra.is_empty() {
                out.push(Warning {
                    cause: format!(
                        "workloads {} and {} are meant to differ only in {}, but also differ in {}: a difference between them cannot be put on {} alone",
                        intent.with, w.settings.name, intent.varies, extra.join(", "), intent.varies
                    ),
                    fix: "set the other fields once at the top level of the suite, or in both workloads alike".into(),
                });
            } else if differing.is_empty() {
                out.push(Warning {
                    cause: format!(
                        "workloads {} and {} are meant to differ in {}, but their settings are identical",
                        intent.with, w.settings.name, intent.varies
                    ),
                    fix: format!(
                        "set {} in workload {} (a flag or variable given on the command line overrides both)",
                        intent.varies, w.settings.name
                    ),
                });
            }
        }
        out
    }

    /// What `--dry-run` prints: every workload's resolved settings, what differs, the warnings.
    pub fn describe(&self, strace: bool) -> String {
        let mut out = String::new();
        let source = self.file.as_ref().map_or("flags and environment".into(), |f| f.display().to_string());
        let _ = writeln!(
            out,
            "suite {} ({source}): {} workload(s), {} runs",
            self.name,
            self.workloads.len(),
            self.runs(strace)
        );
        if !self.overrides.is_empty() {
            let _ = writeln!(out, "overridden from the command line: {}", self.overrides.join(" "));
        }
        // scripts/bench.sh reads this line to set up what the run needs, and nothing else.
        let _ = writeln!(
            out,
            "set up: scripts/setup.sh {}",
            self.sdk_rows().iter().map(|s| s.name).collect::<Vec<_>>().join(" ")
        );
        let names: Vec<&str> = self.workloads.iter().map(|w| w.settings.name.as_str()).collect();
        let rows: Vec<(String, Vec<String>)> = self.workloads[0]
            .settings
            .fields()
            .into_iter()
            .enumerate()
            .map(|(i, (field, _))| (field, self.workloads.iter().map(|w| w.settings.fields()[i].1.clone()).collect()))
            .collect();
        let width = |col: usize| rows.iter().map(|(_, v)| v[col].len()).chain([names[col].len()]).max().unwrap_or(0);
        let _ = write!(out, "\n{:10}", "setting");
        for (col, name) in names.iter().enumerate() {
            let _ = write!(out, "  {:w$}", name, w = width(col));
        }
        out.truncate(out.trim_end_matches(' ').len());
        let _ = writeln!(out);
        for (field, values) in &rows {
            let _ = write!(out, "{field:10}");
            for (col, v) in values.iter().enumerate() {
                let _ = write!(out, "  {:w$}", v, w = width(col));
            }
            let differs = field != "seed" && values.iter().any(|v| v != &values[0]);
            out.truncate(out.trim_end_matches(' ').len());
            let _ = writeln!(out, "{}", if differs { "  <- differs" } else { "" });
        }
        for w in &self.workloads {
            if let Some(split) = w.settings.split_line() {
                let _ = writeln!(out, "\n{} runs each row at its own split, {split}", w.settings.name);
            }
            if let Some(e) = &w.budgets {
                let _ =
                    writeln!(out, "\n{} expects: {}", w.settings.name, serde_json::to_string(e).unwrap_or_default());
            }
            if let Some(intent) = &w.compare {
                let other = self.workloads.iter().find(|o| o.settings.name == intent.with).expect("checked on load");
                let list: Vec<String> = differences(&other.settings, &w.settings)
                    .iter()
                    .map(|(f, a, b)| format!("{f} {a} -> {b}"))
                    .collect();
                let _ = writeln!(
                    out,
                    "\n{} vs {} (meant to vary {}): {}",
                    w.settings.name,
                    intent.with,
                    intent.varies,
                    if list.is_empty() { "no difference".into() } else { list.join(", ") }
                );
            }
        }
        for w in self.workloads.iter().flat_map(|w| warnings::settings(&w.settings)).chain(self.intent_warnings()) {
            let _ = writeln!(out, "\n{w}");
        }
        out
    }
}

impl Workload {
    /// The arms of one workload: the A/A control first (producer mode), then SDK x MSG_ID.
    pub fn arms(&self) -> Vec<Arm> {
        let mut arms = Vec::new();
        if self.settings.mode == Mode::Producer {
            arms.push(Arm::control('A'));
            arms.push(Arm::control('B'));
        }
        let is_user = |name: &&String| self.settings.producers.iter().any(|p| &p.name == *name);
        let first_user_row = self.settings.sdks.iter().find(is_user).map(String::as_str);
        for sdk in &self.settings.sdks {
            for msg_id in &self.settings.msg_ids {
                arms.push(Arm::new(sdk, msg_id, None));
            }
            if schedule::wants_twin(self.settings.design, sdk, first_user_row) {
                // The row's own noise floor: a second copy of its first arm in the same launches.
                let mut twin = Arm::new(sdk, &self.settings.msg_ids[0], None);
                twin.twin = true;
                arms.push(twin);
            }
        }
        for arm in &mut arms {
            arm.metric = self.settings.metric;
        }
        arms
    }
}

/// (field, value in a, value in b) for every field that differs.
/// The seed orders the runs; it does not shape what they measure, so it is not a difference.
fn differences(a: &Settings, b: &Settings) -> Vec<(String, String, String)> {
    a.fields()
        .into_iter()
        .zip(b.fields())
        .filter(|((f, x), (_, y))| x != y && f != "seed")
        .map(|((f, x), (_, y))| (f, x, y))
        .collect()
}

/// The `[expect]` table of budgets, taken out of a suite or workload table.
fn take_budgets(table: &mut toml::Table) -> anyhow::Result<Option<Budgets>> {
    match table.remove("expect") {
        None => Ok(None),
        Some(toml::Value::Table(t)) => from_table("[expect]", "expect.", t).map(Some),
        Some(other) => bail!("`expect` must be a table ([expect]), not {}", other.type_str()),
    }
}

/// `table` as a `T`, a value of the wrong type named by its key (`prefix` + key), which serde's
/// message leaves out: the key is the first whose entry alone does not read as a `T`.
fn from_table<T: serde::de::DeserializeOwned>(what: &str, prefix: &str, table: toml::Table) -> anyhow::Result<T> {
    let read = |t: toml::Table| toml::Value::Table(t).try_into::<T>();
    read(table.clone()).map_err(|e| {
        let message = e.message().trim().to_owned();
        match table.iter().find(|&(k, v)| {
            read(toml::Table::from_iter([(k.clone(), v.clone())])).is_err_and(|alone| alone.message().trim() == message)
        }) {
            Some((key, _)) => anyhow::anyhow!("{prefix}{key}: {message}"),
            None => anyhow::anyhow!("{what}: {message}"),
        }
    })
}

/// The `[producers]` table (`name = "command"`) as `NAME=COMMAND` specs.
fn take_producers(table: &mut toml::Table) -> anyhow::Result<Vec<String>> {
    let Some(value) = table.remove("producers") else { return Ok(Vec::new()) };
    let toml::Value::Table(rows) = value else { bail!("`producers` must be a table of name = \"command\"") };
    rows.into_iter()
        .map(|(name, command)| match command {
            toml::Value::String(command) => Ok(format!("{name}={command}")),
            other => bail!("[producers] {name} must be a command string, not {}", other.type_str()),
        })
        .collect()
}

fn take_string(table: &mut toml::Table, key: &str, shown: &impl std::fmt::Display) -> anyhow::Result<Option<String>> {
    match table.remove(key) {
        None => Ok(None),
        Some(toml::Value::String(s)) => Ok(Some(s)),
        Some(other) => bail!("{shown}: `{key}` must be a string, not {}", other.type_str()),
    }
}

/// " line N" for an error's position in the file.
fn line_of(text: &str, span: Option<std::ops::Range<usize>>) -> String {
    span.map_or(String::new(), |s| format!(" line {}", text[..s.start.min(text.len())].matches('\n').count() + 1))
}
