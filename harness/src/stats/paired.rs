//! Paired comparisons. In paired mode the arms of one process are timed around each other, block
//! by block, so the noise a block shares cancels in the ratio of its batch times. Each process
//! gives one estimate per arm (the log of the ratio of the two arms' total times over the blocks
//! they shared, each arm's rarest stalls clipped), and the verdict is a one-sample test of those
//! per-process log ratios against 0: the processes are the independent units (JIT, heap layout,
//! scheduling differ between them), the blocks are not.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use super::power::smallest_runs;
use super::{ALPHA, TIE_POWER, Verdict, median_of_sorted};

/// The share of an arm's blocks, in one process, whose own time counts: the rest, its slowest,
/// count at the time of the slowest of these. A cost an arm pays in 1 block in 100 or more
/// counts in full; a rarer stall (a preemption, a page fault storm) counts as a slow block,
/// not as its own length, so one stall does not decide a process's estimate. Reports name it.
pub const CLIP_PERCENTILE: u32 = 99;

/// The blocks per clipped block: a cost paid in 1 block in this many or more counts in full.
/// Also the fewest blocks a process needs for its clip to take anything (its slowest block):
/// with fewer, the CLIP_PERCENTILE rank is the slowest block itself, nothing is clipped, and a
/// stall that a longer process clips counts in full.
pub const CLIP_MIN_BLOCKS: u64 = 100 / (100 - CLIP_PERCENTILE as u64);

/// Runs of blocks a process's standard error is taken over (`ProcessEstimate::se`).
const CHUNKS: usize = 20;

/// One process's estimate of an arm against its baseline, from the blocks they shared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProcessEstimate {
    /// How many times faster the arm ran than the baseline, as a natural log: ln(sum of base_b /
    /// sum of arm_b) over the blocks both ran, each arm's times clipped (`clipped`). Both are the
    /// batch times of the same blocks, so this is the ratio of the arms' throughputs in this
    /// process, counting a cost an arm pays in only some of its blocks (a pool refilled every few
    /// batches, a collection).
    pub log_ratio: f64,
    /// That estimate's standard error from the blocks alone, by batch means: the blocks cut in
    /// time order into CHUNKS runs (or single blocks, with fewer than that), the same estimate
    /// of each, their sd over sqrt(CHUNKS). A cost that comes every few blocks, as a collection
    /// does, averages out within a run, where a spread over single blocks would count it as
    /// noise.
    pub se: f64,
    /// The median over the blocks of ln(base_b / arm_b): the typical block, which leaves out a
    /// cost paid in a minority of blocks.
    pub median_log_ratio: f64,
}

/// Each time, the ones above the CLIP_PERCENTILE order statistic (nearest rank) counted at it.
pub fn clipped(ns: &[u64]) -> Vec<f64> {
    let mut sorted = ns.to_vec();
    sorted.sort_unstable();
    let Some(rank) = ((f64::from(CLIP_PERCENTILE) / 100.0 * ns.len() as f64).ceil() as usize).checked_sub(1) else {
        return Vec::new();
    };
    let cap = sorted[rank] as f64;
    ns.iter().map(|&t| (t as f64).min(cap)).collect()
}

/// The mean of the clipped times: the batch time the estimate's ratio is of.
pub fn clipped_mean(ns: &[u64]) -> f64 {
    let c = clipped(ns);
    c.iter().sum::<f64>() / c.len() as f64
}

/// None without blocks, or with a zero time.
pub fn process_estimate(base_ns: &[u64], arm_ns: &[u64]) -> Option<ProcessEstimate> {
    if base_ns.is_empty() || base_ns.len() != arm_ns.len() || base_ns.iter().chain(arm_ns).any(|&t| t == 0) {
        return None;
    }
    let mut logs: Vec<f64> = base_ns.iter().zip(arm_ns).map(|(&b, &a)| (b as f64 / a as f64).ln()).collect();
    logs.sort_by(f64::total_cmp);
    let (base, arm) = (clipped(base_ns), clipped(arm_ns));
    let log_ratio =
        |range: std::ops::Range<usize>| (base[range.clone()].iter().sum::<f64>() / arm[range].iter().sum::<f64>()).ln();
    let (n, k) = (base.len(), base.len().min(CHUNKS));
    let chunks: Vec<f64> = (0..k).map(|i| log_ratio(i * n / k..(i + 1) * n / k)).collect();
    let se = if k > 1 { one_sample_t(&chunks).sd / (k as f64).sqrt() } else { 0.0 };
    Some(ProcessEstimate { log_ratio: log_ratio(0..n), se, median_log_ratio: median_of_sorted(&logs) })
}

