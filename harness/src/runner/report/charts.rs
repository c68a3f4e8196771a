//! The HTML report's charts as inline SVG. The headline answers the question a report is read
//! for: one row per comparison, the ratio of after to before with its 95% interval on a log axis
//! with 1.0 marked, coloured by verdict. Absolute throughput is drawn per SDK on its own axis,
//! since msgs/s of different languages are not comparable, and every timed run as a dot. All the
//! charts share one geometry, so they line up on the page.

use std::fmt::Write as _;

use crate::runner::figures::thousands;

/// One comparison in the headline chart.
pub struct RatioRow {
    pub label: String,
    pub ratio: f64,
    pub ci95: Option<(f64, f64)>,
    /// A CSS class: faster, slower, tie, withheld or undecided.
    pub class: &'static str,
    /// The tooltip: the verdict in words.
    pub title: String,
}

/// One arm in an SDK's own absolute chart: its central figure and spread.
pub struct LevelRow {
    pub label: String,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub class: &'static str,
}

/// One arm in the dot plot: every timed run's figure, with its place in the run order.
pub struct DotRow {
    pub label: String,
    pub samples: Vec<(usize, f64)>,
}

const LABEL_W: f64 = 300.0;
const PLOT_W: f64 = 480.0;
const RIGHT_PAD: f64 = 48.0;
const ROW_H: f64 = 26.0;

