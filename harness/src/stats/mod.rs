//! Summaries of repeated runs and the comparisons between arms.

mod bootstrap;
mod mann_whitney;
pub mod paired;
mod power;

use serde::Serialize;
use statrs::distribution::{ChiSquared, ContinuousCDF, FisherSnedecor, StudentsT};

pub use mann_whitney::{MannWhitney, mann_whitney};
pub use power::{runs_for, runs_needed};

/// Central figures and spread of one arm's samples.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub n: usize,
    pub mean: f64,
    /// Sample standard deviation (n - 1).
    pub stddev: f64,
    pub stddev_pct: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Summary {
    /// None for an empty sample.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        let n = samples.len();
        if n == 0 {
            return None;
        }
        let mean = samples.iter().sum::<f64>() / n as f64;
        let var = if n > 1 { samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64 } else { 0.0 };
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let stddev = var.sqrt();
        Some(Summary {
            n,
            mean,
            stddev,
            stddev_pct: 100.0 * stddev / mean,
            median: median_of_sorted(&sorted),
            min: sorted[0],
            max: sorted[n - 1],
        })
    }
}

/// The median of values sorted in ascending order (NaN for none).
pub fn median_of_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => sorted[n / 2],
        _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Pearson's correlation of the pairs (xs[i], ys[i]); None with fewer than 3 pairs or where
/// either side does not vary.
pub fn correlation(xs: &[f64], ys: &[f64]) -> Option<f64> {
    use statrs::statistics::Statistics;
    if xs.len() != ys.len() || xs.len() < 3 {
        return None;
    }
    let r = xs.covariance(ys) / (xs.std_dev() * ys.std_dev());
    r.is_finite().then_some(r)
}

/// Whether two intervals, (low, high) each, share no point: a verdict's and its median block's
/// that part (runner warnings and the documents' cells judge them alike).
pub fn disjoint((a_lo, a_hi): (f64, f64), (b_lo, b_hi): (f64, f64)) -> bool {
    a_hi < b_lo || b_hi < a_lo
}

/// Welch's unequal-variances t-test of `b` against `a`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Welch {
    pub t: f64,
    pub df: f64,
    /// Two-sided p-value; None when it is undefined (fewer than 2 samples or no variance).
    pub p: Option<f64>,
}

pub fn welch(a: &Summary, b: &Summary) -> Welch {
    let (va, vb) = (a.stddev.powi(2) / a.n as f64, b.stddev.powi(2) / b.n as f64);
    let se2 = va + vb;
    if a.n < 2 || b.n < 2 || se2 == 0.0 {
        return Welch { t: f64::NAN, df: f64::NAN, p: None };
    }
    let t = (b.mean - a.mean) / se2.sqrt();
    let df = se2.powi(2) / (va.powi(2) / (a.n - 1) as f64 + vb.powi(2) / (b.n - 1) as f64);
    let p = StudentsT::new(0.0, 1.0, df).ok().map(|dist| 2.0 * (1.0 - dist.cdf(t.abs())));
    Welch { t, df, p }
}

/// What a comparison says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Faster,
    Slower,
    /// Not significant, or smaller than the control's noise.
    Noise,
    /// The A/A control itself differed: no verdict is trustworthy on this run.
    Withheld,
    /// Too few runs for a test to judge (fewer than MIN_RUNS a side).
    Undecided,
}

impl Verdict {
    /// The rule every comparison follows: significant at ALPHA *and* a change beyond the
    /// control's noise, unless the control itself was unstable.
    /// `n` is the fewest runs on either side.
    pub fn of(n: usize, p: Option<f64>, change_pct: f64, noise_pct: Option<f64>, control_unstable: bool) -> Verdict {
        match p {
            _ if n < MIN_RUNS => Verdict::Undecided,
            _ if control_unstable => Verdict::Withheld,
            None => Verdict::Undecided,
            Some(p) if p < ALPHA && change_pct.abs() > noise_pct.unwrap_or(0.0) => {
                if change_pct > 0.0 {
                    Verdict::Faster
                } else {
                    Verdict::Slower
                }
            }
            Some(_) => Verdict::Noise,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::Noise => "~ (noise)",
            Verdict::Withheld => "withheld (control unstable)",
            Verdict::Undecided => "too few runs",
        }
    }

    /// Faster or slower: a difference the rule accepts.
    pub fn is_significant(self) -> bool {
        matches!(self, Verdict::Faster | Verdict::Slower)
    }

