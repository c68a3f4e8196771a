//! `harness mint-report`: the one writer of `results/sdk-<lang>-mint.{json,md}`. Each SDK folder's
//! `mint-bench.sh` runs its language's own benchmark tool and hands its samples over in the raw file
//! of sdks/README.md ("Native mint benchmarks"); this module summarises them in one schema, so
//! every language's report can be read by the same program.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use crate::machine;
use crate::stats::median_of_sorted;

pub const SCHEMA: &str = "mintbench-mint-report/1";

/// What a language's benchmark hands over: its samples, in ns per ID.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSamples {
    pub lang: String,
    pub tool: String,
    pub tool_version: String,
    pub command: String,
    pub strategies: Vec<RawStrategy>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStrategy {
    pub name: String,
    pub ns_per_id: Vec<f64>,
}

/// `results/sdk-<lang>-mint.json`.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MintReport {
    pub schema: String,
    pub lang: String,
    pub tool: String,
    pub tool_version: String,
    /// RFC 3339, UTC.
    pub date: String,
    pub command: String,
    pub machine: ReportMachine,
    pub strategies: Vec<StrategyFigures>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportMachine {
    pub cpu_model: String,
    pub cores: usize,
    pub kernel: String,
}

impl ReportMachine {
    fn this() -> ReportMachine {
        ReportMachine { cpu_model: machine::cpu_model(), cores: machine::cores(), kernel: machine::kernel() }
    }
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyFigures {
    pub name: String,
    pub ns_per_id: Spread,
    pub samples: usize,
    /// The language's `uuid` median over this strategy's: how many times faster than uuid.
    pub ratio_to_uuid: f64,
    /// Every sample, in ns per ID, so the figures can be derived again.
    pub values: Vec<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    fn of(values: &[f64]) -> Spread {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        Spread { median: median_of_sorted(&sorted), min: sorted[0], max: sorted[sorted.len() - 1] }
    }
}

impl MintReport {
    /// Checks the samples and summarises them; `date` and `machine` say where and when.
    pub fn from_raw(raw: RawSamples, date: String, machine: ReportMachine) -> anyhow::Result<MintReport> {
        if raw.lang.is_empty() || raw.lang.contains(['/', '.', ' ']) {
            bail!("lang={:?} is not a folder name under sdks/", raw.lang);
        }
        for (i, s) in raw.strategies.iter().enumerate() {
            if s.name.trim().is_empty() {
                bail!(
                    "strategies[{i}].name {:?} is empty or blank: give every strategy the name of what it mints (e.g. uuid)",
                    s.name
                );
            }
            if s.ns_per_id.is_empty() || s.ns_per_id.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
                bail!("strategy {} has no samples or a sample that is not a positive number of ns", s.name);
            }
            if raw.strategies.iter().filter(|o| o.name == s.name).count() > 1 {
                bail!("strategy {} is listed twice", s.name);
            }
        }
        let uuid = raw
            .strategies
            .iter()
            .find(|s| s.name == "uuid")
            .context("the samples have no `uuid` strategy to compare with")?;
        let uuid_median = Spread::of(&uuid.ns_per_id).median;
        let strategies = raw
            .strategies
            .into_iter()
            .map(|s| {
                let spread = Spread::of(&s.ns_per_id);
                StrategyFigures {
                    name: s.name,
                    ns_per_id: spread,
                    samples: s.ns_per_id.len(),
                    ratio_to_uuid: uuid_median / spread.median,
                    values: s.ns_per_id,
                }
            })
            .collect();
        Ok(MintReport {
            schema: SCHEMA.into(),
            lang: raw.lang,
            tool: raw.tool,
            tool_version: raw.tool_version,
            date,
            command: raw.command,
            machine,
            strategies,
        })
    }

