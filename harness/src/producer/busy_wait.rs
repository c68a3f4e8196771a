//! INJECT_NS: a busy-wait of a set length per message, so `harness calibrate` can make an arm
//! slower by a known amount and see whether the verdicts notice.

use std::hint::black_box;
use std::time::{Duration, Instant};

pub struct BusyWait {
    iterations: u64,
}

/// Iterations timed to learn this machine's loop speed (a few ms).
const PROBE: u64 = 10_000_000;

impl BusyWait {
    /// None for 0 ns, so that nothing at all is added to the hot path. Else a loop whose length
    /// is calibrated against the clock once at start-up: reading the clock per message would
    /// cost more than the waits being injected.
    pub fn calibrated(ns: u64) -> Option<BusyWait> {
        if ns == 0 {
            return None;
        }
        let fastest = (0..3)
            .map(|_| {
                let start = Instant::now();
                spin(PROBE);
                start.elapsed()
            })
            .min()
            .unwrap_or(Duration::from_nanos(1));
        let per_ns = PROBE as f64 / fastest.as_nanos().max(1) as f64;
        Some(BusyWait { iterations: ((ns as f64 * per_ns).round() as u64).max(1) })
    }

    #[inline]
    pub fn wait(&self) {
        spin(self.iterations);
    }
}

#[inline(always)]
fn spin(iterations: u64) {
    for i in 0..iterations {
        black_box(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_adds_nothing_and_more_adds_a_loop() {
        assert!(BusyWait::calibrated(0).is_none());
        let short = BusyWait::calibrated(10).unwrap().iterations;
        let long = BusyWait::calibrated(100_000).unwrap().iterations;
        assert!(short >= 1 && long > short, "{short} {long}");
    }
}
