//! How a design turns a workload's arms into processes and rounds: which arms make one launch (a
//! process of its own, a paired process, or a lock-step set of processes), and the order the
//! launches run in.

use super::design::Design;
use super::records::Arm;
use super::sdk;
use super::settings::Settings;
use crate::producer::BlockOrder;

/// One launch to run: which (an arm, a paired process of one SDK's arms, or a lock-step set) and
/// in which round (0: the discarded warm-up round).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub launch: usize,
    pub round: usize,
}

/// One warm-up step per launch, then `repeat` rounds, each running every launch once in an order
/// shuffled from `seed` (randomised multiple interleaved trials): drift and periodic noise hit
/// every launch alike, and no launch always follows the same one.
pub fn schedule(launches: usize, repeat: usize, seed: u64) -> Vec<Step> {
    let warmups = (0..launches).map(|launch| Step { launch, round: 0 });
    let rounds = BlockOrder::new(seed, launches)
        .take(repeat)
        .enumerate()
        .flat_map(|(r, order)| order.into_iter().map(move |launch| Step { launch, round: r + 1 }));
    warmups.chain(rounds).collect()
}

/// The launches to run for `arms`, in order: each step with the indexes of the arms it runs. A
/// launch runs its own REPEAT rounds (a row's, under SPLIT), so the rows with fewer drop out of
/// the last rounds.
pub fn plan(arms: &[Arm], settings: &Settings) -> Vec<(Step, Vec<usize>)> {
    let launches = launches(arms, settings.design);
    let repeat: Vec<usize> =
        launches.iter().map(|l| settings.for_launch(l.iter().map(|&i| &arms[i])).repeat as usize).collect();
    schedule(launches.len(), repeat.iter().copied().max().unwrap_or(0), settings.seed)
        .into_iter()
        .filter(|step| step.round <= repeat[step.launch])
        .map(|step| (step, launches[step.launch].clone()))
        .collect()
}

/// One more round after the planned ones (PRECISION, BUDGET): each launch of `open` (indexes into
/// `launches`) once, in an order shuffled from the seed and the round.
pub fn next_round(arms: &[Arm], settings: &Settings, round: usize, open: &[usize]) -> Vec<(Step, Vec<usize>)> {
    let launches = launches(arms, settings.design);
    let order = BlockOrder::new(settings.seed ^ (round as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15), launches.len())
        .next()
        .expect("block orders never end");
    order
        .into_iter()
        .filter(|launch| open.contains(launch))
        .map(|launch| (Step { launch, round }, launches[launch].clone()))
        .collect()
}

/// What runs as one launch, as arm indexes in the order the launch takes them (its first arm, its
/// A/A twin, then the rest). Processes: every arm alone. Paired: one process per SDK, the
/// control arms alone. Lock-step: a set per SDK row, one set of every row of one's own (their
/// builds are what is compared), and the two control arms as a set of their own.
pub fn launches(arms: &[Arm], design: Design) -> Vec<Vec<usize>> {
    let group = |arm: &Arm| -> Option<String> {
        match design {
            Design::Processes => None,
            Design::Paired => arm.control.is_none().then(|| arm.sdk.clone()),
            Design::Lockstep if arm.control.is_some() => Some("control".into()),
            Design::Lockstep => Some(sdk::set_of(&arm.sdk).to_owned()),
        }
    };
    let mut launches: Vec<(Option<String>, Vec<usize>)> = Vec::new();
    for (i, arm) in arms.iter().enumerate() {
        let key = group(arm);
        match launches.iter().position(|(k, _)| key.is_some() && *k == key) {
            Some(g) if arm.twin => launches[g].1.insert(1, i),
            Some(g) => launches[g].1.push(i),
            None => launches.push((key, vec![i])),
        }
    }
    launches.into_iter().map(|(_, u)| u).collect()
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
        assert_eq!(steps[..3].iter().map(|s| (s.launch, s.round)).collect::<Vec<_>>(), [(0, 0), (1, 0), (2, 0)]);
        for round in 1..=20 {
            let mut launches: Vec<usize> = steps.iter().filter(|s| s.round == round).map(|s| s.launch).collect();
            launches.sort_unstable();
            assert_eq!(launches, [0, 1, 2], "round {round} runs each launch once");
        }
        let orders: std::collections::HashSet<Vec<usize>> =
            (1..=20).map(|r| steps.iter().filter(|s| s.round == r).map(|s| s.launch).collect()).collect();
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
        assert_eq!(launches(&arms, Design::Paired), [vec![0], vec![1], vec![2, 5, 3], vec![4]]);
        assert_eq!(launches(&arms, Design::Processes), (0..6).map(|i| vec![i]).collect::<Vec<_>>());
        assert_eq!(launches(&arms, Design::Lockstep), [vec![0, 1], vec![2, 5, 3], vec![4]]);
        // Rows of one's own: every build in one set, the first build's twin second.
        let arms = vec![
            Arm::control('A'),
            Arm::control('B'),
            Arm::new("master", "sdk", None),
            twin("master", "sdk"),
            Arm::new("branch", "sdk", None),
        ];
        assert_eq!(launches(&arms, Design::Lockstep), [vec![0, 1], vec![2, 3, 4]]);
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