pub const STYLE: &str = "svg text{font:12px system-ui,sans-serif;fill:#222}svg .axis{stroke:#999}svg .one{stroke:#222;stroke-dasharray:4 3}\
svg .grid{stroke:#e4e4e4}.faster{fill:#2a7d2a;stroke:#2a7d2a}.slower{fill:#b8322a;stroke:#b8322a}.tie{fill:#777;stroke:#777}\
.withheld,.undecided{fill:#c9a227;stroke:#c9a227}.bar{fill:#6b8fc7}.bar.base{fill:#a9a9a9}.bar.control{fill:#d7c9a7}\
.range{stroke:#222;stroke-width:1.5}.sample{fill:#335;fill-opacity:.7}";

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The headline: ratios on a log axis spanning every interval and 1.0.
pub fn ratio_chart(rows: &[RatioRow]) -> String {
    let extent = rows
        .iter()
        .flat_map(|r| [Some(r.ratio), r.ci95.map(|c| c.0), r.ci95.map(|c| c.1)])
        .flatten()
        .filter(|v| v.is_finite() && *v > 0.0);
    let (lo, hi) = extent.fold((1.0f64, 1.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    // Pad in log space so the outermost whisker is not on the frame; at least +-1% around 1.0.
    let (llo, lhi) = (lo.ln().min(-0.01), hi.ln().max(0.01));
    let pad = (lhi - llo) * 0.06;
    let (llo, lhi) = (llo - pad, lhi + pad);
    let x = |v: f64| LABEL_W + (v.ln() - llo) / (lhi - llo) * PLOT_W;
    let (mut out, height) = svg_open("ratio-chart", rows.len());
    for t in log_ticks(llo.exp(), lhi.exp()) {
        let _ = write!(out, "<line class=\"grid\" x1=\"{0:.1}\" y1=\"0\" x2=\"{0:.1}\" y2=\"{height:.1}\"/>", x(t));
    }
    let _ = write!(out, "<line class=\"one\" x1=\"{0:.1}\" y1=\"0\" x2=\"{0:.1}\" y2=\"{height:.1}\"/>", x(1.0));
    for (i, r) in rows.iter().enumerate() {
        let mid = row_label(&mut out, i, &r.label) + ROW_H / 2.0;
        if !(r.ratio.is_finite() && r.ratio > 0.0) {
            continue;
        }
        let _ = write!(
            out,
            "<g class=\"ratio {}\" data-ratio=\"{:.6}\"><title>{}</title>",
            r.class,
            r.ratio,
            esc(&r.title)
        );
        if let Some((a, b)) = r.ci95 {
            let _ = write!(
                out,
                "<path class=\"{}\" stroke-width=\"2\" d=\"M{:.1} {mid:.1}H{:.1}M{:.1} {:.1}V{:.1}M{:.1} {:.1}V{:.1}\"/>",
                r.class,
                x(a),
                x(b),
                x(a),
                mid - 5.0,
                mid + 5.0,
                x(b),
                mid - 5.0,
                mid + 5.0
            );
        }
        let _ = write!(out, "<circle cx=\"{:.1}\" cy=\"{mid:.1}\" r=\"4.5\"/></g>", x(r.ratio));
    }
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{LABEL_W}\" y1=\"{height}\" x2=\"{}\" y2=\"{height}\"/>",
        LABEL_W + PLOT_W
    );
    for t in log_ticks(llo.exp(), lhi.exp()) {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}x</text>",
            x(t),
            height + 16.0,
            ratio_tick(t)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// One SDK's arms on their own linear axis from 0: median bars with min..max whiskers.
pub fn level_chart(rows: &[LevelRow], unit: &str) -> String {
    let hi = rows.iter().map(|r| r.max).filter(|v| v.is_finite()).fold(0.0, f64::max);
    let hi = if hi > 0.0 { hi * 1.05 } else { 1.0 };
    let x = |v: f64| LABEL_W + v.max(0.0) / hi * PLOT_W;
    let (mut out, height) = svg_open("level-chart", rows.len());
    for (i, r) in rows.iter().enumerate() {
        let y = row_label(&mut out, i, &r.label);
        let mid = y + ROW_H / 2.0 - 1.0;
        let _ = write!(
            out,
            "<rect class=\"{}\" x=\"{LABEL_W}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"><title>{}: median {} {unit} (min {}, max {})</title></rect>",
            r.class,
            y + 3.0,
            x(r.median) - LABEL_W,
            ROW_H - 8.0,
            esc(&r.label),
            compact(r.median),
            compact(r.min),
            compact(r.max)
        );
        let (a, b) = (x(r.min), x(r.max));
        let _ = write!(
            out,
            "<path class=\"range\" d=\"M{a:.1} {mid:.1}H{b:.1}M{a:.1} {:.1}V{:.1}M{b:.1} {:.1}V{:.1}\"/>",
            mid - 5.0,
            mid + 5.0,
            mid - 5.0,
            mid + 5.0
        );
    }
    linear_axis(&mut out, height, 0.0, hi);
    out.push_str("</svg>\n");
    out
}

/// Every timed run as a dot, all arms on one linear axis around the samples (never below 0:
/// throughput is not negative).
pub fn dot_chart(rows: &[DotRow]) -> String {
    let all: Vec<f64> = rows.iter().flat_map(|r| r.samples.iter().map(|s| s.1)).collect();
    let (min, max) = all.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    // Padded by 5% of the spread.
    let pad = (max - min).max(max * 0.01) * 0.05;
    let (lo, hi) = if all.is_empty() { (0.0, 1.0) } else { ((min - pad).max(0.0), max + pad) };
    let x = |v: f64| LABEL_W + (v - lo) / (hi - lo) * PLOT_W;
    let (mut out, height) = svg_open("dot-plot", rows.len());
    for (i, r) in rows.iter().enumerate() {
        let y = row_label(&mut out, i, &r.label);
        for (k, (order, sample)) in r.samples.iter().enumerate() {
            // Alternate rows of dots so that equal values stay visible.
            let cy = y + ROW_H / 2.0 + if k % 2 == 0 { -3.0 } else { 3.0 };
            let _ = write!(
                out,
                "<circle class=\"sample\" data-arm=\"{}\" cx=\"{:.1}\" cy=\"{cy:.1}\" r=\"3.5\"><title>run {order}: {}</title></circle>",
                esc(&r.label),
                x(*sample),
                thousands(*sample)
            );
        }
    }
    linear_axis(&mut out, height, lo, hi);
    out.push_str("</svg>\n");
    out
}

/// Opens a chart of one row per item; returns it with the height of its plot, where the axis goes.
fn svg_open(class: &str, rows: usize) -> (String, f64) {
    let height = ROW_H * rows as f64 + 8.0;
    let svg = format!(
        "<svg class=\"{class}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" role=\"img\">",
        LABEL_W + PLOT_W + RIGHT_PAD,
        height + 24.0
    );
    (svg, height)
}

/// Writes row `i`'s label left of the plot; returns the row's top.
fn row_label(out: &mut String, i: usize, label: &str) -> f64 {
    let y = 4.0 + ROW_H * i as f64;
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
        LABEL_W - 8.0,
        y + ROW_H / 2.0 + 4.0,
        esc(label)
    );
    y
}

/// A linear axis from lo to hi under the plot, with five labels.
fn linear_axis(out: &mut String, height: f64, lo: f64, hi: f64) {
    let x = |v: f64| LABEL_W + (v - lo) / (hi - lo) * PLOT_W;
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{LABEL_W}\" y1=\"{height}\" x2=\"{}\" y2=\"{height}\"/>",
        LABEL_W + PLOT_W
    );
    for i in 0..=4 {
        let v = lo + (hi - lo) * f64::from(i) / 4.0;
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            x(v),
            height + 16.0,
            compact(v)
        );
    }
}

