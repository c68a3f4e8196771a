//! Warnings that name their cause and the fix: about the settings, the machine, and what the
//! runs themselves show.

use super::analysis::{Analysis, ArmComparison};
use super::cpu::MachineTicks;
use super::figures::paired_change;
use super::records::{Arm, RunRecord, STOLEN_LAUNCH_PCT, Warning, launch_steal_pct, timed_launches};
use super::settings::Settings;
use crate::producer::timed_blocks;
use crate::stats::paired::{CLIP_MIN_BLOCKS, CLIP_PERCENTILE};
use crate::stats::{ALPHA, Summary, disjoint, variance_ratio_p, welch};

/// Below this REPEAT a p-value is weak: Welch has few degrees of freedom and Mann-Whitney
/// cannot reach p < 0.05 with 3 runs a side.
const MIN_REPEAT: u32 = 5;

pub fn settings(s: &Settings) -> Vec<Warning> {
    let mut out = Vec::new();
    if s.repeat < MIN_REPEAT {
        out.push(Warning {
            cause: format!(
                "workload {}: REPEAT={} is too few runs for a trustworthy p-value{}",
                s.name,
                s.repeat,
                if s.repeat < 2 {
                    " (with 1 run there is none: every verdict reads \"too few runs (n=1)\")"
                } else {
                    ""
                }
            ),
            fix: "set REPEAT=10 (at least 5)".into(),
        });
    }
    let timed = timed_blocks(s.messages, s.warmup, s.batch);
    if s.design.blocks() && timed < CLIP_MIN_BLOCKS {
        out.push(Warning {
            cause: format!(
                "workload {}: MESSAGES={} at BATCH={} leaves {timed} timed blocks a process, fewer than the {CLIP_MIN_BLOCKS} at which its estimate clips each arm's times at their {CLIP_PERCENTILE}th percentile: a stall counts at its full length",
                s.name, s.messages, s.batch
            ),
            fix: format!(
                "raise MESSAGES so that at least {CLIP_MIN_BLOCKS} batches follow the warm-up (MESSAGES - WARMUP >= {} here)",
                CLIP_MIN_BLOCKS * u64::from(s.batch)
            ),
        });
    }
    out
}

/// Reads every CPU's frequency governor; anything but `performance` lets the clock move with
/// load, so the same code runs at different speeds run to run.
pub fn governor() -> Option<Warning> {
    let entries = std::fs::read_dir("/sys/devices/system/cpu").ok()?;
    let mut governors: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name().to_str().is_some_and(|n| {
                n.strip_prefix("cpu").is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
            })
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("cpufreq/scaling_governor")).ok())
        .map(|g| g.trim().to_owned())
        .filter(|g| g != "performance")
        .collect();
    governors.sort();
    governors.dedup();
    (!governors.is_empty()).then(|| Warning {
        cause: format!("the CPU frequency governor is {} rather than performance: clock speed follows load, adding run-to-run noise", governors.join(", ")),
        fix: "run `sudo cpupower frequency-set -g performance` (or write performance to /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor) before measuring".into(),
    })
}

/// CPU time of the whole machine and of this process with its waited-for children, sampled
/// before and after a workload, to tell how much other processes used meanwhile.
#[derive(Clone, Copy)]
pub struct CpuSample {
    machine: MachineTicks,
    own: u64,
}

/// Other processes may use this much of one core on average before the run warns.
const OTHERS_LIMIT_CORES: f64 = 0.25;

impl CpuSample {
    pub fn take() -> Option<CpuSample> {
        let machine = MachineTicks::now()?;
        let own = std::fs::read_to_string("/proc/self/stat").ok()?;
        // Fields after the parenthesised name: utime stime cutime cstime are 14..=17 (1-based).
        let after_name = own.rsplit_once(')')?.1;
        let fields: Vec<u64> = after_name.split_whitespace().skip(11).take(4).filter_map(|v| v.parse().ok()).collect();
        Some(CpuSample { machine, own: fields.iter().sum() })
    }

