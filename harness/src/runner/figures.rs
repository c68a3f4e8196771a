//! How figures read in every report, budget and table: one place for thousands separators,
//! p-values, changes and confidence intervals.

use crate::stats::Comparison;
use crate::stats::paired::PairedComparison;

/// A figure with thousands separators and no decimals (the JSON keeps full precision).
pub fn thousands(x: f64) -> String {
    let digits = format!("{:.0}", x);
    let (sign, digits) = digits.strip_prefix('-').map_or(("", digits.as_str()), |d| ("-", d));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

/// A p-value in a table cell, `-` when there is none.
pub fn p_value(p: Option<f64>) -> String {
    p.map_or("-".into(), |p| format!("{p:.4}"))
}

/// An interval of a ratio, `0.980x .. 1.030x`.
pub fn interval((lo, hi): (f64, f64)) -> String {
    format!("{lo:.3}x .. {hi:.3}x")
}

/// The bootstrap 95% interval of the ratio, `0.980x .. 1.030x`.
pub fn ratio_ci(c: &Comparison) -> Option<String> {
    c.ratio_ci95.map(interval)
}

/// The change of a comparison, `+4.2% (1.04x)`.
pub fn change(c: &Comparison) -> String {
    format!("{:+.1}% ({:.2}x)", c.change_pct, c.ratio)
}

/// A paired comparison's change and its 95% interval, `+1.9% (1.006x .. 1.031x)`.
pub fn paired_change(p: &PairedComparison) -> String {
    let ci = p.ratio_ci95.map_or("-".into(), interval);
    format!("{:+.1}% ({ci})", p.change_pct)
}

/// A value with a fixed number of decimals, `-` when there is none.
pub fn fixed(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".into(), |v| format!("{v:.digits$}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(1_234_567.4), "1,234,567");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(-1000.0), "-1,000");
    }

    #[test]
    fn comparisons_read_alike_everywhere() {
        let c = crate::stats::compare(&[100.0, 101.0, 99.0], &[110.0, 111.0, 109.0], None, false);
        assert_eq!(change(&c), "+10.0% (1.10x)");
        assert!(ratio_ci(&c).is_some_and(|ci| ci.ends_with('x') && ci.contains(" .. ")));
        let p = crate::stats::paired::compare_paired(&[0.040, 0.042, 0.038], None, false);
        assert!(
            paired_change(&p).starts_with("+4.1% (1.0") && paired_change(&p).ends_with("x)"),
            "{}",
            paired_change(&p)
        );
        assert_eq!((p_value(None), fixed(Some(2.0), 1), fixed(None, 1)), ("-".into(), "2.0".into(), "-".into()));
    }
}
