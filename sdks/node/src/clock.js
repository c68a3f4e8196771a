// The clocks a producer reads: the monotonic one for every duration, the wall clock for timestamps.

/** @returns {bigint} monotonic ns */
export const monotonicNs = () => process.hrtime.bigint();

export function wallClockMicros() {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/**
 * Injected work (sdks/README.md, "Injected work"): spins on the monotonic clock until `ns` have
 * passed since the batch's `start` (monotonic ns). @returns {number} the measured ns since `start`
 */
export function spin(start, ns) {
  const end = start + BigInt(ns);
  let now = start;
  while (now < end) now = monotonicNs();
  return Number(now - start);
}