    /// A warning when others used more than OTHERS_LIMIT_CORES between `self` and `later`.
    pub fn others_since(&self, later: &CpuSample, what: &str) -> Option<Warning> {
        // /proc/stat counts every CPU, those a run is not confined to included.
        let cores = crate::machine::cores().max(1) as f64;
        let elapsed = later.machine.total.checked_sub(self.machine.total)? as f64;
        if elapsed == 0.0 {
            return None;
        }
        let others = (later.machine.busy() - self.machine.busy()).saturating_sub(later.own - self.own) as f64;
        let others_cores = others / elapsed * cores;
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        (others_cores > OTHERS_LIMIT_CORES).then(|| Warning {
            cause: format!(
                "other processes used {others_cores:.2} of {cores:.0} cores on average during {what} (from /proc/stat, less this run's own CPU time; load average now {}): they compete with what is measured",
                load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
            ),
            fix: "stop them or measure on a quiet machine, then rerun".into(),
        })
    }
}

/// Below this one-sided p, a row's launches at its SPLIT differ between them more than the
/// measurement they were advised from predicts.
const SPLIT_MISREAD_P: f64 = 0.01;

/// The first timed run may be this much slower than the mean of the rest before it warns.
const FIRST_RUN_SLOWER_PCT: f64 = 10.0;

/// The share of a workload's launches that lost more than STOLEN_LAUNCH_PCT at which it warns
/// (it always does when one ran again).
const STOLEN_LAUNCHES_SHARE: f64 = 0.1;

/// Warnings the results themselves carry: an unstable or drifting control, a slow first run,
/// launches the hypervisor took CPU time from.
pub fn results(s: &Settings, arms: &[Arm], analysis: &Analysis) -> Vec<Warning> {
    let mut out = Vec::new();
    if let Some(c) = analysis.control.as_ref().filter(|_| analysis.control_unstable) {
        out.push(Warning {
            cause: format!(
                "workload {}: the A/A control's two identical arms differed by {:+.1}% (Welch p = {:.4}), so every verdict across processes is withheld",
                s.name,
                c.comparison.change_pct,
                c.comparison.welch.p.unwrap_or(f64::NAN)
            ),
            fix: "rerun on a quiet machine; raise MESSAGES so each run lasts longer than the disturbances".into(),
        });
    }
    out.extend(drift(s, arms));
    out.extend(steal(s, arms));
    out.extend(analysis.comparisons.iter().chain(&analysis.twins).filter_map(|c| lumps(s, c)));
    out.extend(split_misread(s, analysis));
    for arm in arms {
        let samples = arm.samples();
        let Some((first, rest)) = samples.split_first() else { continue };
        let Some(rest) = Summary::of(rest).filter(|r| r.n >= 2) else { continue };
        let slower_pct = 100.0 * (1.0 - first / rest.mean);
        if slower_pct > FIRST_RUN_SLOWER_PCT && *first < rest.mean - 3.0 * rest.stddev {
            out.push(Warning {
                cause: format!(
                    "workload {}: the first timed run of {} was {slower_pct:.0}% slower than the mean of the rest: the warm-up (WARMUP={} messages) was too short for it",
                    s.name,
                    arm.label(),
                    s.warmup
                ),
                fix: format!("raise WARMUP (e.g. WARMUP={}) or MESSAGES", (s.warmup * 3).max(s.messages / 5)),
            });
        }
    }
    out
}

/// A block comparison whose verdict (the arms' total times) and median block intervals do not
/// overlap: one arm pays part of its cost in a minority of its blocks, which the typical block
/// leaves out and the verdict counts.
fn lumps(s: &Settings, c: &ArmComparison) -> Option<Warning> {
    let (totals, median) = (c.paired.as_ref()?, c.median.as_ref()?);
    disjoint(totals.ratio_ci95?, median.ratio_ci95?).then(|| Warning {
        cause: format!(
            "workload {}: {} {} against {}: the arms' total times (the verdict) give {} but the median block gives {}: part of one arm's cost comes in a minority of its blocks (a pool refilled every few batches, a collection), which the typical block leaves out",
            s.name,
            c.sdk,
            c.after,
            c.before,
            paired_change(totals),
            paired_change(median),
        ),
        fix: "quote the verdict for throughput (msgs/s); the \"median block\" (`median` in the JSON) is what a batch without those costs takes, not what the producer sustains".into(),
    })
}

