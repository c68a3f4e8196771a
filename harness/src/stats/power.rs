//! "Runs needed": the REPEAT at which a difference of the observed size would be detected, so
//! a `~` can be read as "no effect" or as "not enough runs".

use statrs::distribution::{ContinuousCDF, StudentsT};

use super::{ALPHA, Summary};

/// Beyond this the answer is "more than anyone will run".
const MAX_RUNS: u32 = 1 << 20;

/// Runs per arm for a two-sided t-test at ALPHA to detect `after.mean - before.mean` with the
/// given power, from the observed spreads. None when the means are equal.
pub fn runs_needed(before: &Summary, after: &Summary, power: f64) -> Option<u32> {
    runs_for(after.mean - before.mean, before.stddev, after.stddev, power)
}

/// The same from a difference and two standard deviations in any one unit: the smallest n
/// whose power reaches `power`, with the power of n runs a side approximated by the shifted
/// central t: 1 - F_t(t_{1-ALPHA/2} - delta / se), df = 2n - 2, se = sqrt((sd_a^2 + sd_b^2) / n).
pub fn runs_for(delta: f64, sd_before: f64, sd_after: f64, power: f64) -> Option<u32> {
    let delta = delta.abs();
    let var = sd_before.powi(2) + sd_after.powi(2);
    if delta == 0.0 || !delta.is_finite() || !var.is_finite() {
        return None;
    }
    let reaches = |n: u32| {
        let t = StudentsT::new(0.0, 1.0, f64::from(2 * n - 2)).expect("df >= 2");
        let shift = delta / (var / f64::from(n)).sqrt();
        1.0 - t.cdf(t.inverse_cdf(1.0 - ALPHA / 2.0) - shift) >= power
    };
    Some(smallest_runs(reaches))
}

/// The smallest n >= 2 at which `reaches` holds, for a power that grows with n, capped at
/// MAX_RUNS: doubling brackets it, bisection finds it.
pub(super) fn smallest_runs(reaches: impl Fn(u32) -> bool) -> u32 {
    let mut hi = 2;
    while !reaches(hi) {
        if hi >= MAX_RUNS {
            return MAX_RUNS;
        }
        hi *= 2;
    }
    let mut lo = hi / 2;
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if reaches(mid) { hi = mid } else { lo = mid }
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(mean: f64, stddev: f64) -> Summary {
        Summary { n: 10, mean, stddev, stddev_pct: 100.0 * stddev / mean, median: mean, min: mean, max: mean }
    }

    #[test]
    fn sizes_match_r_power_t_test() {
        // R: power.t.test(delta = 1, sd = 1, power = 0.8) gives n = 16.71477 per group, and
        // power.t.test(power = .90, delta = 1) (an example in ?power.t.test) n = 22.02110.
        assert_eq!(runs_needed(&summary(100.0, 1.0), &summary(101.0, 1.0), 0.8), Some(17));
        assert_eq!(runs_needed(&summary(100.0, 1.0), &summary(99.0, 1.0), 0.9), Some(23));
        // The same effect in other units needs the same runs: R, delta = 0.7, sd = 0.7.
        assert_eq!(runs_for(0.7, 0.7, 0.7, 0.8), Some(17));
        assert_eq!(runs_needed(&summary(100.0, 1.0), &summary(100.0, 1.0), 0.8), None);
    }

    #[test]
    fn large_effects_need_few_runs_and_tiny_ones_are_capped() {
        assert_eq!(runs_for(10.0, 1.0, 1.0, 0.8), Some(2));
        assert_eq!(runs_for(1e-9, 1.0, 1.0, 0.8), Some(MAX_RUNS));
    }
}