    pub fn markdown(&self) -> String {
        let mut md = format!(
            "# Mint benchmark: {}\n\nWritten by `harness mint-report` from the samples of `{}` ({} {}) on {} ({}, {} cores, kernel {}).\n\n\
             | strategy | ns/ID median (min .. max) | samples | x faster than uuid |\n|---|---:|---:|---:|\n",
            self.lang,
            self.command,
            self.tool,
            self.tool_version,
            self.date,
            self.machine.cpu_model,
            self.machine.cores,
            self.machine.kernel
        );
        for s in &self.strategies {
            let n = s.ns_per_id;
            md += &format!(
                "| {} | {:.2} ({:.2} .. {:.2}) | {} | {:.2} |\n",
                s.name, n.median, n.min, n.max, s.samples, s.ratio_to_uuid
            );
        }
        md
    }
}

/// `harness mint-report RAW --results-dir DIR`: writes DIR/sdk-<lang>-mint.json and .md and
/// returns their paths.
pub fn write(raw_path: &Path, results_dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let text = std::fs::read_to_string(raw_path).with_context(|| format!("cannot read {}", raw_path.display()))?;
    let raw: RawSamples = serde_json::from_str(&text)
        .with_context(|| format!("{} is not the raw sample file of sdks/README.md", raw_path.display()))?;
    let machine = ReportMachine::this();
    let date = machine::timestamp();
    let report = MintReport::from_raw(raw, date, machine).with_context(|| raw_path.display().to_string())?;
    std::fs::create_dir_all(results_dir).with_context(|| format!("cannot create {}", results_dir.display()))?;
    let base = results_dir.join(format!("sdk-{}-mint", report.lang));
    let (json, md) = (base.with_extension("json"), base.with_extension("md"));
    std::fs::write(&json, serde_json::to_string_pretty(&report)? + "\n")
        .with_context(|| format!("cannot write {}", json.display()))?;
    std::fs::write(&md, report.markdown()).with_context(|| format!("cannot write {}", md.display()))?;
    Ok(vec![json, md])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(strategies: &[(&str, &[f64])]) -> RawSamples {
        RawSamples {
            lang: "go".into(),
            tool: "go test -bench".into(),
            tool_version: "go1.26".into(),
            command: "sdks/go/mint-bench.sh results".into(),
            strategies: strategies
                .iter()
                .map(|(n, v)| RawStrategy { name: (*n).into(), ns_per_id: v.to_vec() })
                .collect(),
        }
    }

    fn machine() -> ReportMachine {
        ReportMachine { cpu_model: "cpu".into(), cores: 2, kernel: "6.1".into() }
    }

    /// The schema's rules beyond its shape: a committed report that breaks one was not written
    /// by this module (it was edited by hand).
    fn validate(r: &MintReport) -> anyhow::Result<()> {
        if r.schema != SCHEMA {
            bail!("schema {:?}, expected {SCHEMA:?}", r.schema);
        }
        chrono::DateTime::parse_from_rfc3339(&r.date).with_context(|| format!("date {:?} is not RFC 3339", r.date))?;
        let uuid = r.strategies.iter().find(|s| s.name == "uuid").context("no uuid strategy")?;
        for s in &r.strategies {
            if s.name.trim().is_empty() {
                bail!("a strategy's name {:?} is empty or blank", s.name);
            }
            if s.samples != s.values.len() || s.samples == 0 {
                bail!("{}: samples {} but {} values", s.name, s.samples, s.values.len());
            }
            // serde_json reads floats to within an ulp or so (no `float_roundtrip`), hence the tolerance.
            let (want, got) = (Spread::of(&s.values), s.ns_per_id);
            let near = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
            if !(near(want.median, got.median) && near(want.min, got.min) && near(want.max, got.max)) {
                bail!("{}: median/min/max do not follow from its values", s.name);
            }
            let ratio = uuid.ns_per_id.median / s.ns_per_id.median;
            if (ratio - s.ratio_to_uuid).abs() > 1e-9 * ratio {
                bail!("{}: ratio_to_uuid {} but the medians give {ratio}", s.name, s.ratio_to_uuid);
            }
        }
        Ok(())
    }

    #[test]
    fn summarises_samples_and_ratios_to_uuid() {
        let r = MintReport::from_raw(
            raw(&[("uuid", &[90.0, 80.0, 100.0]), ("fast", &[10.0, 12.0, 8.0, 11.0])]),
            "2026-12-01T10:00:00Z".into(),
            machine(),
        )
        .unwrap();
        assert_eq!(r.strategies[0].ns_per_id, Spread { median: 90.0, min: 80.0, max: 100.0 });
        assert_eq!(r.strategies[1].ns_per_id.median, 10.5);
        assert_eq!(r.strategies[1].samples, 4);
        assert!((r.strategies[1].ratio_to_uuid - 90.0 / 10.5).abs() < 1e-12);
        validate(&r).unwrap();
        assert!(r.markdown().contains("| fast | 10.50 (8.00 .. 12.00) | 4 | 8.57 |"), "{}", r.markdown());
    }

    #[test]
    fn bad_samples_are_refused() {
        let err = |s: &[(&str, &[f64])]| {
            MintReport::from_raw(raw(s), "2026-12-01T10:00:00Z".into(), machine()).unwrap_err().to_string()
        };
        assert!(err(&[("fast", &[1.0])]).contains("no `uuid`"));
        assert!(err(&[("uuid", &[])]).contains("no samples"));
        assert!(err(&[("uuid", &[1.0, -2.0])]).contains("positive"));
        assert!(err(&[("uuid", &[1.0]), ("uuid", &[2.0])]).contains("twice"));
    }

    #[test]
    fn a_strategy_without_a_name_is_refused() {
        let err = |s: &[(&str, &[f64])]| {
            MintReport::from_raw(raw(s), "2026-12-01T10:00:00Z".into(), machine()).unwrap_err().to_string()
        };
        assert_eq!(
            err(&[("uuid", &[1.0]), ("", &[2.0])]),
            "strategies[1].name \"\" is empty or blank: give every strategy the name of what it mints (e.g. uuid)"
        );
        assert!(
            err(&[(" \t", &[2.0]), ("uuid", &[1.0])]).starts_with("strategies[0].name \" \\t\" is empty or blank: ")
        );
    }

    /// `harness mint-report` names the raw file whose strategy has no name, and writes nothing.
    #[test]
    fn write_names_the_file_of_a_nameless_strategy() {
        let dir = std::env::temp_dir().join(format!("mintbench-mint-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let raw_path = dir.join("raw.json");
        let samples = r#"{"lang":"go","tool":"t","tool_version":"1","command":"c","strategies":[{"name":"uuid","ns_per_id":[90.0]},{"name":" ","ns_per_id":[10.0]}]}"#;
        std::fs::write(&raw_path, samples).unwrap();
        let out = dir.join("results");
        let e = format!("{:#}", write(&raw_path, &out).unwrap_err());
        assert_eq!(
            e,
            format!(
                "{}: strategies[1].name \" \" is empty or blank: give every strategy the name of what it mints (e.g. uuid)",
                raw_path.display()
            )
        );
        assert!(!out.exists(), "nothing written");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn validation_catches_edited_figures() {
        let mut r = MintReport::from_raw(
            raw(&[("uuid", &[90.0, 80.0]), ("fast", &[10.0, 12.0])]),
            "2026-12-01T10:00:00Z".into(),
            machine(),
        )
        .unwrap();
        r.strategies[1].ns_per_id.median = 9.0;
        assert!(validate(&r).unwrap_err().to_string().contains("do not follow"));
        r.strategies[1].ns_per_id.median = 11.0;
        validate(&r).unwrap();
        r.strategies[1].name = " ".into();
        assert_eq!(validate(&r).unwrap_err().to_string(), "a strategy's name \" \" is empty or blank");
    }

    /// Every committed language report is in the one schema and its figures follow from its samples.
    #[test]
    fn committed_mint_reports_follow_the_schema() {
        let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
        let mut checked = 0;
        for entry in std::fs::read_dir(&results).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !(name.starts_with("sdk-") && name.ends_with("-mint.json")) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let report: MintReport = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            validate(&report).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(name, format!("sdk-{}-mint.json", report.lang));
            checked += 1;
        }
        assert!(checked > 0, "no results/sdk-*-mint.json to check");
    }
}
