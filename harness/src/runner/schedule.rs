//! How a design turns a workload's arms into processes and rounds: which arms make one unit (a
//! process of its own, a paired process, or a lock-step set of processes), and the order the
//! units run in.

use super::records::{Arm, Design};
use super::sdk;
use super::settings::Settings;
use crate::producer::BlockOrder;

/// One unit to run: which (an arm, a paired process of one SDK's arms, or a lock-step set) and
/// in which round (0: the discarded warm-up round).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub unit: usize,
    pub round: usize,
}

/// One warm-up step per unit, then `repeat` rounds, each running every unit once in an order
/// shuffled from `seed` (randomised multiple interleaved trials): drift and periodic noise hit
/// every unit alike, and no unit always follows the same one.
pub fn schedule(units: usize, repeat: usize, seed: u64) -> Vec<Step> {
    let warmups = (0..units).map(|unit| Step { unit, round: 0 });
    let rounds = BlockOrder::new(seed, units)
        .take(repeat)
        .enumerate()
        .flat_map(|(r, order)| order.into_iter().map(move |unit| Step { unit, round: r + 1 }));
    warmups.chain(rounds).collect()
}

/// The units to run for `arms`, in order: each step with the indexes of the arms it runs.
pub fn plan(arms: &[Arm], settings: &Settings) -> Vec<(Step, Vec<usize>)> {
    let units = units(arms, settings.design);
    schedule(units.len(), settings.repeat as usize, settings.seed)
        .into_iter()
        .map(|step| (step, units[step.unit].clone()))
        .collect()
}

/// One more round after the planned ones (PRECISION, BUDGET): every unit once, in an order
/// shuffled from the seed and the round.
pub fn next_round(arms: &[Arm], settings: &Settings, round: usize) -> Vec<(Step, Vec<usize>)> {
    let units = units(arms, settings.design);
    let order = BlockOrder::new(settings.seed ^ (round as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15), units.len())
        .next()
        .expect("block orders never end");
    order.into_iter().map(|unit| (Step { unit, round }, units[unit].clone())).collect()
}

/// What runs as one unit, as arm indexes in the order the unit takes them (its first arm, its
/// A/A twin, then the rest). Processes: every arm alone. Paired: one process per SDK, the
/// control arms alone. Lock-step: a set per SDK row, one set of every row of one's own (their
/// builds are what is compared), and the two control arms as a set of their own.
pub fn units(arms: &[Arm], design: Design) -> Vec<Vec<usize>> {
    let group = |arm: &Arm| -> Option<String> {
        match design {
            Design::Processes => None,
            Design::Paired => arm.control.is_none().then(|| arm.sdk.clone()),
            Design::Lockstep if arm.control.is_some() => Some("control".into()),
            Design::Lockstep if sdk::find(&arm.sdk).is_err() => Some("rows of one's own".into()),
            Design::Lockstep => Some(arm.sdk.clone()),
        }
    };
    let mut units: Vec<(Option<String>, Vec<usize>)> = Vec::new();
    for (i, arm) in arms.iter().enumerate() {
        let key = group(arm);
        match units.iter().position(|(k, _)| key.is_some() && *k == key) {
            Some(g) if arm.twin => units[g].1.insert(1, i),
            Some(g) => units[g].1.push(i),
            None => units.push((key, vec![i])),
        }
    }
    units.into_iter().map(|(_, u)| u).collect()
}

/// Whether `arms` get an A/A twin of their first arm (the SDK's, or the first row of one's own
/// in lock-step, whose builds are compared with that row): designs judged by blocks do.
pub fn wants_twin(design: Design, sdk: &str, first_user_row: Option<&str>) -> bool {
    match design {
        Design::Processes => false,
        Design::Paired => true,
        Design::Lockstep => sdk::find(sdk).is_ok() || first_user_row == Some(sdk),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_warms_up_each_unit_then_shuffles_every_round() {
        let steps = schedule(3, 20, 7);
        assert_eq!(steps[..3].iter().map(|s| (s.unit, s.round)).collect::<Vec<_>>(), [(0, 0), (1, 0), (2, 0)]);
        for round in 1..=20 {
            let mut units: Vec<usize> = steps.iter().filter(|s| s.round == round).map(|s| s.unit).collect();
            units.sort_unstable();
            assert_eq!(units, [0, 1, 2], "round {round} runs each unit once");
        }
        let orders: std::collections::HashSet<Vec<usize>> =
            (1..=20).map(|r| steps.iter().filter(|s| s.round == r).map(|s| s.unit).collect()).collect();
        assert!(orders.len() > 2, "orders vary between rounds");
        assert_eq!(schedule(3, 20, 7), steps, "the seed reproduces the order");
        assert_ne!(schedule(3, 20, 8), steps);
    }

    fn twin(sdk: &str, msg_id: &str) -> Arm {
        let mut t = Arm::new(sdk, msg_id, None);
        t.twin = true;
        t
    }

    #[test]
    fn each_design_groups_the_arms_its_own_way() {
        let mut arms = vec![
            Arm::control('A'),
            Arm::control('B'),
            Arm::new("go", "uuid", None),
            Arm::new("go", "fast", None),
            Arm::new("java", "uuid", None),
        ];
        arms.push(twin("go", "uuid"));
        assert_eq!(units(&arms, Design::Paired), [vec![0], vec![1], vec![2, 5, 3], vec![4]]);
        assert_eq!(units(&arms, Design::Processes), (0..6).map(|i| vec![i]).collect::<Vec<_>>());
        assert_eq!(units(&arms, Design::Lockstep), [vec![0, 1], vec![2, 5, 3], vec![4]]);
        // Rows of one's own: every build in one set, the first build's twin second.
        let arms = vec![
            Arm::control('A'),
            Arm::control('B'),
            Arm::new("master", "sdk", None),
            twin("master", "sdk"),
            Arm::new("branch", "sdk", None),
        ];
        assert_eq!(units(&arms, Design::Lockstep), [vec![0, 1], vec![2, 3, 4]]);
    }

    #[test]
    fn lockstep_twins_the_first_row_of_ones_own_only() {
        assert!(wants_twin(Design::Lockstep, "go", None));
        assert!(wants_twin(Design::Lockstep, "master", Some("master")));
        assert!(!wants_twin(Design::Lockstep, "branch", Some("master")));
        assert!(wants_twin(Design::Paired, "branch", Some("master")));
        assert!(!wants_twin(Design::Processes, "go", None));
    }
}