/// The spread the per-process log ratios would have if the processes differed in nothing but
/// the noise of their own blocks: the root mean square of their standard errors. Near the
/// spread across the processes, more blocks per process would narrow the interval; well below
/// it, the processes themselves differ, and only more processes do.
pub fn blocks_sd(estimates: &[ProcessEstimate]) -> Option<f64> {
    (!estimates.is_empty())
        .then(|| (estimates.iter().map(|e| e.se * e.se).sum::<f64>() / estimates.len() as f64).sqrt())
}

/// Student's one-sample t-test of the mean against 0, with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OneSampleT {
    pub mean: f64,
    pub sd: f64,
    pub t: f64,
    pub df: f64,
    /// Two-sided; None with fewer than 2 values or no spread.
    pub p: Option<f64>,
    pub ci95: Option<(f64, f64)>,
}

pub fn one_sample_t(xs: &[f64]) -> OneSampleT {
    let n = xs.len() as f64;
    let mean = if xs.is_empty() { f64::NAN } else { xs.iter().sum::<f64>() / n };
    let sd =
        if xs.len() > 1 { (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt() } else { f64::NAN };
    let dist = (xs.len() > 1).then(|| StudentsT::new(0.0, 1.0, n - 1.0).ok()).flatten();
    match dist {
        Some(dist) if sd > 0.0 => {
            let se = sd / n.sqrt();
            let t = mean / se;
            let q = super::t_critical(n - 1.0);
            OneSampleT {
                mean,
                sd,
                t,
                df: n - 1.0,
                p: Some(2.0 * (1.0 - dist.cdf(t.abs()))),
                ci95: Some((mean - q * se, mean + q * se)),
            }
        }
        // No spread: the interval is the value itself, but there is nothing to test.
        _ => OneSampleT { mean, sd, t: f64::NAN, df: n - 1.0, p: None, ci95: (sd == 0.0).then_some((mean, mean)) },
    }
}

/// Wilcoxon's signed-rank test of the values against 0, as R's `wilcox.test(x)`: zeros dropped,
/// the exact distribution below 50 values without ties or zeros, else the normal approximation
/// with continuity and tie corrections.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Wilcoxon {
    /// The sum of the ranks of the positive values.
    pub v: f64,
    pub p: Option<f64>,
    pub exact: bool,
}

pub fn wilcoxon_signed_rank(xs: &[f64]) -> Wilcoxon {
    let nonzero: Vec<f64> = xs.iter().copied().filter(|x| *x != 0.0).collect();
    let n = nonzero.len();
    if n == 0 {
        return Wilcoxon { v: 0.0, p: None, exact: false };
    }
    let mut by_size: Vec<usize> = (0..n).collect();
    by_size.sort_by(|&a, &b| nonzero[a].abs().total_cmp(&nonzero[b].abs()));
    let mut ranks = vec![0.0; n];
    let mut tie_term = 0.0; // sum of t^3 - t over groups of tied sizes
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && nonzero[by_size[j + 1]].abs() == nonzero[by_size[i]].abs() {
            j += 1;
        }
        let average = (i + j) as f64 / 2.0 + 1.0;
        for k in i..=j {
            ranks[by_size[k]] = average;
        }
        let t = (j - i + 1) as f64;
        tie_term += t.powi(3) - t;
        i = j + 1;
    }
    let v: f64 = nonzero.iter().zip(&ranks).filter(|(x, _)| **x > 0.0).map(|(_, r)| r).sum();
    let exact = n < 50 && tie_term == 0.0 && nonzero.len() == xs.len();
    let p = if exact {
        exact_signed_rank_p(n, v as usize)
    } else {
        let nf = n as f64;
        let centred = v - nf * (nf + 1.0) / 4.0;
        let sigma = (nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term / 48.0).sqrt();
        let z = (centred - 0.5 * centred.signum()) / sigma;
        let normal = Normal::standard();
        (sigma > 0.0).then(|| (2.0 * normal.cdf(-z.abs())).min(1.0))
    };
    Wilcoxon { v, p, exact }
}