    /// The label with the evidence it stands on: "too few runs (n=2)" says how few.
    pub fn describe(self, n: usize) -> String {
        match self {
            Verdict::Undecided => format!("too few runs (n={n})"),
            v => v.label().into(),
        }
    }
}

pub const ALPHA: f64 = 0.05;

/// Student's t two-sided ALPHA quantile at `df` degrees of freedom (> 0): a 95% interval is the
/// mean plus or minus this many standard errors.
pub fn t_critical(df: f64) -> f64 {
    StudentsT::new(0.0, 1.0, df).expect("df > 0").inverse_cdf(1.0 - ALPHA / 2.0)
}

/// The one-sided p of a sample variance `ratio` times the one it is held against, the first with
/// `df_num` degrees of freedom and the second with `df_den` (the F test): how likely a ratio at
/// least this large is when both estimate one variance. None without degrees of freedom.
pub fn variance_ratio_p(ratio: f64, df_num: f64, df_den: f64) -> Option<f64> {
    FisherSnedecor::new(df_num, df_den).ok().map(|f| 1.0 - f.cdf(ratio))
}

/// The one-sided `level` upper confidence limit of a variance whose sample estimate `variance`
/// has `df` degrees of freedom (chi-squared): the largest true variance such a sample still
/// leaves plausible at that level. None without degrees of freedom.
pub fn variance_upper_limit(variance: f64, df: f64, level: f64) -> Option<f64> {
    ChiSquared::new(df).ok().map(|chi| variance * df / chi.inverse_cdf(1.0 - level))
}

/// Below this many runs a side no verdict is given: with two runs a t-test has one or two
/// degrees of freedom and its p-value says little, whatever it is.
pub const MIN_RUNS: usize = 3;

/// Power at which "runs needed" is given for a tie.
pub const TIE_POWER: f64 = 0.8;

/// `after` against `before`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The fewest samples on either side.
    pub n: usize,
    pub ratio: f64,
    pub change_pct: f64,
    pub welch: Welch,
    /// Shown beside Welch; the verdict rule stays Welch's.
    pub mann_whitney: MannWhitney,
    /// Percentile bootstrap 95% interval of the ratio.
    pub ratio_ci95: Option<(f64, f64)>,
    /// For a `~`: the REPEAT that would detect the observed difference at TIE_POWER.
    pub runs_needed: Option<u32>,
    pub verdict: Verdict,
}