/// Each row run at a SPLIT whose launches differed between them more than the measurement it
/// was advised from predicts at that length (the F test of the two variances, the earlier
/// report's rounds as the reference's degrees of freedom): the split's model takes what launches
/// add between them as the same at any length, and this row's are not (a runtime still settling
/// after its warm-up weighs more in a shorter window, say). Rows of one's own share one line.
fn split_misread(s: &Settings, analysis: &Analysis) -> Vec<Warning> {
    let mut out: Vec<Warning> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for r in &s.rows {
        if seen.contains(&r.from.comparison.as_str()) {
            continue;
        }
        seen.push(&r.from.comparison);
        let Some(c) = analysis.comparisons.iter().chain(&analysis.twins).find(|c| c.name() == r.from.comparison) else {
            continue;
        };
        let Some(t) = c.paired.as_ref().map(|p| &p.t) else { continue };
        let predicted = r.from.launch_variance(r.messages);
        let Some(p) = variance_ratio_p(t.sd.powi(2) / predicted, t.df, r.from.rounds.saturating_sub(1) as f64) else {
            continue;
        };
        if p < SPLIT_MISREAD_P {
            out.push(Warning {
                cause: format!(
                    "workload {}: {} at its SPLIT (MESSAGES={} REPEAT={}): its launches' estimates spread {:.2}%, where the measurement it was advised from ({} rounds of MESSAGES={} in SPLIT={}) predicts {:.2}% at this length (F test p = {p:.4}): this row's launches differ between them by more at this length than at the one measured, which the split's model does not see",
                    s.name,
                    r.from.comparison,
                    r.messages,
                    r.repeat,
                    100.0 * t.sd,
                    r.from.rounds,
                    r.from.messages,
                    s.split.as_deref().unwrap_or("-"),
                    100.0 * predicted.sqrt(),
                ),
                fix: format!(
                    "run row {} at MESSAGES={}, the length it was measured at; this report's Budget line for it is read from launches of this length",
                    r.row, r.from.messages
                ),
            });
        }
    }
    out
}

/// Launches that lost more than STOLEN_LAUNCH_PCT of their CPUs' time to the hypervisor (steal),
/// each counted once (the arms of a lock-step set or of a paired process share one): other guests
/// on the host took it at moments of their own choosing. Such a launch ran again (`run::stolen`),
/// so it cost time and counts in no figure (said whenever one did); one still stolen at its last
/// run counts.
fn steal(s: &Settings, arms: &[Arm]) -> Option<Warning> {
    let launches = timed_launches(arms);
    let lost = |runs: &Vec<&RunRecord>| launch_steal_pct(runs.iter().copied());
    let over: Vec<&Vec<&RunRecord>> =
        launches.values().filter(|runs| lost(runs).is_some_and(|pct| pct > STOLEN_LAUNCH_PCT)).collect();
    let again = over.iter().filter(|runs| runs[0].stolen).count();
    let counted = over.len() - again;
    let most = launches.values().filter_map(lost).fold(0.0, f64::max);
    let said = [
        (again > 0).then(|| format!("{again} of them were stolen runs, run again and counted in no figure")),
        (counted > 0)
            .then(|| format!("{counted} still lost more at their last run and count (per arm in the steal % column)")),
    ];
    let said = said.into_iter().flatten().collect::<Vec<_>>().join("; ");
    let many = !over.is_empty() && over.len() as f64 >= STOLEN_LAUNCHES_SHARE * launches.len() as f64;
    (again > 0 || many).then(|| Warning {
        cause: format!(
            "workload {}: {} of {} launches lost more than {STOLEN_LAUNCH_PCT}% of their CPUs' time to the hypervisor (steal; at most {most:.1}%): other guests on the host took CPU time at moments of their own choosing; {said}",
            s.name,
            over.len(),
            launches.len()
        ),
        fix: "rerun when the host is quieter, or on a machine whose CPUs are the guest's alone: stolen runs cost time, and what steal is left widens every interval".into(),
    })
}