/// Two-sided exact p-value of the signed-rank statistic `v` for `n` values: the share of the
/// 2^n sign patterns whose positive rank sum is as far from the centre, counted by dynamic
/// programming over rank sums.
fn exact_signed_rank_p(n: usize, v: usize) -> Option<f64> {
    let max = n * (n + 1) / 2;
    let mut ways = vec![0f64; max + 1];
    ways[0] = 1.0;
    for rank in 1..=n {
        for s in (rank..=max).rev() {
            ways[s] += ways[s - rank];
        }
    }
    let total = 2f64.powi(n as i32);
    let at_most = ways[..=v].iter().sum::<f64>() / total;
    let at_least = ways[v..].iter().sum::<f64>() / total;
    Some((2.0 * at_most.min(at_least)).min(1.0))
}

/// An arm against its baseline over the per-process log ratios of one paired run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairedComparison {
    pub processes: usize,
    /// exp(mean log ratio): how many times faster than the baseline.
    pub ratio: f64,
    pub change_pct: f64,
    pub t: OneSampleT,
    pub wilcoxon: Wilcoxon,
    /// exp of the t interval: the interval the verdict agrees with.
    pub ratio_ci95: Option<(f64, f64)>,
    /// Percentile bootstrap of exp(mean log ratio), beside it.
    pub bootstrap_ci95: Option<(f64, f64)>,
    /// Half the t interval's width, in percent of the ratio (`half_width_pct`): "within ±x%"
    /// for a tie, and what PRECISION judges.
    pub half_width_pct: Option<f64>,
    /// For a tie: processes that would detect the observed change at TIE_POWER.
    pub runs_needed: Option<u32>,
    pub verdict: Verdict,
}

/// Compares from one log ratio per process. `noise_pct` is the absolute % change the verdict
/// must exceed: in paired mode the SDK's own A/A twin's (a second copy of the baseline in the
/// same processes); `control_unstable` withholds, which only the runs of a round paired across
/// processes ask for.
pub fn compare_paired(log_ratios: &[f64], noise_pct: Option<f64>, control_unstable: bool) -> PairedComparison {
    let t = one_sample_t(log_ratios);
    let ratio = t.mean.exp();
    let change_pct = 100.0 * (ratio - 1.0);
    let ratio_ci95 = t.ci95.map(|(lo, hi)| (lo.exp(), hi.exp()));
    let verdict = Verdict::of(log_ratios.len(), t.p, change_pct, noise_pct, control_unstable);
    PairedComparison {
        processes: log_ratios.len(),
        ratio,
        change_pct,
        t,
        wilcoxon: wilcoxon_signed_rank(log_ratios),
        ratio_ci95,
        bootstrap_ci95: super::bootstrap::mean_ci95(log_ratios).map(|(lo, hi)| (lo.exp(), hi.exp())),
        half_width_pct: ratio_ci95.map(|ci| half_width_pct(ci, ratio)),
        runs_needed: if verdict == Verdict::Noise { runs_for_mean(t.mean, t.sd, TIE_POWER) } else { None },
        verdict,
    }
}

/// Half a ratio's 95% interval in percent of the ratio: the same share of any ratio, so a
/// several-fold gain and a tie are held to one PRECISION.
pub fn half_width_pct((lo, hi): (f64, f64), ratio: f64) -> f64 {
    50.0 * (hi - lo) / ratio
}

