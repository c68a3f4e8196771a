//! Budgets: a workload's `[workload.expect]` block, judged after its runs, so an SDK's CI can
//! gate on a run's exit code. Each failure says what was observed, what was asked, and what
//! that means.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use super::analysis::{Analysis, ArmComparison, BASELINES};
use super::figures;
use super::records::Arm;
use super::settings::Settings;
use crate::producer::Mode;
use crate::stats::Verdict;

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Budgets {
    /// The MSG_ID of the arm the budgets judge, for every SDK of the workload [default: fast].
    /// `variant` is its older spelling.
    #[serde(alias = "variant", skip_serializing_if = "Option::is_none")]
    pub arm: Option<String>,
    /// A verdict of `faster` against this MSG_ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faster_than: Option<String>,
    /// Mean msgs/s at least this many times that of `faster_than` (or the baseline, uuid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speedup_at_least: Option<f64>,
    /// A verdict of `~ (noise)` against this MSG_ID: no measurable cost over it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within_noise_of: Option<String>,
    /// A tolerance where `within_noise_of` is too strict for a design that sees small real
    /// costs: the 95% CI of the ratio to `than` must lie above 1 - pct/100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_most_slower: Option<Tolerance>,
    /// Median over runs of the batch round trip's 99.9th percentile, e.g. "2ms", "800us".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p99_9_below: Option<String>,
    /// Instructions per ID of the arm's MSG_ID in idgen (results/mint-costs.json, the Rust
    /// strategies measured by scripts/mint-costs.sh).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ir_per_id_below: Option<f64>,
}

/// `at_most_slower = { than = "preset", pct = 1 }`: at most 1% fewer msgs/s than preset.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Tolerance {
    pub than: String,
    pub pct: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct BudgetResult {
    /// Which SDK row the check is about ("idgen" for the instruction count).
    pub subject: String,
    pub budget: String,
    pub passed: bool,
    pub observed: String,
    /// Plain words for a failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<String>,
}

const DEFAULT_ARM: &str = "fast";

impl BudgetResult {
    /// A failed budget as the reports show it: what was asked, observed, and what it means.
    pub fn failure_text(&self) -> String {
        format!(
            "FAILED  {}: {}\n  observed: {}\n  meaning:  {}",
            self.subject,
            self.budget,
            self.observed,
            self.meaning.as_deref().unwrap_or("")
        )
    }
}

impl Budgets {
    /// This block with its unset budgets taken from `below` (a workload's over the suite's).
    pub fn over(&self, below: &Budgets) -> Budgets {
        let (s, b) = (self.clone(), below.clone());
        Budgets {
            arm: s.arm.or(b.arm),
            faster_than: s.faster_than.or(b.faster_than),
            speedup_at_least: s.speedup_at_least.or(b.speedup_at_least),
            within_noise_of: s.within_noise_of.or(b.within_noise_of),
            at_most_slower: s.at_most_slower.or(b.at_most_slower),
            p99_9_below: s.p99_9_below.or(b.p99_9_below),
            ir_per_id_below: s.ir_per_id_below.or(b.ir_per_id_below),
        }
    }

    fn arm(&self) -> &str {
        self.arm.as_deref().unwrap_or(DEFAULT_ARM)
    }

    fn speedup_reference(&self) -> &str {
        self.faster_than.as_deref().unwrap_or(BASELINES[0])
    }

