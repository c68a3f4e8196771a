//! "Runs needed": the REPEAT at which a difference of the observed size would be detected, so
//! a `~` can be read as "no effect" or as "not enough runs".

use statrs::distribution::{ContinuousCDF, Normal};

use super::{ALPHA, Summary};

/// Runs per arm for a two-sided test at ALPHA to detect `after.mean - before.mean` with the
/// given power, from the observed spreads (normal approximation:
/// n = (z_{1-ALPHA/2} + z_power)^2 (sd_a^2 + sd_b^2) / delta^2). None when the means are equal.
pub fn runs_needed(before: &Summary, after: &Summary, power: f64) -> Option<u32> {
    runs_for(after.mean - before.mean, before.stddev, after.stddev, power)
}

/// The same from a difference and two standard deviations in any one unit.
pub fn runs_for(delta: f64, sd_before: f64, sd_after: f64, power: f64) -> Option<u32> {
    let delta = delta.abs();
    if delta == 0.0 || !delta.is_finite() {
        return None;
    }
    let normal = Normal::standard();
    let z = normal.inverse_cdf(1.0 - ALPHA / 2.0) + normal.inverse_cdf(power);
    let n = z.powi(2) * (sd_before.powi(2) + sd_after.powi(2)) / delta.powi(2);
    Some((n.ceil().min(f64::from(u32::MAX)) as u32).max(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(mean: f64, stddev: f64) -> Summary {
        Summary { n: 10, mean, stddev, stddev_pct: 100.0 * stddev / mean, median: mean, min: mean, max: mean }
    }

    #[test]
    fn textbook_sizes() {
        // 2 (z_.975 + z_.80)^2 = 15.698 for delta = sd (Python: statistics.NormalDist().inv_cdf),
        // the usual "16 per group"; at 90% power 21.015.
        assert_eq!(runs_needed(&summary(100.0, 1.0), &summary(101.0, 1.0), 0.8), Some(16));
        assert_eq!(runs_needed(&summary(100.0, 1.0), &summary(99.0, 1.0), 0.9), Some(22));
        assert_eq!(runs_needed(&summary(100.0, 1.0), &summary(100.0, 1.0), 0.8), None);
    }

    #[test]
    fn observed_spread_sets_the_size() {
        // Python stdlib: a = [100, 101, 99, 100.5, 99.5], b = [100.9, 101.6, 99.8, 101.2, 100.0]
        // give sd 0.790569 and 0.774597, delta 0.7, n = 19.622 -> 20.
        let a = Summary::of(&[100.0, 101.0, 99.0, 100.5, 99.5]).unwrap();
        let b = Summary::of(&[100.9, 101.6, 99.8, 101.2, 100.0]).unwrap();
        assert_eq!(runs_needed(&a, &b, 0.8), Some(20));
    }
}
