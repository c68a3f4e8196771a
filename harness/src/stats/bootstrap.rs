//! A percentile bootstrap confidence interval of the ratio of two means. Seeded, so the same
//! samples always give the same interval and a report can be re-derived from its JSON.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const RESAMPLES: usize = 10_000;
const SEED: u64 = 0x6d69_6e74_6265_6e63;

/// The 95% interval of mean(after) / mean(before); None with fewer than 2 samples on a side.
pub fn ratio_ci95(before: &[f64], after: &[f64]) -> Option<(f64, f64)> {
    if before.len() < 2 || after.len() < 2 {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(SEED);
    Some(interval((0..RESAMPLES).map(|_| resampled_mean(&mut rng, after) / resampled_mean(&mut rng, before)).collect()))
}

/// The 95% interval of the mean of `xs`; None with fewer than 2 values.
pub fn mean_ci95(xs: &[f64]) -> Option<(f64, f64)> {
    if xs.len() < 2 {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(SEED);
    Some(interval((0..RESAMPLES).map(|_| resampled_mean(&mut rng, xs)).collect()))
}

/// The mean of `xs.len()` values drawn from `xs` with replacement.
fn resampled_mean(rng: &mut StdRng, xs: &[f64]) -> f64 {
    (0..xs.len()).map(|_| xs[rng.random_range(0..xs.len())]).sum::<f64>() / xs.len() as f64
}

/// The 2.5th and 97.5th percentiles of the resampled statistic.
fn interval(mut stats: Vec<f64>) -> (f64, f64) {
    stats.sort_by(f64::total_cmp);
    (quantile(&stats, 0.025), quantile(&stats, 0.975))
}

/// Linear interpolation between the closest ranks (Python's `statistics.quantiles(method="inclusive")`).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, frac) = (pos.floor() as usize, pos.fract());
    if lo + 1 < sorted.len() { sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]) } else { sorted[lo] }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::tests::close;

    const BEFORE: [f64; 10] = [
        1_402_000.0,
        1_388_500.0,
        1_415_200.0,
        1_379_900.0,
        1_420_300.0,
        1_395_100.0,
        1_360_800.0,
        1_433_600.0,
        1_398_700.0,
        1_407_400.0,
    ];
    const AFTER: [f64; 10] = [
        6_310_000.0,
        6_455_000.0,
        6_120_500.0,
        6_398_200.0,
        6_502_900.0,
        6_275_300.0,
        6_344_800.0,
        6_190_100.0,
        6_420_600.0,
        6_366_000.0,
    ];

    #[test]
    fn interval_agrees_with_an_independent_bootstrap() {
        // Python stdlib, random.Random(12345), 200,000 resamples of the same percentile
        // bootstrap (statistics.quantiles inclusive): ratio 4.52690, CI 4.46263 .. 4.59001.
        // Another generator and 20x the resamples, so agreement is to the resampling error.
        let (lo, hi) = ratio_ci95(&BEFORE, &AFTER).unwrap();
        assert!(close(lo, 4.462_63, 0.004) && close(hi, 4.590_01, 0.004), "{lo} .. {hi}");
    }

    #[test]
    fn mean_interval_agrees_with_an_independent_bootstrap() {
        // Python stdlib as above, of these values' mean (0.0208): CI 0.00850 .. 0.03250.
        let xs = [0.012, 0.031, -0.018, 0.052, 0.024, 0.003, 0.041, 0.009, 0.035, 0.019];
        let (lo, hi) = mean_ci95(&xs).unwrap();
        assert!(close(lo, 0.008_50, 0.0006) && close(hi, 0.032_50, 0.0006), "{lo} .. {hi}");
        assert_eq!(mean_ci95(&[1.0]), None);
    }

    #[test]
    fn interval_is_deterministic_and_exact_without_spread() {
        assert_eq!(ratio_ci95(&BEFORE, &AFTER), ratio_ci95(&BEFORE, &AFTER));
        assert_eq!(ratio_ci95(&[2.0, 2.0], &[3.0, 3.0]), Some((1.5, 1.5)));
        assert_eq!(ratio_ci95(&[2.0], &[3.0, 3.0]), None);
    }

    #[test]
    fn quantile_interpolates_like_python() {
        // statistics.quantiles([1, 2, 3, 4], n=4, method="inclusive") == [1.75, 2.5, 3.25]
        let xs = [1.0, 2.0, 3.0, 4.0];
        assert_eq!([quantile(&xs, 0.25), quantile(&xs, 0.5), quantile(&xs, 0.75)], [1.75, 2.5, 3.25]);
    }
}
