//! The split model: from what a group of launches measured (`Measured`, which a report's Budget
//! lines keep), how the same time is best split between launches (processes, or lock-step sets)
//! and their length (Kalibera and Jones: repeat at the level where the variance lives).
//!
//! A launch costs a fixed part (start-up, connecting, warm-up, exit) and a part per timed message;
//! its estimate of a comparison varies between launches (`between`, what only more launches
//! narrow) and within one, through its blocks (`within`, what longer launches narrow: the
//! blocks' standard error goes as one over the root of their number). For timed messages m per
//! launch and n launches in a budget T, the CI half-width goes as `t(n - 1)` (Student's quantile,
//! what few launches pay) times the root of `(between^2 + within^2 m0 / m) / n`, with
//! `n = T / (fixed + per_message m)`. Without the quantile it is least at
//! `m* = sqrt(within^2 m0 fixed / (between^2 per_message))`; the quantile, steep below about ten
//! launches, moves the best split to more and shorter ones, so every whole number of rounds the
//! budget holds is tried.
//!
//! `between` is planned on at its upper confidence limit, not its estimate: it is a difference
//! of two variances read from a few launches, often 0 where the blocks' spread is the larger, and
//! a split planned on 0 takes the fewest, longest launches, which then differ more than that
//! (the rows whose ten launches read 0 in pr4076 did, at the splits advised from it).
//! Too high a `between` costs start-ups, too low one costs launches, and the second costs more
//! where few remain: the limit plans against it, as a sample size is planned from a pilot's.

use serde::{Deserialize, Serialize};

use crate::stats::paired::CLIP_MIN_BLOCKS;
use crate::stats::{t_critical, variance_upper_limit};

/// Fewest launches a recommendation leaves a comparison: its t-test needs several.
pub const MIN_LAUNCHES: usize = 5;
/// The one-sided confidence level of the `between` that advice plans on.
const PLANNED_LEVEL: f64 = 0.8;

/// What one group of comparisons' own rounds measured (an SDK row's lock-step sets or paired
/// processes, or the set of your own rows), read from the group's comparison whose interval is
/// widest (the one PRECISION waits on): the model's inputs, which a report keeps so that a later
/// run's SPLIT advises from them by the model of its own day.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// The comparison it is read from, `after` against `before`.
    pub comparison: String,
    /// Per round (every launch of the group once): seconds that do not depend on MESSAGES,
    /// measured as each launch's wall time less its timed window.
    pub fixed_s_per_round: f64,
    /// Per round: seconds per timed message of each arm.
    pub ns_per_message_per_round: f64,
    /// The spread of the per-launch log ratios that launches add, and that their blocks add, in %.
    pub between_pct: f64,
    pub within_pct: f64,
    /// The time the split is made for: what the group's timed rounds took (under BUDGET, its
    /// share of it).
    pub budget_s: f64,
    /// Today's: MESSAGES, rounds and the comparison's 95% CI half-width.
    pub messages: u64,
    /// WARMUP, kept as it was: part of a launch's fixed cost, and what its runtime needs to warm
    /// up (a shorter MESSAGES would otherwise shrink a default WARMUP with it).
    pub warmup: u64,
    pub rounds: usize,
    pub half_width_pct: f64,
}

/// The recommendation for one group's launches: what they measured, and the split of the same
/// time that would narrow the widest interval most.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Allocation {
    #[serde(flatten)]
    pub measured: Measured,
    /// What launches add between them as the advice plans on it, in %: the upper limit of
    /// `between_pct` at PLANNED_LEVEL.
    pub planned_between_pct: f64,
    /// At today's MESSAGES, the rounds the budget holds and the half-width they would give.
    pub rounds_at_messages: usize,
    pub half_width_at_messages_pct: f64,
    /// The best split of the same budget: MESSAGES (warm-up included, whole batches), rounds and
    /// the half-width it projects.
    pub best_messages: u64,
    pub best_rounds: usize,
    pub best_half_width_pct: f64,
}