    /// Refuses a budget that names a MSG_ID the workload does not run, or cannot hold.
    pub fn check(&self, settings: &Settings) -> anyhow::Result<()> {
        let mut named = vec![("arm", self.arm())];
        named.extend(self.faster_than.as_deref().map(|m| ("faster_than", m)));
        named.extend(self.within_noise_of.as_deref().map(|m| ("within_noise_of", m)));
        named.extend(self.at_most_slower.as_ref().map(|t| ("at_most_slower.than", t.than.as_str())));
        if self.speedup_at_least.is_some() {
            named.push(("speedup_at_least's reference", self.speedup_reference()));
        }
        for &(field, msg_id) in &named {
            if !settings.msg_ids.contains(&msg_id.to_owned()) {
                bail!(
                    "expect.{field} = {msg_id:?} is not a MSG_ID of workload {} ({})",
                    settings.name,
                    settings.msg_ids.join(", ")
                );
            }
        }
        // An arm compared with itself has no comparison to pass.
        if let Some((field, _)) = named.iter().skip(1).find(|(_, msg_id)| *msg_id == self.arm()) {
            bail!("expect.{field} = {:?} is the budget's own arm: it must name another MSG_ID", self.arm());
        }
        if let Some(x) = self.speedup_at_least
            && !(x.is_finite() && x > 0.0)
        {
            bail!("expect.speedup_at_least = {x} is impossible: it must be a ratio above 0");
        }
        if let Some(x) = self.at_most_slower.as_ref().map(|t| t.pct)
            && !(x.is_finite() && x > 0.0 && x < 100.0)
        {
            bail!("expect.at_most_slower.pct = {x} is impossible: it must be a percentage above 0 and below 100");
        }
        if let Some(x) = self.ir_per_id_below
            && !(x.is_finite() && x > 0.0)
        {
            bail!("expect.ir_per_id_below = {x} is impossible: it must be above 0");
        }
        match self.p99_9_limit()? {
            Some(limit) if limit.is_zero() => bail!(
                "expect.p99_9_below = {:?} is impossible: it must be above 0",
                self.p99_9_below.as_deref().unwrap_or_default()
            ),
            Some(_) if settings.mode == Mode::Mint => {
                bail!("expect.p99_9_below needs MODE=producer: MODE=mint sends nothing, so it has no round trips")
            }
            _ => {}
        }
        Ok(())
    }

    fn p99_9_limit(&self) -> anyhow::Result<Option<Duration>> {
        self.p99_9_below
            .as_deref()
            .map(|text| {
                humantime::parse_duration(text)
                    .with_context(|| format!("expect.p99_9_below = {text:?} is not a duration like \"2ms\""))
            })
            .transpose()
    }

    /// Judges every budget for every SDK of the workload. `mint_costs` is results/mint-costs.json.
    pub fn judge(
        &self,
        settings: &Settings,
        arms: &[Arm],
        analysis: &Analysis,
        mint_costs: &Path,
    ) -> Vec<BudgetResult> {
        let arm_msg_id = self.arm();
        let find = |sdk: &str, msg_id: &str| Arm::find_under_test(arms, sdk, msg_id);
        let mut checks = Vec::new();
        for sdk in &settings.sdks {
            let subject = format!("{sdk} {arm_msg_id}");
            let Some(arm) = find(sdk, arm_msg_id) else { continue };
            let compared = |other: &str| find(sdk, other).and_then(|o| analysis.compare(arms, o, arm));
            if let Some(other) = &self.faster_than {
                checks.push(faster_than(&subject, other, compared(other), settings));
            }
            if let Some(min) = self.speedup_at_least {
                let other = self.speedup_reference();
                checks.push(speedup(&subject, other, min, compared(other)));
            }
            if let Some(other) = &self.within_noise_of {
                checks.push(within_noise(&subject, other, compared(other), settings));
            }
            if let Some(tolerance) = &self.at_most_slower {
                checks.push(at_most_slower(&subject, tolerance, compared(&tolerance.than)));
            }
            if let Some(limit) = self.p99_9_limit().ok().flatten() {
                checks.push(p99_9(
                    &subject,
                    &self.p99_9_below.clone().unwrap_or_default(),
                    limit,
                    arms[arm].latency().map(|l| l.p999_ns),
                ));
            }
        }
        if let Some(limit) = self.ir_per_id_below {
            checks.push(ir_per_id(arm_msg_id, limit, mint_costs));
        }
        checks
    }
}

fn check(
    subject: &str,
    budget: String,
    passed: bool,
    observed: String,
    meaning: impl FnOnce() -> String,
) -> BudgetResult {
    BudgetResult { subject: subject.into(), budget, passed, observed, meaning: (!passed).then(meaning) }
}

