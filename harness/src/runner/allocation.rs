//! Each group of launches' Budget line: what its own rounds measured (start-up, cost per
//! message, where the spread lives), advised by the split model (`runner::advice`).

use super::advice::{Allocation, Measured};
use super::analysis::{Analysis, ArmComparison};
use super::records::{Arm, timed_launches};
use super::schedule::launches;
use super::settings::Settings;

/// Lock-step and paired workloads: one per launch that carries comparisons (an SDK row's sets
/// or processes, as `schedule::launches` groups the arms), where it had at least 3 timed
/// rounds and was timed; none otherwise. Each launch costs what its own language's start-up
/// costs, and its spread splits its own way, so each gets its own split.
pub fn of(arms: &[Arm], analysis: &Analysis, settings: &Settings) -> Vec<Allocation> {
    if !settings.design.blocks() {
        return Vec::new();
    }
    let judged: Vec<(&ArmComparison, f64)> =
        analysis.half_widths().filter(|(c, _)| c.paired.is_some() && c.blocks_sd_pct.is_some()).collect();
    launches(arms, settings.design)
        .iter()
        .filter_map(|launch| {
            let (widest, h0) =
                judged.iter().filter(|(c, _)| launch.contains(&c.after_arm)).max_by(|a, b| a.1.total_cmp(&b.1))?;
            let group: Vec<&Arm> = launch.iter().map(|&i| &arms[i]).collect();
            let settings = settings.for_launch(group.iter().copied());
            Some(measure(&group, widest, *h0, &settings)?.advise(settings.batch))
        })
        .collect()
}

/// What the arms of one launch measured, read from `widest`, its comparison whose interval is
/// widest (`h0`).
fn measure(group: &[&Arm], widest: &ArmComparison, h0: f64, settings: &Settings) -> Option<Measured> {
    let paired = widest.paired.as_ref()?;
    let within_pct = widest.blocks_sd_pct?;
    let (fixed_s, timed_s, rounds) = launch_times(group)?;
    let m0 = settings.messages.checked_sub(settings.warmup).filter(|&m| m > 0)? as f64;
    Some(Measured {
        comparison: widest.name(),
        fixed_s_per_round: fixed_s,
        ns_per_message_per_round: 1e9 * timed_s / m0,
        between_pct: 100.0 * (paired.t.sd.powi(2) - (within_pct / 100.0).powi(2)).max(0.0).sqrt(),
        within_pct,
        budget_s: (fixed_s + timed_s) * rounds as f64,
        messages: settings.messages,
        warmup: settings.warmup,
        rounds,
        half_width_pct: h0,
    })
}