impl Measured {
    /// Timed messages per launch (at least one).
    fn timed(&self) -> f64 {
        self.messages.saturating_sub(self.warmup).max(1) as f64
    }

    /// The model, with what launches add between them at `between_pct`.
    fn split(&self, between_pct: f64) -> Split {
        Split {
            fixed_s: self.fixed_s_per_round,
            per_message_s: self.ns_per_message_per_round / 1e9,
            between_sq: (between_pct / 100.0).powi(2),
            within_sq_m0: (self.within_pct / 100.0).powi(2) * self.timed(),
            budget_s: self.budget_s,
        }
    }

    /// The variance of one launch's log ratio at `messages` a launch (warm-up included, the same
    /// warm-up), as this measurement predicts it: what launches add between them, taken as the
    /// same at any length, and their blocks' share, which falls as one over the timed messages.
    pub fn launch_variance(&self, messages: u64) -> f64 {
        self.split(self.between_pct).variance(messages.saturating_sub(self.warmup).max(1) as f64)
    }

    /// What launches add between them that the advice plans on, in %: the PLANNED_LEVEL upper
    /// confidence limit of the launches' variance (over `rounds - 1` degrees of freedom) less
    /// what their blocks add. Where the estimate was clipped to 0, the launches' variance is
    /// taken as the blocks' alone, at least what the launches showed.
    fn planned_between_pct(&self) -> f64 {
        let (between, within) = (self.between_pct / 100.0, self.within_pct / 100.0);
        let launches = between.powi(2) + within.powi(2);
        variance_upper_limit(launches, self.rounds.saturating_sub(1) as f64, PLANNED_LEVEL)
            .map_or(self.between_pct, |upper| 100.0 * (upper - within.powi(2)).max(0.0).sqrt())
    }

    /// The split of the same time, in launches of whole `batch`es, that narrows the interval
    /// most; today's where the time is too short for the model to leave its launches (a quick
    /// run) and it would project wider. A measurement without timed messages is not advised on.
    pub fn advise(self, batch: u32) -> Allocation {
        let warmup = self.warmup;
        let m0 = self.timed();
        let planned_between_pct = self.planned_between_pct();
        let split = self.split(planned_between_pct);
        // The half-width at m timed messages in n rounds, scaled from today's.
        let project = |m: f64, n: usize| self.half_width_pct * split.width(m, n) / split.width(m0, self.rounds);
        // No launch shorter than its estimate's clip needs to act: shorter ones differ between
        // them far more than the long ones they are advised from predict, since a stall a long
        // launch clips counts in full (pr4076-split's small-message rows, once recorded at 79 to
        // 131 blocks under a floor of 20).
        let min_m = (u64::from(batch) * CLIP_MIN_BLOCKS) as f64;
        let best_m = split.best(min_m, f64::from(batch));
        let at = |messages: u64| {
            let m = (messages - warmup) as f64;
            let n = split.rounds(m);
            (messages, n, project(m, n))
        };
        let now = at(self.messages);
        let (best_messages, best_rounds, best_half_width_pct) =
            [at(best_m as u64 + warmup), now].into_iter().min_by(|a, b| a.2.total_cmp(&b.2)).expect("two candidates");
        Allocation {
            measured: self,
            planned_between_pct,
            rounds_at_messages: now.1,
            half_width_at_messages_pct: now.2,
            best_messages,
            best_rounds,
            best_half_width_pct,
        }
    }
}