/// The comparison as its verdict was reached: paired, the t-test over the processes' log ratios;
/// across processes, Welch's.
fn describe(compared: &ArmComparison, other: &str) -> String {
    let c = &compared.comparison;
    let ci = figures::ratio_ci(c).map_or(String::new(), |ci| format!(", 95% CI {ci}"));
    let (test, p) = match &compared.paired {
        Some(paired) => (format!("paired t over {} processes", paired.processes), paired.t.p),
        None => ("Welch".to_owned(), c.welch.p),
    };
    let p = p.map_or("no p-value".into(), |p| format!("{test} p = {p:.4}"));
    format!("{:.2}x {other} ({:+.1}%{ci}), {p}: {}", c.ratio, c.change_pct, c.verdict.label())
}

/// What a tie's "runs needed" counts: processes holding every arm, or runs of each arm.
fn runs_unit(compared: &ArmComparison) -> &'static str {
    if compared.paired.is_some() { "paired processes" } else { "runs per arm" }
}

/// A comparison budget without a comparison: a run failed or none was recorded.
fn no_comparison(subject: &str, budget: String) -> BudgetResult {
    check(subject, budget, false, "no comparison".into(), || {
        "a run failed or none was recorded, so there is nothing to judge: see the arm's FAILED line".into()
    })
}

const WITHHELD: &str = "the A/A control differed from itself, so no verdict can be trusted: rerun on a quiet machine.";

fn faster_than(subject: &str, other: &str, compared: Option<ArmComparison>, s: &Settings) -> BudgetResult {
    let budget = format!("faster_than = {other:?}");
    let Some(compared) = compared else { return no_comparison(subject, budget) };
    let c = &compared.comparison;
    check(subject, budget, c.verdict == Verdict::Faster, describe(&compared, other), || match c.verdict {
        Verdict::Slower => {
            format!("{subject} is measurably slower than {other}: the change makes this SDK slower, not faster.")
        }
        Verdict::Withheld => WITHHELD.into(),
        Verdict::Undecided => format!("REPEAT={} gives no p-value: run at least 5 times (REPEAT=10).", s.repeat),
        _ => format!(
            "{subject} could not be told apart from {other} at REPEAT={}: the difference is within this machine's noise{}.",
            s.repeat,
            c.runs_needed.map_or(String::new(), |n| format!(
                "; about {n} {} would detect a difference this size",
                runs_unit(&compared)
            ))
        ),
    })
}

fn speedup(subject: &str, other: &str, min: f64, compared: Option<ArmComparison>) -> BudgetResult {
    let budget = format!("speedup_at_least = {min}");
    let Some(compared) = compared else { return no_comparison(subject, budget) };
    let c = &compared.comparison;
    check(subject, budget, c.ratio >= min, describe(&compared, other), || {
        format!(
            "{subject} sends {:.2}x the messages per second of {other}; the budget asks for at least {min}x, so the gain on this workload is smaller than promised.",
            c.ratio
        )
    })
}

fn within_noise(subject: &str, other: &str, compared: Option<ArmComparison>, s: &Settings) -> BudgetResult {
    let budget = format!("within_noise_of = {other:?}");
    let Some(compared) = compared else { return no_comparison(subject, budget) };
    let c = &compared.comparison;
    check(subject, budget, c.verdict == Verdict::Noise, describe(&compared, other), || match c.verdict {
        Verdict::Slower => format!(
            "{subject} costs measurably more than {other} ({:+.1}%): minting is still visible in this SDK's throughput{}.",
            c.change_pct,
            if compared.paired.is_some() {
                " (a paired run sees a cost of a fraction of a percent; `at_most_slower` allows one)"
            } else {
                ""
            }
        ),
        Verdict::Faster => format!(
            "{subject} is measurably faster than {other}, which should be the ceiling: suspect the measurement (warm-up, drift) before the code."
        ),
        Verdict::Withheld => WITHHELD.into(),
        _ => format!("REPEAT={} gives no p-value: run at least 5 times (REPEAT=10).", s.repeat),
    })
}