/// Per round, from the timed launches of `arms` (one launch's): the mean seconds outside the
/// timed window, the mean seconds of the timed window, and the rounds.
fn launch_times(arms: &[&Arm]) -> Option<(f64, f64, usize)> {
    let launches = timed_launches(arms.iter().copied());
    let (mut wall, mut timed) = (0.0, 0.0);
    for runs in launches.values() {
        let mut launch_timed: Option<f64> = None;
        for run in runs {
            let (Some(_), Some(result)) = (run.launch_s, &run.result) else { return None };
            let t = result.elapsed_ns as f64 / 1e9;
            launch_timed = Some(launch_timed.map_or(t, |l| l.max(t)));
        }
        wall += runs[0].launch_s?;
        timed += launch_timed?;
    }
    let rounds = launches.values().flatten().map(|r| r.round).max()?;
    if rounds < 3 {
        return None;
    }
    Some(((wall - timed).max(0.0) / rounds as f64, timed / rounds as f64, rounds))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::design::Design;
    use crate::runner::records::fixtures::paired;

    #[test]
    fn each_row_s_split_is_read_from_its_widest_comparison_and_its_own_launch_times() {
        // Five processes whose two blocks agree (no spread within), fast 5% under uuid with a
        // spread between processes: every launch 2 s, 1.5 s of it timed.
        let fast = [95_000, 95_400, 94_600, 95_200, 94_800];
        let mut arms =
            vec![paired("uuid", &fast.map(|b| b * 100 / 95), |b| b), paired("fast", &fast.map(|b| b + 900), |b| b)];
        for run in arms.iter_mut().flat_map(|a| a.runs.iter_mut()) {
            run.launch_s = Some(2.0);
            run.result.as_mut().unwrap().elapsed_ns = 1_500_000_000;
        }
        // A second row in launches of its own, whose language takes 2 s longer to start.
        let slow_start: Vec<Arm> = arms
            .iter()
            .map(|a| {
                let mut a = a.clone();
                a.sdk = "go".into();
                for run in &mut a.runs {
                    run.order += 100;
                    run.launch_s = Some(4.0);
                }
                a
            })
            .collect();
        arms.extend(slow_start);
        let analysis = Analysis::of(&arms, &[(0, 1), (2, 3)]);
        let settings = Settings {
            design: Design::Paired,
            ..crate::runner::settings::Layer::default().resolve(Some("w")).unwrap().0
        };
        let all = of(&arms, &analysis, &settings);
        let [a, go] = &all[..] else { panic!("one per row: {all:?}") };
        assert_eq!(a.measured.comparison, "rust fast against uuid");
        assert!((a.measured.fixed_s_per_round - 0.5).abs() < 1e-9 && a.measured.rounds == 5, "{a:?}");
        assert_eq!((a.measured.within_pct, a.rounds_at_messages), (0.0, 5));
        assert!((a.half_width_at_messages_pct - a.measured.half_width_pct).abs() < 1e-9, "{a:?}");
        assert!((a.measured.budget_s - 10.0).abs() < 1e-9, "its own rounds' time: {a:?}");
        // All the spread lies between launches: as many launches as the time holds at the
        // shortest advised (100 blocks, whose clip still acts: 0.67 s, 15 in 10 s), which fill
        // the budget, and a narrower interval than today's.
        assert_eq!((a.best_rounds, a.best_messages), (15, 100 * u64::from(settings.batch) + settings.warmup), "{a:?}");
        assert!(a.to_string().contains(&format!("WARMUP={} in", settings.warmup)), "{a}");
        // A report keeps the measurement: advised again from its JSON, it gives the same split.
        let kept: Measured = serde_json::from_value(serde_json::to_value(a).unwrap()).unwrap();
        assert_eq!(kept.advise(settings.batch), *a);
        assert!(a.best_half_width_pct < a.measured.half_width_pct, "{a:?}");
        // The other row pays its own start-up, over its own time.
        assert_eq!(go.measured.comparison, "go fast against uuid");
        assert!(
            (go.measured.fixed_s_per_round - 2.5).abs() < 1e-9 && (go.measured.budget_s - 20.0).abs() < 1e-9,
            "{go:?}"
        );
        assert!(go.best_rounds < a.best_rounds, "{go:?} against {a:?}");
        // One process per arm has no blocks to split by.
        let processes = Settings { design: Design::Processes, ..settings };
        assert_eq!(of(&arms, &analysis, &processes), Vec::new());
    }
    #[test]
    fn a_split_never_projects_wider_than_today_s() {
        // Three launches whose blocks disagree (the spread is within them), each 10 s with 0.1 s
        // timed: the model wants more launches, but the time holds no more than today's three
        // even at the shortest, which would project wider; today's split stands.
        let mut arms = vec![paired("uuid", &[100_000; 3], |b| b), paired("fast", &[95_000, 96_000, 94_000], |b| b)];
        for (k, run) in arms[1].runs.iter_mut().enumerate() {
            let b = [95_000, 96_000, 94_000][k];
            run.batch_ns = Some(vec![b - 3_000, b + 3_000]);
        }
        for run in arms.iter_mut().flat_map(|a| a.runs.iter_mut()) {
            run.launch_s = Some(10.0);
            run.result.as_mut().unwrap().elapsed_ns = 100_000_000;
        }
        let analysis = Analysis::of(&arms, &[(0, 1)]);
        let settings = Settings {
            design: Design::Paired,
            ..crate::runner::settings::Layer::default().resolve(Some("w")).unwrap().0
        };
        let [a] = &of(&arms, &analysis, &settings)[..] else { panic!("one row") };
        assert!(a.measured.within_pct > a.measured.between_pct, "{a:?}");
        assert_eq!((a.best_messages, a.best_rounds), (settings.messages, 3), "{a:?}");
        assert_eq!(a.best_half_width_pct, a.half_width_at_messages_pct);
    }
}