/// The smallest number of processes whose one-sample t-test at ALPHA detects a mean of `delta`
/// with spread `sd` at `power`, by the shifted central t as in `power::runs_for`, searched as it is.
pub fn runs_for_mean(delta: f64, sd: f64, power: f64) -> Option<u32> {
    // A one-sample test of n values has the power of a two-sample one with sd/sqrt(2) per side
    // only approximately (the df differ); compute it directly.
    let delta = delta.abs();
    if delta == 0.0 || !delta.is_finite() || !sd.is_finite() || sd <= 0.0 {
        return None;
    }
    let reaches = |n: u32| {
        let t = StudentsT::new(0.0, 1.0, f64::from(n - 1)).expect("df >= 1");
        1.0 - t.cdf(t.inverse_cdf(1.0 - ALPHA / 2.0) - delta / (sd / f64::from(n).sqrt())) >= power
    };
    Some(smallest_runs(reaches))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::tests::{SLEEP_1, SLEEP_2, close};

    fn sleep_differences() -> Vec<f64> {
        SLEEP_2.iter().zip(SLEEP_1).map(|(b, a)| b - a).collect()
    }

    #[test]
    fn one_sample_t_matches_r_paired_t_test_on_sleep() {
        // R: with(sleep, t.test(extra[group == 2], extra[group == 1], paired = TRUE)):
        // t = 4.0621, df = 9, p-value = 0.002833, 95% CI 0.7001142 .. 2.4598858, mean 1.58.
        let t = one_sample_t(&sleep_differences());
        assert!(close(t.t, 4.0621, 1e-4), "t {}", t.t);
        assert_eq!(t.df, 9.0);
        assert!(close(t.p.unwrap(), 0.002833, 1e-6), "p {:?}", t.p);
        let (lo, hi) = t.ci95.unwrap();
        assert!(close(lo, 0.700_114_2, 1e-6) && close(hi, 2.459_885_8, 1e-6), "{lo} .. {hi}");
        assert!(close(t.mean, 1.58, 1e-12));
    }

    #[test]
    fn wilcoxon_matches_r_with_ties_and_zeros() {
        // R: with(sleep, wilcox.test(extra[group == 2], extra[group == 1], paired = TRUE)):
        // V = 45, p-value = 0.009091 (normal approximation: the differences have a zero and ties).
        let w = wilcoxon_signed_rank(&sleep_differences());
        assert_eq!((w.v, w.exact), (45.0, false));
        assert!(close(w.p.unwrap(), 0.009091, 1e-6), "p {:?}", w.p);
    }

    #[test]
    fn wilcoxon_exact_matches_r() {
        // R: wilcox.test(1:10) gives V = 55, p-value = 0.001953 (2 / 2^10, exact).
        let w = wilcoxon_signed_rank(&(1..=10).map(f64::from).collect::<Vec<_>>());
        assert_eq!((w.v, w.exact), (55.0, true));
        assert!(close(w.p.unwrap(), 2.0 / 1024.0, 1e-12));
        // scipy.stats.wilcoxon([1.5, -0.3, 2.2, 0.8, -1.1, 3.0, 0.4]) gives p = 0.15625 (exact;
        // it reports min(V+, V-) = 5, so V+ = 28 - 5 = 23).
        let w = wilcoxon_signed_rank(&[1.5, -0.3, 2.2, 0.8, -1.1, 3.0, 0.4]);
        assert_eq!((w.v, w.exact), (23.0, true));
        assert!(close(w.p.unwrap(), 0.15625, 1e-12), "p {:?}", w.p);
    }

    #[test]
    fn per_process_estimate_is_the_ratio_of_totals_with_the_rarest_stalls_clipped() {
        // 200 blocks: the arm takes half the baseline's time; the baseline has two blocks of 260
        // and one stall of 100 times its block. The stall counts as the slowest block kept (the
        // 198th of 200, 260), not as its own length.
        let mut base = vec![200u64; 200];
        base[7] = 20_000;
        base[9] = 260;
        base[11] = 260;
        let arm = vec![100u64; 200];
        let e = process_estimate(&base, &arm).unwrap();
        let expected = ((197.0f64 * 200.0 + 3.0 * 260.0) / (200.0 * 100.0)).ln();
        assert!(close(e.log_ratio, expected, 1e-12), "{e:?}");
        assert!(close(e.median_log_ratio, 2f64.ln(), 1e-12), "{e:?}");
        assert_eq!(process_estimate(&[], &[]), None);
        assert_eq!(process_estimate(&[1, 2], &[1]), None);
        assert_eq!(process_estimate(&[1, 0], &[1, 1]), None);
    }

    #[test]
    fn a_process_of_the_fewest_blocks_clips_its_slowest_and_one_block_fewer_clips_none() {
        let stalled = |n: u64| -> Vec<u64> { (1..=n).map(|i| if i == n { 1000 * n } else { i }).collect() };
        let slowest = |n: u64| *clipped(&stalled(n)).last().unwrap();
        assert_eq!(slowest(CLIP_MIN_BLOCKS), (CLIP_MIN_BLOCKS - 1) as f64);
        assert_eq!(slowest(CLIP_MIN_BLOCKS - 1), (1000 * (CLIP_MIN_BLOCKS - 1)) as f64);
    }

    #[test]
    fn clipping_keeps_the_slowest_one_in_a_hundred_and_caps_the_rest() {
        let ns: Vec<u64> = (1..=300).collect();
        let c = clipped(&ns);
        // Nearest rank: ceil(0.99 x 300) = 297, so 298, 299 and 300 count as 297.
        assert_eq!(&c[295..], &[296.0, 297.0, 297.0, 297.0, 297.0]);
        assert!(close(clipped_mean(&ns), (296.0 * 297.0 / 2.0 + 4.0 * 297.0) / 300.0, 1e-12));
        // Under 100 blocks nothing is clipped; none at all gives none.
        assert_eq!(clipped(&[5, 1, 9]), vec![5.0, 1.0, 9.0]);
        assert!(clipped(&[]).is_empty());
    }

    #[test]
    fn the_estimate_counts_a_cost_the_median_over_blocks_leaves_out() {
        // The arm pays 40% more in every fourth block (a pool refilled every four batches): the
        // typical block is a tie, the throughput 10% lower.
        let base = [100; 8];
        let arm = [100, 100, 100, 140, 100, 100, 100, 140];
        let e = process_estimate(&base, &arm).unwrap();
        assert_eq!(e.median_log_ratio, 0.0);
        assert!(close(e.log_ratio, (800.0f64 / 880.0).ln(), 1e-12), "{e:?}");
    }

    #[test]
    fn a_process_estimate_carries_the_standard_error_of_its_ratio() {
        // 100 blocks against a steady 100: runs of 5 blocks, the first 10 at 98 each, the next
        // 10 at 102. The 20 runs' log ratios are ln 0.98 and ln 1.02, ten each.
        let arm = vec![100u64; 100];
        let base: Vec<u64> = (0..100).map(|i| if i < 50 { 98 } else { 102 }).collect();
        let e = process_estimate(&base, &arm).unwrap();
        let runs: Vec<f64> = (0..20).map(|i| if i < 10 { 0.98f64.ln() } else { 1.02f64.ln() }).collect();
        assert!(close(e.log_ratio, 0.0, 1e-12), "{e:?}");
        assert!(close(e.se, one_sample_t(&runs).sd / 20f64.sqrt(), 1e-12), "{e:?}");
        // A cost in every fifth block is the same in every run of five: no error, where single
        // blocks would spread.
        let lumpy: Vec<u64> = (0..100).map(|i| if i % 5 == 4 { 150 } else { 100 }).collect();
        let e = process_estimate(&lumpy, &arm).unwrap();
        assert!(close(e.log_ratio, 1.1f64.ln(), 1e-12) && e.se.abs() < 1e-12, "{e:?}");
        // Blocks that all agree leave no error, nor does a single block.
        assert_eq!(process_estimate(&[300; 9], &[100; 9]).unwrap().se, 0.0);
        assert_eq!(process_estimate(&[300], &[100]).unwrap().se, 0.0);
        // The spread blocks alone would give processes: the root mean square of their errors.
        let es = [
            ProcessEstimate { log_ratio: 0.1, se: 0.03, median_log_ratio: 0.1 },
            ProcessEstimate { log_ratio: 0.2, se: 0.04, median_log_ratio: 0.2 },
        ];
        assert!(close(blocks_sd(&es).unwrap(), (0.0025f64 / 2.0).sqrt(), 1e-12));
        assert_eq!(blocks_sd(&[]), None);
    }

    #[test]
    fn blocks_sd_matches_the_spread_of_processes_that_differ_only_in_their_blocks() {
        // 40 processes of 900 blocks drawn from one distribution (log ratios of sd 0.2): the
        // processes' estimates spread as their own blocks say, within sampling (the sd of 40
        // values is itself uncertain by about 11%).
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let arm = vec![1_000_000u64; 900];
        let estimates: Vec<ProcessEstimate> = (0..40)
            .map(|_| {
                let base: Vec<u64> = (0..900).map(|_| (1e6 * (0.2 * normal(&mut rng)).exp()).round() as u64).collect();
                process_estimate(&base, &arm).unwrap()
            })
            .collect();
        let across = one_sample_t(&estimates.iter().map(|e| e.log_ratio).collect::<Vec<_>>()).sd;
        // Without clipping, a lognormal's mean over 900 has a relative se of sqrt(e^0.04 - 1) / 30.
        let expected = (0.04f64.exp() - 1.0).sqrt() / 30.0;
        let within = blocks_sd(&estimates).unwrap();
        assert!((within / expected - 1.0).abs() < 0.1, "within {within} against {expected}");
        assert!((across / within - 1.0).abs() < 0.35, "across {across} against within {within}");
    }

    /// A standard normal draw (Box-Muller).
    fn normal(rng: &mut impl rand::RngExt) -> f64 {
        let (u, v): (f64, f64) = (rng.random::<f64>().max(f64::MIN_POSITIVE), rng.random());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    #[test]
    fn verdicts_need_significance_and_more_than_the_own_a_a() {
        let faster = vec![0.040, 0.042, 0.038, 0.041, 0.039];
        let c = compare_paired(&faster, Some(0.5), false);
        assert_eq!(c.verdict, Verdict::Faster);
        assert!(close(c.ratio, 0.04f64.exp(), 1e-12));
        let (lo, hi) = c.ratio_ci95.unwrap();
        assert!(lo < c.ratio && c.ratio < hi && lo > 1.0);
        assert!(c.half_width_pct.unwrap() < 0.5);
        // In % of the ratio, not of the baseline: the same share of a several-fold gain as of a tie.
        assert!(close(c.half_width_pct.unwrap(), 50.0 * (hi - lo) / c.ratio, 1e-12));
        let slower: Vec<f64> = faster.iter().map(|x| -x).collect();
        assert_eq!(compare_paired(&slower, Some(0.5), false).verdict, Verdict::Slower);
        assert_eq!(compare_paired(&faster, Some(5.0), false).verdict, Verdict::Noise, "inside the A/A's change");
        assert_eq!(compare_paired(&faster, None, true).verdict, Verdict::Withheld);
        let tie = compare_paired(&[0.001, -0.002, 0.0025, -0.001, 0.0015], None, false);
        assert_eq!(tie.verdict, Verdict::Noise);
        assert!(tie.runs_needed.is_some_and(|n| n > 5));
        assert_eq!(compare_paired(&[0.04], None, false).verdict, Verdict::Undecided);
    }

    #[test]
    fn runs_for_mean_matches_r_power_t_test_one_sample() {
        // The exact power of the one-sample t-test (noncentral t, scipy.stats.nct) first reaches
        // 0.8 at n = 10 for delta = sd (0.748 at 9, 0.803 at 10), and 0.9 at n = 44 for
        // delta = sd / 2 (0.893 at 43, 0.900 at 44). The shifted central t is within one run.
        assert!(matches!(runs_for_mean(1.0, 1.0, 0.8), Some(10..=11)));
        assert!(matches!(runs_for_mean(-0.5, 1.0, 0.9), Some(44..=45)));
        assert_eq!(runs_for_mean(0.0, 1.0, 0.8), None);
        assert_eq!(runs_for_mean(1e-9, 1.0, 0.8), Some(1 << 20), "capped");
    }
}