/// The control's runs in time order, first half against second half: the machine's speed
/// changed during the workload when they differ significantly.
fn drift(s: &Settings, arms: &[Arm]) -> Option<Warning> {
    let mut control: Vec<(usize, f64)> =
        arms.iter().filter(|a| a.control.is_some()).flat_map(Arm::timed_samples).collect();
    control.sort_by_key(|(order, _)| *order);
    let values: Vec<f64> = control.into_iter().map(|(_, v)| v).collect();
    let (early, late) = values.split_at(values.len() / 2);
    let (e, l) = (Summary::of(early)?, Summary::of(late)?);
    let change = 100.0 * (l.mean / e.mean - 1.0);
    let p = welch(&e, &l).p?;
    (p < ALPHA).then(|| Warning {
        cause: format!(
            "workload {}: the control drifted by {change:+.1}% from the first half of the runs to the second (Welch p = {p:.4}): the machine's speed changed while measuring",
            s.name
        ),
        fix: "look for other load or thermal throttling and rerun; interleaving spreads drift over every arm, but it widens the noise".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_samples_count_this_process_as_it_spins() {
        let a = CpuSample::take().expect("/proc/stat and /proc/self/stat on Linux");
        // Spin until both this process's own ticks (utime + stime, waited children's included)
        // and the machine's have moved, for at most 5 s of wall time.
        let start = std::time::Instant::now();
        let mut b = CpuSample::take().unwrap();
        while (b.own == a.own || b.machine.total == a.machine.total)
            && start.elapsed() < std::time::Duration::from_secs(5)
        {
            b = CpuSample::take().unwrap();
        }
        assert!(b.own > a.own, "own CPU ticks did not move: read from the wrong fields of /proc/self/stat");
        assert!(b.machine.total > a.machine.total, "the machine's ticks did not move in 5 s");
    }

    #[test]
    fn others_are_what_the_machine_used_beyond_this_process() {
        let at = |busy, total, own| CpuSample { machine: MachineTicks::made_up(busy, total), own };
        let start = at(0, 0, 0);
        // Over 200 ticks of every CPU, the machine was busy 150: this process 140 of them, or 50.
        assert!(start.others_since(&at(150, 200, 140), "w").is_none());
        let w = start.others_since(&at(150, 200, 50), "workload w").expect("others used half the machine");
        assert!(w.cause.starts_with("other processes used ") && w.cause.contains("during workload w"), "{w:?}");
        assert!(start.others_since(&at(0, 0, 0), "w").is_none(), "no time passed");
    }

    use crate::runner::analysis::baseline_pairs;
    use crate::runner::records::fixtures::arm;

    fn settings_of_w() -> Settings {
        crate::runner::settings::Layer::default().resolve(Some("w")).unwrap().0
    }

    #[test]
    fn a_drifting_control_and_a_slow_first_run_are_named() {
        // The control's two arms, interleaved in time, both lose 10% halfway: a drift, not an
        // unstable control.
        let a = arm("rust", "threadrng", Some('A'), (1, 2), &[100.0, 101.0, 99.0, 100.0, 90.0, 91.0, 89.0, 90.0]);
        let b = arm("rust", "threadrng", Some('B'), (2, 2), &[100.5, 99.5, 100.0, 100.2, 90.5, 89.5, 90.0, 90.2]);
        let slow_start = arm("rust", "uuid", None, (20, 1), &[60.0, 100.0, 101.0, 99.0, 100.0]);
        let arms = vec![a, b, slow_start];
        let analysis = Analysis::of(&arms, &baseline_pairs(&arms));
        let w = results(&settings_of_w(), &arms, &analysis);
        assert!(w.iter().any(|w| w.cause.contains("the control drifted by -10.0%")), "{w:?}");
        assert!(!analysis.control_unstable, "{w:?}");
        assert!(
            w.iter().any(|w| w.cause.contains("the first timed run of rust uuid was 40% slower")
                && w.fix.contains("raise WARMUP")),
            "{w:?}"
        );
    }

    #[test]
    fn launches_the_hypervisor_took_time_from_are_named_once_each() {
        // Two arms of one process per launch (a paired run): twenty launches, each seen twice.
        let mut arms =
            vec![arm("rust", "uuid", None, (1, 1), &[100.0; 20]), arm("rust", "fast", None, (1, 1), &[200.0; 20])];
        let steal_at = |arms: &mut Vec<Arm>, stolen: &[usize]| {
            for a in arms.iter_mut() {
                for (i, r) in a.runs.iter_mut().enumerate() {
                    r.steal_pct = Some(if stolen.contains(&i) { 8.0 } else { 0.5 });
                }
            }
        };
        let warned = |arms: &Vec<Arm>| {
            let analysis = Analysis::of(arms, &baseline_pairs(arms));
            results(&settings_of_w(), arms, &analysis)
                .into_iter()
                .filter(|w| w.cause.contains("hypervisor"))
                .collect::<Vec<_>>()
        };
        steal_at(&mut arms, &[3]);
        assert_eq!(warned(&arms), [], "one launch in twenty is under the share");
        steal_at(&mut arms, &[3, 7]);
        let w = warned(&arms);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].cause.contains("2 of 20 launches lost more than 5% of their CPUs' time")
                && w[0].cause.contains("at most 8.0%")
                && !w[0].cause.contains("stolen runs")
                && w[0].cause.contains("2 still lost more at their last run and count"),
            "{w:?}"
        );
        // Launch 3 was stolen and ran again as launch 21, which lost little: it counts among the
        // launches that lost more, and the one run again among the rest.
        let run_again = |arms: &mut Vec<Arm>| {
            for a in arms.iter_mut() {
                a.runs[3].stolen = true;
                let mut again = a.runs[3].clone();
                (again.order, again.stolen, again.steal_pct) = (a.runs.len() + 1, false, Some(0.5));
                a.runs.push(again);
            }
        };
        run_again(&mut arms);
        let w = warned(&arms);
        assert!(
            w[0].cause.contains("2 of 21 launches lost more than 5%")
                && w[0].cause.contains("1 of them were stolen runs, run again and counted in no figure")
                && w[0].cause.contains("1 still lost more at their last run and count"),
            "{w:?}"
        );
        // One launch in twenty-one is under the share, but one run again is always said.
        steal_at(&mut arms, &[3]);
        arms.iter_mut().for_each(|a| a.runs.truncate(20));
        run_again(&mut arms);
        let w = warned(&arms);
        assert!(w.len() == 1 && w[0].cause.contains("1 of 21 launches") && !w[0].cause.contains("still lost"), "{w:?}");
    }

    #[test]
    fn steady_runs_give_no_warning() {
        let a = arm("rust", "threadrng", Some('A'), (1, 1), &[100.0, 101.0, 99.0, 100.5, 99.5, 100.2]);
        let b = arm("rust", "threadrng", Some('B'), (7, 1), &[100.5, 99.5, 100.0, 100.2, 99.8, 100.1]);
        let arms = vec![a, b];
        let analysis = Analysis::of(&arms, &[]);
        assert_eq!(results(&settings_of_w(), &arms, &analysis), []);
    }

    #[test]
    fn a_cost_the_median_over_blocks_leaves_out_is_named() {
        use crate::runner::records::fixtures::paired;
        // Five processes of eight blocks. `lumpy` pays 40% more in every fourth block: its typical
        // block ties with uuid's, its total time is 10% more. `smooth` pays 10% more in every
        // block, where the median block and the totals agree.
        let with_blocks = |msg_id, blocks: &dyn Fn(u64) -> Vec<u64>| {
            let mut arm = paired(msg_id, &[1000, 1010, 990, 1005, 995], |p| p);
            for run in &mut arm.runs {
                run.batch_ns = run.batch_ns.as_ref().map(|b| blocks(b[0]));
            }
            arm
        };
        let arms = vec![
            with_blocks("uuid", &|p| vec![p; 8]),
            with_blocks("lumpy", &|p| (0..8).map(|i| if i % 4 == 3 { p * 14 / 10 + i } else { p + i }).collect()),
            with_blocks("smooth", &|p| (0..8).map(|i| p * 11 / 10 + i).collect()),
        ];
        let analysis = Analysis::of(&arms, &[(0, 1), (0, 2)]);
        let w = results(&settings_of_w(), &arms, &analysis);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].cause.contains("rust lumpy against uuid: the arms' total times (the verdict) give -9.")
                && w[0].cause.contains("but the median block gives -0.")
                && w[0].fix.contains("median block"),
            "{w:?}"
        );
    }

    #[test]
    fn a_split_whose_launches_differ_more_than_its_measurement_predicts_is_named() {
        use crate::runner::advice::Measured;
        use crate::runner::records::fixtures::paired;
        use crate::runner::split::RowSplit;
        // Ten launches of fast whose estimates spread about 7% against uuid's.
        let paces = [930, 1070, 925, 1075, 940, 1060, 935, 1065, 930, 1070];
        let arms = vec![paired("uuid", &[1000; 10], |b| b), paired("fast", &paces, |b| b)];
        let analysis = Analysis::of(&arms, &[(0, 1)]);
        // Measured at 1M messages, they spread 1% between launches and 1% within: at 300k (200k
        // timed) that predicts about 2.3%.
        let from = |between_pct| Measured {
            comparison: "rust fast against uuid".into(),
            fixed_s_per_round: 1.0,
            ns_per_message_per_round: 1000.0,
            between_pct,
            within_pct: 1.0,
            budget_s: 100.0,
            messages: 1_000_000,
            warmup: 100_000,
            rounds: 10,
            half_width_pct: 1.0,
        };
        let split = |between_pct| Settings {
            split: Some("earlier.json".into()),
            rows: vec![RowSplit {
                row: "rust".into(),
                messages: 300_000,
                warmup: 100_000,
                repeat: 10,
                from: from(between_pct),
            }],
            ..settings_of_w()
        };
        let w = results(&split(1.0), &arms, &analysis);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].cause.contains("rust fast against uuid at its SPLIT (MESSAGES=300000 REPEAT=10)")
                && w[0].cause.contains("(10 rounds of MESSAGES=1000000 in SPLIT=earlier.json) predicts 2.35%")
                && w[0].fix.starts_with("run row rust at MESSAGES=1000000"),
            "{w:?}"
        );
        // Measured as spreading 6% between launches, the same launches are as predicted.
        assert_eq!(results(&split(6.0), &arms, &analysis), []);
        // And a run without SPLIT holds them against nothing.
        assert_eq!(results(&settings_of_w(), &arms, &analysis), []);
    }

    #[test]
    fn too_few_runs_are_named() {
        let mut s = settings_of_w();
        assert!(settings(&s).is_empty());
        s.repeat = 1;
        let w = settings(&s);
        assert!(w[0].cause.contains("REPEAT=1 is too few runs") && w[0].fix.contains("REPEAT=10"), "{w:?}");
    }

    #[test]
    fn processes_too_short_for_their_clip_are_named_and_long_enough_ones_are_not() {
        let mut s = settings_of_w();
        // 112 blocks, 12 of them warm-up (11,200 messages rounded up to whole batches): exactly 100 timed
        (s.batch, s.messages, s.warmup) = (1000, 112_000, 12_000);
        assert!(settings(&s).is_empty(), "{:?}", settings(&s));
        s.messages = 111_000;
        let w = settings(&s);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].cause.contains("MESSAGES=111000 at BATCH=1000 leaves 99 timed blocks"), "{w:?}");
        assert!(w[0].fix.contains("MESSAGES - WARMUP >= 100000"), "{w:?}");
        s.design = crate::runner::design::Design::Processes;
        assert!(settings(&s).is_empty(), "one process per arm compares whole runs, not blocks");
    }
}
