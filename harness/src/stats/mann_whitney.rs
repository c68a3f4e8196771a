//! The Mann-Whitney U test (R's `wilcox.test(a, b)`, benchstat's default): rank-based, so one
//! outlier run or a skewed spread cannot fake or hide a difference the way it can for Welch.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MannWhitney {
    /// U of the first sample (R's W): how many (a, b) pairs have a > b, ties counting one half.
    pub u: f64,
    /// Two-sided p-value; None when every value is equal.
    pub p: Option<f64>,
    /// True when p comes from the exact distribution of U, false for the normal approximation.
    pub exact: bool,
}

/// Exact p-values below this size and without ties, as R does; else the normal approximation
/// with tie and continuity corrections.
const EXACT_BELOW: usize = 50;

pub fn mann_whitney(a: &[f64], b: &[f64]) -> MannWhitney {
    let (n1, n2) = (a.len(), b.len());
    let mut pooled: Vec<f64> = a.iter().chain(b).copied().collect();
    pooled.sort_by(f64::total_cmp);
    // Mid-ranks: each value's rank is the mean of the positions it occupies.
    let rank = |x: f64| {
        let below = pooled.partition_point(|&v| v < x);
        let upto = pooled.partition_point(|&v| v <= x);
        (below + upto + 1) as f64 / 2.0
    };
    let u = a.iter().map(|&x| rank(x)).sum::<f64>() - (n1 * (n1 + 1)) as f64 / 2.0;
    let tie_sizes: Vec<f64> = pooled.chunk_by(|x, y| x == y).map(|g| g.len() as f64).collect();
    let ties = tie_sizes.iter().any(|&t| t > 1.0);
    if n1 == 0 || n2 == 0 {
        return MannWhitney { u, p: None, exact: false };
    }
    if !ties && n1 < EXACT_BELOW && n2 < EXACT_BELOW {
        return MannWhitney { u, p: Some(exact_p(n1, n2, u as usize)), exact: true };
    }
    let n = (n1 + n2) as f64;
    let tie_term: f64 = tie_sizes.iter().map(|t| t.powi(3) - t).sum::<f64>() / (n * (n - 1.0));
    let sigma = ((n1 * n2) as f64 / 12.0 * ((n + 1.0) - tie_term)).sqrt();
    if sigma == 0.0 {
        return MannWhitney { u, p: None, exact: false };
    }
    let z = u - (n1 * n2) as f64 / 2.0;
    let z = (z - 0.5 * z.signum()) / sigma;
    let phi = Normal::standard().cdf(z);
    MannWhitney { u, p: Some((2.0 * phi.min(1.0 - phi)).min(1.0)), exact: false }
}

/// Two-sided exact p of U = `u` for samples of `n1` and `n2` without ties.
fn exact_p(n1: usize, n2: usize, u: usize) -> f64 {
    let counts = u_counts(n1, n2);
    let total: f64 = counts.iter().sum();
    let at_most: f64 = counts[..=u].iter().sum();
    let at_least: f64 = counts[u..].iter().sum();
    (2.0 * at_most.min(at_least) / total).min(1.0)
}

/// How many orderings of n1 + n2 distinct values give each U = 0..=n1*n2, by the recurrence
/// c(m, n, u) = c(m - 1, n, u - n) + c(m, n - 1, u): the largest value is either in the first
/// sample (beating all n of the second) or in the second.
fn u_counts(n1: usize, n2: usize) -> Vec<f64> {
    // table[n] = counts for (m, n) with the current m; m = 0 has the single ordering U = 0.
    let mut table: Vec<Vec<f64>> = (0..=n2).map(|_| vec![1.0]).collect();
    for _m in 1..=n1 {
        let mut next: Vec<Vec<f64>> = Vec::with_capacity(n2 + 1);
        next.push(vec![1.0]);
        for n in 1..=n2 {
            let from_first = &table[n];
            let from_second = &next[n - 1];
            let len = (from_first.len() + n).max(from_second.len());
            let mut row = vec![0.0; len];
            for (u, c) in from_first.iter().enumerate() {
                row[u + n] += c;
            }
            for (u, c) in from_second.iter().enumerate() {
                row[u] += c;
            }
            next.push(row);
        }
        table = next;
    }
    table.swap_remove(n2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::tests::{SLEEP_1, SLEEP_2, close};

    #[test]
    fn sleep_data_matches_r_with_ties() {
        // R: wilcox.test(extra ~ group, data = sleep) gives W = 25.5, p-value = 0.06933 (normal
        // approximation: the data have ties). Python stdlib re-derivation in the same way
        // (mid-ranks, tie and continuity corrections, statistics.NormalDist): 0.0693276.
        let mw = mann_whitney(&SLEEP_1, &SLEEP_2);
        assert_eq!((mw.u, mw.exact), (25.5, false));
        assert!(close(mw.p.unwrap(), 0.069_327_6, 1e-6), "p {:?}", mw.p);
    }

    #[test]
    fn small_samples_without_ties_are_exact() {
        // R's ?wilcox.test example (Hollander & Wolfe permeability): W = 35, one-sided
        // p-value = 0.1272, so two-sided 0.2544; Python enumerating all C(15, 5) splits of the
        // ranks gives 0.2544122544.
        let x = [0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
        let y = [1.15, 0.88, 0.90, 0.74, 1.21];
        let mw = mann_whitney(&x, &y);
        assert_eq!((mw.u, mw.exact), (35.0, true));
        assert!(close(mw.p.unwrap(), 0.254_412_254_4, 1e-9), "p {:?}", mw.p);
        // Complete separation of 4 and 4: 2 of the C(8, 4) = 70 orderings, p = 2/70.
        let mw = mann_whitney(&[101.0, 104.0, 99.0, 102.0], &[110.0, 108.0, 111.0, 107.0]);
        assert_eq!(mw.u, 0.0);
        assert!(close(mw.p.unwrap(), 2.0 / 70.0, 1e-12));
    }

    #[test]
    fn identical_values_have_no_p() {
        assert_eq!(mann_whitney(&[5.0; 10], &[5.0; 10]).p, None);
    }

    #[test]
    fn exact_counts_cover_every_ordering() {
        // C(n1 + n2, n1) orderings in all, symmetric around n1 * n2 / 2.
        let c = u_counts(3, 5);
        assert_eq!(c.len(), 16);
        assert_eq!(c.iter().sum::<f64>(), 56.0);
        assert!(c.iter().zip(c.iter().rev()).all(|(a, b)| a == b));
    }
}