impl std::fmt::Display for Allocation {
    /// One sentence for the report: where the spread lives, what a round costs, and the split
    /// of the same time that would narrow the widest interval most.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let m = &self.measured;
        write!(
            f,
            "{}: launches add {:.2}% of spread (planned on as {:.2}%, its {:.0}% upper limit from {} rounds) and their blocks {:.2}%; a round costs {:.1} s to start and warm up plus {:.0} ns per message. \
             In the time these rounds took ({:.0} s): MESSAGES={} in {} rounds gives a 95% CI half-width of about {:.2}% (today {:.2}% after {} rounds); \
             MESSAGES={} WARMUP={} in {} rounds would give about {:.2}%",
            m.comparison,
            m.between_pct,
            self.planned_between_pct,
            100.0 * PLANNED_LEVEL,
            m.rounds,
            m.within_pct,
            m.fixed_s_per_round,
            m.ns_per_message_per_round,
            m.budget_s,
            m.messages,
            self.rounds_at_messages,
            self.half_width_at_messages_pct,
            m.half_width_pct,
            m.rounds,
            self.best_messages,
            m.warmup,
            self.best_rounds,
            self.best_half_width_pct,
        )
    }
}

/// The model of the module docs, per round.
struct Split {
    fixed_s: f64,
    per_message_s: f64,
    between_sq: f64,
    /// within^2 at m0 timed messages, times m0.
    within_sq_m0: f64,
    budget_s: f64,
}

impl Split {
    /// A launch's variance at m timed messages.
    fn variance(&self, m: f64) -> f64 {
        self.between_sq + self.within_sq_m0 / m
    }

    /// Whole rounds of m timed messages in the budget (a hair over, for the rounding of a
    /// budget that is the rounds' own time).
    fn rounds(&self, m: f64) -> usize {
        (self.budget_s / (self.fixed_s + self.per_message_s * m) + 1e-9).floor() as usize
    }

    /// The half-width at m timed messages in n rounds, up to a factor that does not depend on
    /// the split: the t quantile times the standard error. Unbounded below two rounds.
    fn width(&self, m: f64, n: usize) -> f64 {
        if n < 2 {
            return f64::INFINITY;
        }
        t_critical((n - 1) as f64) * (self.variance(m) / n as f64).sqrt()
    }

