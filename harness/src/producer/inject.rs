//! INJECT_NS / INJECT_ARM: work of a known size added to one arm, so `harness calibrate` can see
//! whether a verdict notices it. The size is measured, not assumed: the spin reads the monotonic
//! clock until its target has passed since the batch's start, and reports how long it really took
//! (the call itself included, so no part of the injected work goes unmeasured).

use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inject {
    /// ns per message, a decimal (INJECT_NS), so a level below 1 ns per message can be asked for.
    pub ns_per_message: f64,
    /// The index of the injected arm in the MSG_ID list.
    pub arm: usize,
}

impl Inject {
    /// For a batch of `count` messages of `arm` that started at `start`: spins until
    /// `count * ns_per_message` ns (to the nearest ns) have passed since then when `arm` is the injected one, and
    /// returns the measured time from `start` in ns (at least the target); 0, without reading the
    /// clock, for any other batch.
    pub fn spin(&self, arm: usize, count: u32, start: Instant) -> u64 {
        if self.ns_per_message == 0.0 || arm != self.arm {
            return 0;
        }
        // INJECT_NS <= 1e9 and count < 2^32, so the product fits a u64.
        let target = Duration::from_nanos((self.ns_per_message * f64::from(count)).round() as u64);
        loop {
            let spun = start.elapsed();
            if spun >= target {
                return spun.as_nanos() as u64;
            }
            std::hint::spin_loop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_injected_arm_spins_and_at_least_its_target() {
        let inject = Inject { ns_per_message: 2_000.0, arm: 1 };
        let started = Instant::now();
        assert_eq!(inject.spin(0, 100, started), 0);
        let spun = inject.spin(1, 100, started);
        assert!(spun >= 200_000, "{spun}");
        assert!(started.elapsed().as_nanos() as u64 >= spun, "the reported spin happened inside the call");
        // Time already past since the start counts: a start long ago needs no spinning.
        let long_ago = Instant::now() - Duration::from_millis(50);
        assert!(inject.spin(1, 100, long_ago) >= 50_000_000);
        assert_eq!(Inject { ns_per_message: 0.0, arm: 0 }.spin(0, 100, started), 0);
    }

    #[test]
    fn a_fraction_of_a_ns_per_message_adds_up_over_the_batch() {
        let started = Instant::now();
        let spun = Inject { ns_per_message: 1.45, arm: 0 }.spin(0, 1000, started);
        assert!(spun >= 1_450, "{spun}");
    }
}
