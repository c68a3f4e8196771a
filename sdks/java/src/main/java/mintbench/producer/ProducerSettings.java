package mintbench.producer;

import java.util.Map;
import mintbench.mint.Strategies;

/** The contract's producer settings, read and checked from the environment. */
public record ProducerSettings(String host, int port, String msgId, int bits, int pack, int batch,
                               long messages, long warmup) {

    public static ProducerSettings fromEnvironment(Map<String, String> env) throws ProducerException {
        String msgId = required(env, "MSG_ID");
        if (!Strategies.NAMES.contains(msgId)) {
            throw new ProducerException("unknown MSG_ID '" + msgId + "': expected one of "
                    + String.join(", ", Strategies.NAMES));
        }
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
        if (messages < batch) {
            throw new ProducerException("MESSAGES=" + messages + " is less than BATCH=" + batch);
        }
        ProducerSettings settings = new ProducerSettings(
                server.substring(0, colon), port, msgId, bits, pack, batch, messages, warmup);
        if (settings.warmupBatches() >= settings.totalBatches()) {
            throw new ProducerException("no timed batch left: WARMUP=" + warmup + " takes all "
                    + settings.totalBatches() + " batches of MESSAGES=" + messages);
        }
        return settings;
    }

    /** The first {@code ceil(WARMUP / BATCH)} whole batches are the warm-up. */
    public long warmupBatches() {
        return ceilDiv(warmup, batch);
    }

    public long totalBatches() {
        return ceilDiv(messages, batch);
    }

    /** Messages actually sent before the timed window. */
    public long warmupMessages() {
        return warmupBatches() * batch;
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
}