    /// The m (whole batches, at least `min_m`) whose rounds give the narrowest `width`: each
    /// whole number of rounds from MIN_LAUNCHES to as many as the budget holds at `min_m`, at
    /// the longest launches it leaves, rounded down so that they still fit.
    fn best(&self, min_m: f64, batch: f64) -> f64 {
        let most = self.rounds(min_m).max(MIN_LAUNCHES);
        let longest = |n: usize| {
            let m = (self.budget_s / n as f64 - self.fixed_s) / self.per_message_s;
            ((m / batch).floor() * batch).max(min_m)
        };
        let narrowest =
            (MIN_LAUNCHES..=most).min_by(|&a, &b| self.width(longest(a), a).total_cmp(&self.width(longest(b), b)));
        longest(narrowest.expect("MIN_LAUNCHES..=most is not empty"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(between: f64, within: f64) -> Split {
        Split {
            fixed_s: 1.0,
            per_message_s: 1e-6,
            between_sq: between * between,
            within_sq_m0: within * within * 1e6,
            budget_s: 100.0,
        }
    }

    #[test]
    fn the_best_length_balances_start_up_against_the_spread_between_launches() {
        // 1 s to start, 1 us a message; between 1%, within 1% at 1M messages. Without the t
        // quantile, m* = sqrt(1e6 * 1 / 1e-6) = 1M, where the fixed and the timed parts cost the
        // same, and 100 s hold 50 such rounds. Over a budget so long that t is flat, that is the
        // split.
        let long = Split { budget_s: 1e5, ..split(0.01, 0.01) };
        assert!((long.best(1.0, 1.0) / 1e6 - 1.0).abs() < 0.01, "{}", long.best(1.0, 1.0));
        // Over 100 s, t(49) still falls with more rounds: a little shorter, never longer.
        let s = split(0.01, 0.01);
        let m = s.best(1.0, 1.0);
        assert!((0.85e6..1e6).contains(&m), "{m}");
        // Twice the spread between launches: about half the length.
        let m = split(0.02, 0.01).best(1.0, 1.0);
        assert!((0.4e6..0.5e6).contains(&m), "{m}");
    }

    #[test]
    fn the_best_split_s_rounds_still_fit_its_budget_in_whole_batches() {
        // A paired Rust row's Budget line: 10.8 s held ten rounds of 0.73 s plus 900k messages
        // at 390 ns. Eleven rounds of 650.7k messages project narrower and fill the budget to
        // the message; rounded to the nearest batch (651k) they held only ten, which projected
        // wider than today's, so the line used to advise today's split.
        let s = Split {
            fixed_s: 0.73,
            per_message_s: 390e-9,
            between_sq: 0.0167f64.powi(2),
            within_sq_m0: 0.0083f64.powi(2) * 9e5,
            budget_s: 10.8215,
        };
        let m = s.best(20_000.0, 1000.0);
        assert_eq!((m, s.rounds(m)), (650_000.0, 11));
        assert!(s.width(m, 11) < s.width(9e5, 10));
    }

    /// A Java-like row's measurement: slow to start, its blocks spread more than its launches.
    fn measured(between_pct: f64, rounds: usize) -> Measured {
        Measured {
            comparison: "java fast against uuid".into(),
            fixed_s_per_round: 4.6,
            ns_per_message_per_round: 1283.0,
            between_pct,
            within_pct: 3.28,
            budget_s: 10.0 * (4.6 + 1283e-9 * 9e5),
            messages: 1_000_000,
            warmup: 100_000,
            rounds,
            half_width_pct: 1.94,
        }
    }

    #[test]
    fn advice_plans_on_the_upper_limit_of_what_launches_add() {
        // Ten launches whose spread is all their blocks' read 0 between them, which the advice
        // does not take at its word: planned on the 80% upper limit of the launches' variance
        // (9 / 5.380 of it) less the blocks', 3.28% x sqrt(9 / 5.380 - 1) = 2.69%.
        let few = measured(0.0, 10);
        assert!((few.planned_between_pct() - 3.28 * (9.0f64 / 5.380 - 1.0).sqrt()).abs() < 0.01);
        // Above the estimate, and nearer it from more launches.
        let (ten, many) = (measured(1.0, 10).planned_between_pct(), measured(1.0, 200).planned_between_pct());
        assert!(1.0 < many && many < ten, "{many} from 200 rounds, {ten} from 10");
        // Planned on 0, the split would be the fewest, longest launches the budget allows;
        // planned on the limit, more and shorter ones.
        let on_zero = few.split(0.0);
        let longest = on_zero.best(20_000.0, 1000.0);
        let (longest_rounds, longest_messages) = (on_zero.rounds(longest), longest as u64 + few.warmup);
        let a = few.advise(1000);
        assert!(a.best_messages < longest_messages && a.best_rounds > longest_rounds, "{a:?}");
        // The report's line says both.
        assert!(
            a.to_string()
                .contains("launches add 0.00% of spread (planned on as 2.69%, its 80% upper limit from 10 rounds)"),
            "{a}"
        );
    }

    #[test]
    fn few_long_launches_pay_the_t_quantile() {
        // No spread between launches: without t, the longest launches that leave MIN_LAUNCHES
        // rounds would win (five of 19 s of messages). With it, t(4) = 2.78 against t(15) = 2.13
        // buys far more than the extra start-ups cost.
        let s = split(0.0, 0.01);
        let m = s.best(1.0, 1.0);
        let n = s.rounds(m);
        assert!((12..=20).contains(&n), "{n} rounds of {m}");
        assert!(s.width(m, n) < 0.85 * s.width(19e6, 5), "{} against {}", s.width(m, n), s.width(19e6, 5));
        // One round gives no interval at all.
        assert_eq!(s.width(m, 1), f64::INFINITY);
        // And never shorter than the blocks an estimate needs.
        let tight = Split { budget_s: 1.0, ..split(0.0, 0.01) };
        assert_eq!(tight.best(20_000.0, 1000.0), 20_000.0);
    }
}