fn at_most_slower(subject: &str, t: &Tolerance, compared: Option<ArmComparison>) -> BudgetResult {
    let budget = format!("at_most_slower = {{ than = {:?}, pct = {} }}", t.than, t.pct);
    let Some(compared) = compared else { return no_comparison(subject, budget) };
    let c = &compared.comparison;
    let floor = 1.0 - t.pct / 100.0;
    let lowest = c.ratio_ci95.map(|(lo, _)| lo);
    check(subject, budget, lowest.is_some_and(|lo| lo >= floor), describe(&compared, &t.than), || match lowest {
        None => "the comparison has no confidence interval: run at least 5 times (REPEAT=10).".into(),
        Some(_) if c.ratio < floor => format!(
            "{subject} sends {:.1}% fewer messages per second than {}, more than the {}% allowed.",
            -c.change_pct, t.than, t.pct
        ),
        Some(lo) => format!(
            "{subject} may send up to {:.1}% fewer messages per second than {} (the 95% CI's low end), more than the {}% allowed: the cost may be within the budget, but this run cannot show it; more runs narrow the interval.",
            100.0 * (1.0 - lo),
            t.than,
            t.pct
        ),
    })
}

fn p99_9(subject: &str, text: &str, limit: Duration, observed_ns: Option<f64>) -> BudgetResult {
    let budget = format!("p99_9_below = {text:?}");
    let Some(ns) = observed_ns else {
        return check(subject, budget, false, "no latency reported".into(), || {
            "the producer reported no rtt_p999_ns, or its runs failed".into()
        });
    };
    let limit_ns = limit.as_nanos() as f64;
    check(
        subject,
        budget,
        ns < limit_ns,
        format!("p99.9 batch round trip {:.0} us (median of the runs)", ns / 1e3),
        || {
            format!(
                "one batch in a thousand waits {:.0} us or more for its ack, above the {:.0} us budget: tail latency is worse than promised.",
                ns / 1e3,
                limit_ns / 1e3
            )
        },
    )
}

#[derive(Deserialize)]
struct MintCosts {
    strategies: Vec<MintCost>,
}

#[derive(Deserialize)]
struct MintCost {
    name: String,
    ir_per_id: f64,
}

