package mintbench.producer;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The contract's producer settings, read and checked from the environment. {@code msgIds} has one
 * entry per arm: one without PAIRED, two or more with it.
 */
public record ProducerSettings(String host, int port, SendPath sendPath, List<String> msgIds, boolean paired,
                               long seed, int bits, int pack, int batch, long messages, long warmup,
                               double injectNs, int injectArm) {
    /** A second per message: far beyond calibration's needs, and a batch's spin stays within a u64. */
    static final long MAX_INJECT_NS = 1_000_000_000;
    /** INJECT_NS as the contract writes it: digits with an optional fraction, nothing else. */
    private static final Pattern DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]+)?");

    public static ProducerSettings fromEnvironment(Map<String, String> env) throws ProducerException {
        String mode = env.getOrDefault("MODE", "producer");
        if (!mode.equals("producer")) {
            throw new ProducerException("MODE=" + mode + " is unknown; this producer has only MODE=producer");
        }
        SendPath sendPath = SendPath.named(env.getOrDefault("SEND_PATH", SendPath.LEAN.setting));
        boolean paired = number("PAIRED", env.getOrDefault("PAIRED", "0"), 0, 1) == 1;
        String msgIdSetting = required(env, "MSG_ID");
        List<String> msgIds = paired ? Arrays.asList(msgIdSetting.split(",", -1)) : List.of(msgIdSetting);
        for (String msgId : msgIds) {
            if (!sendPath.msgIds.contains(msgId)) {
                throw new ProducerException("MSG_ID=" + msgId + " is unknown; expected one of "
                        + String.join(", ", sendPath.msgIds));
            }
        }
        if (paired && msgIds.size() < 2) {
            throw new ProducerException("PAIRED=1 needs at least two arms in MSG_ID, got '" + msgIdSetting + "'");
        }
        long seed = unsigned("SEED", env.getOrDefault("SEED", "0"));
        String server = required(env, "SERVER");
        int colon = server.lastIndexOf(':');
        if (colon <= 0) {
            throw new ProducerException("SERVER='" + server + "' is not host:port");
        }
        int port = (int) number("SERVER port", server.substring(colon + 1), 1, 65535);
        int bits = (int) number("BITS", required(env, "BITS"), 1, 64);
        int pack = (int) number("PACK", required(env, "PACK"), 1, Integer.MAX_VALUE);
        int batch = (int) number("BATCH", required(env, "BATCH"), 1, Integer.MAX_VALUE);
        long messages = number("MESSAGES", required(env, "MESSAGES"), 1, Long.MAX_VALUE);
        long warmup = number("WARMUP", required(env, "WARMUP"), 0, Long.MAX_VALUE);
        double injectNs = decimal("INJECT_NS", env.getOrDefault("INJECT_NS", "0"), MAX_INJECT_NS);
        int injectArm = (int) number("INJECT_ARM", env.getOrDefault("INJECT_ARM", "0"), 0, msgIds.size() - 1);
        if (messages < batch) {
            throw new ProducerException("MESSAGES=" + messages + " is less than BATCH=" + batch);
        }
        ProducerSettings settings = new ProducerSettings(server.substring(0, colon), port, sendPath, List.copyOf(msgIds),
                paired, seed, bits, pack, batch, messages, warmup, injectNs, injectArm);
        if (settings.warmupBatches() >= settings.totalBatches()) {
            throw new ProducerException("no timed batch left: WARMUP=" + warmup + " takes all "
                    + settings.totalBatches() + " batches of MESSAGES=" + messages);
        }
        return settings;
    }

    /** The first {@code ceil(WARMUP / BATCH)} whole batches (blocks, when paired) are the warm-up. */
    public long warmupBatches() {
        return ceilDiv(warmup, batch);
    }

    /** Batches per arm: blocks, when paired. */
    public long totalBatches() {
        return ceilDiv(messages, batch);
    }

    /** Messages of each arm actually sent before the timed window. */
    public long warmupMessages() {
        return warmupBatches() * batch;
    }

    public int timedBatches() {
        return Math.toIntExact(totalBatches() - warmupBatches());
    }

    /** The spin target of a batch of {@code count} messages of the injected arm: to the nearest ns. */
    public long injectedNsPerBatch(long count) {
        return Math.round(count * injectNs);
    }

    public String server() {
        return host + ":" + port;
    }

    private static long ceilDiv(long dividend, long divisor) {
        return dividend / divisor + (dividend % divisor == 0 ? 0 : 1);
    }

    private static String required(Map<String, String> env, String name) throws ProducerException {
        String value = env.get(name);
        if (value == null || value.isEmpty()) {
            throw new ProducerException(name + " is not set");
        }
        return value;
    }

    private static long number(String name, String text, long min, long max)
            throws ProducerException {
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ProducerException(name + "='" + text + "' is not a whole number");
        }
        if (value < min || value > max) {
            throw new ProducerException(name + "=" + value + " is outside " + min + "..=" + max);
        }
        return value;
    }

    private static double decimal(String name, String text, long max) throws ProducerException {
        if (!DECIMAL.matcher(text).matches()) {
            throw new ProducerException(name + "='" + text + "' is not a decimal number");
        }
        double value = Double.parseDouble(text);
        if (value > max) {
            throw new ProducerException(name + "=" + text + " is outside 0..=" + max);
        }
        return value;
    }

    private static long unsigned(String name, String text) throws ProducerException {
        try {
            return Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
            throw new ProducerException(name + "='" + text + "' is not a u64 in decimal");
        }
    }
}
