package mintbench.producer;

/** One MSG_ID entry of a run: its send path and what its timed batches measured. */
final class Arm {
    final String msgId;
    final BatchBuilder batches;
    /** Per timed batch: from starting to build it (injected work included) to its ack. */
    final long[] batchNanos;
    /** Per timed batch: from sending it to its ack. */
    final long[] roundTripNanos;
    long injectedNanos;

    Arm(String msgId, BatchBuilder batches, int timedBatches) {
        this.msgId = msgId;
        this.batches = batches;
        this.batchNanos = new long[timedBatches];
        this.roundTripNanos = new long[timedBatches];
    }

    long elapsedNanos() {
        long sum = 0;
        for (long nanos : batchNanos) {
            sum += nanos;
        }
        return sum;
    }
}