/// Ticks for a log axis between lo and hi, from a set that suits the span.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let set: &[f64] = match hi / lo {
        span if span >= 4.0 => &[0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0],
        span if span >= 1.2 => &[0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 2.0, 3.0],
        _ => &[0.9, 0.95, 0.97, 0.98, 0.99, 1.0, 1.01, 1.02, 1.03, 1.05, 1.1],
    };
    set.iter().copied().filter(|t| *t >= lo && *t <= hi).collect()
}

fn ratio_tick(t: f64) -> String {
    if (t - t.round()).abs() < 1e-9 {
        format!("{t:.0}")
    } else if (t * 10.0 - (t * 10.0).round()).abs() < 1e-9 {
        format!("{t:.1}")
    } else {
        format!("{t:.2}")
    }
}

/// An axis figure in three significant digits: 12.3M, 456k; negatives keep their sign.
pub fn compact(v: f64) -> String {
    let a = v.abs();
    let (scaled, suffix) = if a >= 1e6 {
        (a / 1e6, "M")
    } else if a >= 1e3 {
        (a / 1e3, "k")
    } else {
        (a, "")
    };
    let digits = if scaled >= 100.0 {
        0
    } else if scaled >= 10.0 {
        1
    } else {
        2
    };
    format!("{}{scaled:.digits$}{suffix}", if v < 0.0 { "-" } else { "" })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(label: &str, ratio: f64, ci: (f64, f64), class: &'static str) -> RatioRow {
        RatioRow { label: label.into(), ratio, ci95: Some(ci), class, title: class.into() }
    }

    #[test]
    fn figures_are_compact_and_keep_their_sign() {
        assert_eq!(
            [compact(15_483_600.0), compact(456_789.0), compact(1_234.0), compact(0.0)],
            ["15.5M", "457k", "1.23k", "0.00"]
        );
        assert_eq!(compact(-204_549.72), "-205k");
    }

    #[test]
    fn ratio_axis_is_logarithmic_and_marks_one() {
        let svg =
            ratio_chart(&[row("node fast / uuid", 4.0, (3.5, 4.6), "faster"), row("A/A", 1.0, (0.99, 1.01), "tie")]);
        assert!(svg.contains("class=\"one\""));
        assert!(svg.contains(">1x<") && svg.contains(">2x<"), "{svg}");
        // On a log axis 2x sits halfway between 1x and 4x.
        let x_of = |tick: &str| {
            let at = svg.find(&format!(">{tick}<")).unwrap();
            let text = &svg[..at];
            let x = text.rfind("x=\"").unwrap();
            text[x + 3..].split('"').next().unwrap().parse::<f64>().unwrap()
        };
        let (one, two, five) = (x_of("1x"), x_of("2x"), x_of("5x"));
        assert!(((two - one) / (five - one) - 2f64.ln() / 5f64.ln()).abs() < 1e-3);
        assert!(svg.contains("class=\"ratio faster\"") && svg.contains("class=\"ratio tie\""));
    }

    #[test]
    fn level_chart_starts_at_zero_and_has_no_negative_labels() {
        let svg = level_chart(
            &[LevelRow { label: "go uuid".into(), median: 2.0e5, min: 1.9e5, max: 2.1e5, class: "bar base" }],
            "msgs/s",
        );
        assert!(svg.contains(">0.00<") && !svg.contains(">-"), "{svg}");
    }

    #[test]
    fn dots_share_one_axis_that_stays_at_or_above_zero() {
        let rows = [
            DotRow { label: "go uuid".into(), samples: vec![(1, 10.0), (3, 30.0)] },
            DotRow { label: "go fast".into(), samples: vec![(2, 20.0)] },
        ];
        let svg = dot_chart(&rows);
        let cx: Vec<f64> = svg.split("cx=\"").skip(1).map(|s| s.split('"').next().unwrap().parse().unwrap()).collect();
        assert_eq!(cx.len(), 3, "{svg}");
        assert!(cx[0] < cx[2] && cx[2] < cx[1], "one axis for every row, in the samples' order: {cx:?}");
        assert!(svg.contains("<title>run 3: 30</title>") && !svg.contains("text-anchor=\"middle\">-"), "{svg}");
        assert!(dot_chart(&[]).contains("</svg>"), "no runs: an empty chart, not a division by zero");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }
}