fn ir_per_id(msg_id: &str, limit: f64, path: &Path) -> BudgetResult {
    let subject = format!("idgen {msg_id}");
    let budget = format!("ir_per_id_below = {limit}");
    let costs = std::fs::read_to_string(path).ok().and_then(|t| serde_json::from_str::<MintCosts>(&t).ok());
    let Some(ir) = costs.and_then(|c| c.strategies.into_iter().find(|s| s.name == msg_id)).map(|s| s.ir_per_id) else {
        return check(&subject, budget, false, format!("no ir_per_id for {msg_id} in {}", path.display()), || {
            "the instruction count was never measured for this strategy: run scripts/mint-costs.sh (it writes results/mint-costs.json)".into()
        });
    };
    check(&subject, budget, ir < limit, format!("{ir:.2} instructions per ID (callgrind, {})", path.display()), || {
        format!("minting one ID takes {ir:.2} instructions, above the {limit} budget: the fast path has grown.")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        crate::runner::settings::Layer::default().resolve(Some("w")).unwrap().0
    }

    #[test]
    fn variant_is_the_older_spelling_of_arm() {
        let old: Budgets = toml::from_str("variant = \"uuid\"").unwrap();
        let new: Budgets = toml::from_str("arm = \"uuid\"").unwrap();
        assert_eq!((old.arm.as_deref(), new.arm.as_deref()), (Some("uuid"), Some("uuid")));
    }

    #[test]
    fn a_workloads_budgets_win_over_the_suites_and_fill_from_them() {
        let suite = Budgets { faster_than: Some("uuid".into()), p99_9_below: Some("2ms".into()), ..Budgets::default() };
        let workload = Budgets { p99_9_below: Some("5ms".into()), ..Budgets::default() };
        let both = workload.over(&suite);
        assert_eq!((both.faster_than.as_deref(), both.p99_9_below.as_deref()), (Some("uuid"), Some("5ms")));
    }

    #[test]
    fn budgets_must_name_the_workloads_msg_ids() {
        let s = settings();
        let bad = Budgets { within_noise_of: Some("preset".into()), ..Budgets::default() };
        assert!(
            bad.check(&s)
                .unwrap_err()
                .to_string()
                .starts_with("expect.within_noise_of = \"preset\" is not a MSG_ID of workload w")
        );
        let bad = Budgets { speedup_at_least: Some(-1.0), ..Budgets::default() };
        assert!(bad.check(&s).unwrap_err().to_string().contains("impossible"));
        let tolerance = |than: &str, pct: f64| Budgets {
            at_most_slower: Some(Tolerance { than: than.into(), pct }),
            ..Budgets::default()
        };
        assert!(
            tolerance("preset", 1.0)
                .check(&s)
                .unwrap_err()
                .to_string()
                .starts_with("expect.at_most_slower.than = \"preset\" is not a MSG_ID")
        );
        assert!(
            tolerance("uuid", 100.0)
                .check(&s)
                .unwrap_err()
                .to_string()
                .contains("expect.at_most_slower.pct = 100 is impossible")
        );
        assert!(tolerance("uuid", 1.0).check(&s).is_ok());
        let bad = Budgets { p99_9_below: Some("soon".into()), ..Budgets::default() };
        assert!(bad.check(&s).unwrap_err().to_string().contains("not a duration"));
        assert!(
            Budgets { faster_than: Some("uuid".into()), p99_9_below: Some("2ms".into()), ..Budgets::default() }
                .check(&s)
                .is_ok()
        );
        let own = Budgets { faster_than: Some(DEFAULT_ARM.into()), ..Budgets::default() };
        assert!(
            own.check(&s).unwrap_err().to_string().starts_with("expect.faster_than = \"fast\" is the budget's own arm")
        );
        let own = Budgets { within_noise_of: Some("uuid".into()), arm: Some("uuid".into()), ..Budgets::default() };
        assert!(
            own.check(&s)
                .unwrap_err()
                .to_string()
                .starts_with("expect.within_noise_of = \"uuid\" is the budget's own arm")
        );
        let bad = Budgets { p99_9_below: Some("0ms".into()), ..Budgets::default() };
        assert!(bad.check(&s).unwrap_err().to_string().contains("expect.p99_9_below = \"0ms\" is impossible"));
        let mint = crate::runner::settings::Layer::default()
            .with(&crate::runner::settings::MODE, "mint", crate::runner::settings::Source::Flag)
            .resolve(Some("w"))
            .unwrap()
            .0;
        let latency = Budgets { p99_9_below: Some("2ms".into()), ..Budgets::default() };
        assert!(latency.check(&mint).unwrap_err().to_string().starts_with("expect.p99_9_below needs MODE=producer"));
    }

    #[test]
    fn budgets_judge_each_sdk_and_explain_failures() {
        use crate::runner::analysis::baseline_pairs;
        use crate::runner::records::fixtures::arm;
        let arms = vec![
            arm("rust", "threadrng", Some('A'), (1, 1), &[100.0, 101.0, 99.0, 100.5, 99.5]),
            arm("rust", "threadrng", Some('B'), (6, 1), &[100.5, 99.5, 100.0, 100.2, 99.8]),
            arm("rust", "uuid", None, (11, 1), &[100.0, 101.0, 99.0, 100.5, 99.5]),
            arm("rust", "fast", None, (16, 1), &[100.4, 101.1, 99.3, 100.6, 99.9]),
        ];
        let analysis = Analysis::of(&arms, &baseline_pairs(&arms));
        let expect = Budgets {
            faster_than: Some("uuid".into()),
            p99_9_below: Some("1ms".into()),
            speedup_at_least: Some(1.5),
            ..Budgets::default()
        };
        let checks = expect.judge(&settings(), &arms, &analysis, Path::new("/nonexistent"));
        let by = |budget: &str| checks.iter().find(|c| c.budget.starts_with(budget)).unwrap();
        let tie = by("faster_than");
        assert!(
            !tie.passed && tie.meaning.as_deref().unwrap().contains("could not be told apart from uuid"),
            "{tie:?}"
        );
        assert!(
            tie.meaning.as_deref().unwrap().contains("runs per arm would detect"),
            "a tie says how many runs would tell"
        );
        assert!(!by("speedup_at_least").passed);
        let latency = by("p99_9_below");
        assert!(latency.passed && latency.meaning.is_none() && latency.observed.contains("150 us"), "{latency:?}");
        let tight = Budgets { p99_9_below: Some("100us".into()), ..Budgets::default() }.judge(
            &settings(),
            &arms,
            &analysis,
            Path::new("/nonexistent"),
        );
        assert!(
            !tight[0].passed
                && tight[0].meaning.as_deref().unwrap().contains("150 us or more for its ack, above the 100 us budget"),
            "{tight:?}"
        );
        // Level within a fraction of a percent, but five runs a side leave an interval wider than 0.1%.
        let strict =
            Budgets { at_most_slower: Some(Tolerance { than: "uuid".into(), pct: 0.1 }), ..Budgets::default() }.judge(
                &settings(),
                &arms,
                &analysis,
                Path::new("/nonexistent"),
            );
        assert!(
            !strict[0].passed && strict[0].meaning.as_deref().unwrap().contains("this run cannot show it"),
            "{strict:?}"
        );
    }

    #[test]
    fn paired_budgets_cite_the_paired_test_and_read_each_arms_tail() {
        use crate::runner::records::fixtures::paired;
        // Per process one batch time per arm: fast 5% under uuid, preset beside fast, on either
        // side of it from process to process.
        let fast = [95_000, 95_040, 94_960, 95_020, 94_980];
        let mut twin = paired("uuid", &fast.map(|b| b * 100 / 95 + 10), |b| b);
        twin.twin = true;
        let arms = vec![
            paired("uuid", &fast.map(|b| b * 100 / 95), |b| b),
            paired("fast", &fast, |b| b),
            paired("preset", &[95_030, 94_960, 95_070, 94_950, 95_010], |b| b),
            twin,
        ];
        let analysis = Analysis::of(&arms, &[(0, 1), (2, 1)]);
        let expect = Budgets {
            faster_than: Some("uuid".into()),
            within_noise_of: Some("preset".into()),
            p99_9_below: Some("1ms".into()),
            ..Budgets::default()
        };
        let checks = expect.judge(&settings(), &arms, &analysis, Path::new("/nonexistent"));
        let by = |budget: &str| checks.iter().find(|c| c.budget.starts_with(budget)).unwrap();
        let faster = by("faster_than");
        assert!(faster.passed && faster.observed.contains("paired t over 5 processes p = "), "{faster:?}");
        assert!(!faster.observed.contains("Welch"), "{faster:?}");
        assert!(by("within_noise_of").passed, "{:?}", by("within_noise_of"));
        let tie = Budgets { faster_than: Some("preset".into()), ..Budgets::default() }.judge(
            &settings(),
            &arms,
            &analysis,
            Path::new("/nonexistent"),
        );
        assert!(
            !tie[0].passed && tie[0].meaning.as_deref().unwrap().contains("paired processes would detect"),
            "{tie:?}"
        );
        let latency = by("p99_9_below");
        assert!(latency.passed && latency.observed.contains("150 us"), "a paired arm's own tail: {latency:?}");
        let tolerance = |arm: &str, than: &str| {
            let b = Budgets {
                arm: Some(arm.into()),
                at_most_slower: Some(Tolerance { than: than.into(), pct: 1.0 }),
                ..Budgets::default()
            };
            b.judge(&settings(), &arms, &analysis, Path::new("/nonexistent")).remove(0)
        };
        assert!(tolerance("fast", "preset").passed, "level with preset, and the interval shows it");
        let uuid = tolerance("uuid", "fast");
        assert!(
            !uuid.passed
                && uuid.meaning.as_deref().unwrap().contains("uuid sends 5.0% fewer messages per second than fast"),
            "{uuid:?}"
        );
    }

    #[test]
    fn instruction_budget_reads_mint_costs() {
        let dir = std::env::temp_dir().join(format!("mintbench-budget-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("mint-costs.json");
        std::fs::write(&path, r#"{"strategies":[{"name":"fast","ir_per_id":21.5,"getrandom_per_1000":0.0}]}"#).unwrap();
        assert!(ir_per_id("fast", 50.0, &path).passed);
        let over = ir_per_id("fast", 20.0, &path);
        assert!(!over.passed && over.meaning.unwrap().contains("21.50 instructions"));
        let missing = ir_per_id("fast", 50.0, &dir.join("absent.json"));
        assert!(!missing.passed && missing.meaning.unwrap().contains("scripts/mint-costs.sh"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