/// Compares the samples `after` with `before` (both non-empty). `noise_pct` is the control's
/// absolute % difference between two identical arms; `control_unstable` withholds the verdict.
pub fn compare(before: &[f64], after: &[f64], noise_pct: Option<f64>, control_unstable: bool) -> Comparison {
    let (b, a) = (Summary::of(before).expect("non-empty samples"), Summary::of(after).expect("non-empty samples"));
    let ratio = a.mean / b.mean;
    let change_pct = 100.0 * (ratio - 1.0);
    let welch = welch(&b, &a);
    let verdict = Verdict::of(b.n.min(a.n), welch.p, change_pct, noise_pct, control_unstable);
    Comparison {
        n: b.n.min(a.n),
        ratio,
        change_pct,
        welch,
        mann_whitney: mann_whitney(before, after),
        ratio_ci95: bootstrap::ratio_ci95(before, after),
        runs_needed: if verdict == Verdict::Noise { runs_needed(&b, &a, TIE_POWER) } else { None },
        verdict,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    // Student's sleep data (R: datasets::sleep), extra hours of sleep under two drugs.
    pub(crate) const SLEEP_1: [f64; 10] = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
    pub(crate) const SLEEP_2: [f64; 10] = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

    pub(crate) fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn variance_ratios_match_the_f_table() {
        // F(9, 9) upper 5% point 3.1789 (the F table), and a ratio of one with equal degrees of
        // freedom is as likely above as below.
        assert!(close(variance_ratio_p(3.1789, 9.0, 9.0).unwrap(), 0.05, 1e-4));
        assert!(close(variance_ratio_p(1.0, 9.0, 9.0).unwrap(), 0.5, 1e-9));
        assert_eq!(variance_ratio_p(2.0, 0.0, 9.0), None);
    }

    #[test]
    fn variance_upper_limits_match_the_chi_squared_table() {
        // chi-squared(9) lower 20% point 5.380 (the table): from ten samples the 80% upper limit
        // of a variance is 9 / 5.380 = 1.673 times its estimate; from a hundred, nearer it.
        assert!(close(variance_upper_limit(1.0, 9.0, 0.8).unwrap(), 9.0 / 5.380, 1e-3));
        assert!(variance_upper_limit(1.0, 99.0, 0.8).unwrap() < 1.2);
        assert_eq!(variance_upper_limit(1.0, 0.0, 0.8), None);
    }

    #[test]
    fn intervals_are_disjoint_only_without_a_shared_point() {
        assert!(disjoint((0.9, 0.95), (0.96, 1.0)) && disjoint((0.96, 1.0), (0.9, 0.95)));
        assert!(!disjoint((0.9, 0.96), (0.96, 1.0)) && !disjoint((0.9, 1.1), (0.95, 1.0)));
    }

    #[test]
    fn summary_matches_published_sleep_figures() {
        let s = Summary::of(&SLEEP_1).unwrap();
        assert!(close(s.mean, 0.75, 1e-12));
        assert!(close(s.stddev, 1.789_010, 1e-6), "sd {}", s.stddev);
        assert!(close(s.median, 0.35, 1e-12));
        assert_eq!((s.min, s.max, s.n), (-1.6, 3.7, 10));
        let s2 = Summary::of(&SLEEP_2).unwrap();
        assert!(close(s2.stddev, 2.002_249, 1e-6), "sd {}", s2.stddev);
    }

    #[test]
    fn correlation_matches_r_cor_on_sleep() {
        // R: cor(sleep$extra[1:10], sleep$extra[11:20]) = 0.7951702
        assert!(close(correlation(&SLEEP_1, &SLEEP_2).unwrap(), 0.795_170_2, 1e-7));
        let reversed: Vec<f64> = SLEEP_2.iter().map(|x| -x).collect();
        assert!(close(correlation(&SLEEP_1, &reversed).unwrap(), -0.795_170_2, 1e-7));
        assert_eq!(correlation(&SLEEP_1, &[1.0; 10]), None, "one side does not vary");
        assert_eq!(correlation(&SLEEP_1[..2], &SLEEP_2[..2]), None, "two pairs");
        assert_eq!(correlation(&SLEEP_1, &SLEEP_2[..9]), None, "unmatched");
    }

    #[test]
    fn welch_matches_r_t_test_on_sleep() {
        // R: t.test(extra ~ group, data = sleep) gives t = -1.8608, df = 17.776, p = 0.07939
        // (group 1 minus group 2; ours is b minus a, so a = group 2 gives the same sign).
        let w = welch(&Summary::of(&SLEEP_2).unwrap(), &Summary::of(&SLEEP_1).unwrap());
        assert!(close(w.t, -1.8608, 1e-4), "t {}", w.t);
        assert!(close(w.df, 17.776, 1e-3), "df {}", w.df);
        assert!(close(w.p.unwrap(), 0.07939, 1e-5), "p {:?}", w.p);
    }

    #[test]
    fn verdicts_need_significance_and_more_than_the_noise() {
        let a = [100.0, 101.0, 99.0, 100.5, 99.5];
        let b = [110.0, 111.0, 109.0, 110.5, 109.5];
        assert_eq!(compare(&a, &b, Some(1.0), false).verdict, Verdict::Faster);
        assert_eq!(compare(&b, &a, Some(1.0), false).verdict, Verdict::Slower);
        assert_eq!(compare(&a, &b, Some(12.0), false).verdict, Verdict::Noise, "inside the control's noise");
        assert_eq!(compare(&a, &b, Some(1.0), true).verdict, Verdict::Withheld);
        let c = [100.4, 101.1, 99.3, 100.6, 99.9];
        let tie = compare(&a, &c, Some(0.0), false);
        assert_eq!(tie.verdict, Verdict::Noise, "not significant");
        assert!(tie.runs_needed.is_some_and(|n| n > 5), "a tie says how many runs would tell");
        assert_eq!(compare(&a, &b, None, false).runs_needed, None, "only ties need more runs");
        let one = [100.0];
        assert_eq!(compare(&one, &one, None, false).verdict, Verdict::Undecided);
        assert!(close(compare(&a, &b, None, false).ratio, 1.1, 1e-12));
    }

    #[test]
    fn empty_samples_have_no_summary() {
        assert_eq!(Summary::of(&[]), None);
    }
}
