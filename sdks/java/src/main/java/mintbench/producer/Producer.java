package mintbench.producer;

import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mintbench.LittleEndian;
import mintbench.wire.FrameWriter;
import mintbench.wire.Operation;
import mintbench.wire.Payloads;
import mintbench.wire.SessionFrames;

/**
 * The contract's producer: logs in, sends MESSAGES per arm in batches of BATCH with one request in
 * flight, logs out and prints one JSON line. With PAIRED=1 the arms take turns inside each block in
 * the seeded order. The warm-up batches also warm the JIT: the send path, the minter and the socket
 * path are compiled before the timed window opens.
 */
public final class Producer {
    private static final int SESSION_AT = 8; // in the login reply's body
    private static final int[] ONE_ARM = {0};

    private Producer() {}

    public static void main(String[] args) {
        System.exit(run(System.getenv(), System.out, System.err));
    }

    /** Runs with {@code env} as the settings; returns the exit code. */
    static int run(Map<String, String> env, PrintStream out, PrintStream err) {
        try {
            out.println(produce(ProducerSettings.fromEnvironment(env)).toJson());
            return 0;
        } catch (ProducerException e) {
            err.println("error: " + e.getMessage());
            return 1;
        }
    }

    static RunResult produce(ProducerSettings settings) throws ProducerException {
        SecureRandom random = new SecureRandom();
        byte[] client = randomNonZeroU128(random);
        List<Arm> arms = arms(settings, client);
        BlockOrder blockOrder = new BlockOrder(settings.seed(), arms.size());

        try (IggyConnection connection = IggyConnection.open(settings.host(), settings.port())) {
            byte[] login = SessionFrames.login(client, randomNonZeroU128(random));
            long session = sessionOf(connection.request(out -> out.write(login), 0, Operation.LOGIN_REGISTER),
                    settings);

            long request = 1;
            long seq = 0; // the connection's message number, across arms
            long windowStart = 0;
            long allocatedAtStart = 0;
            for (long block = 0; block < settings.totalBatches(); block++) {
                if (block == settings.warmupBatches()) {
                    allocatedAtStart = AllocatedBytes.ofThisThread();
                    windowStart = System.nanoTime(); // the timed window includes building its first batch
                }
                int timed = (int) (block - settings.warmupBatches()); // negative in the warm-up
                int count = (int) Math.min(settings.batch(), settings.messages() - block * settings.batch());
                for (int index : settings.paired() ? blockOrder.next() : ONE_ARM) {
                    Arm arm = arms.get(index);
                    long start = System.nanoTime();
                    long injected = index == settings.injectArm() ? spin(start, settings.injectedNsPerBatch(count)) : 0;
                    FrameWriter frame = arm.batches.build(request, session, nowMicros(), seq, count);
                    long sent = System.nanoTime();
                    connection.request(frame, request, Operation.SEND_MESSAGES);
                    long acked = System.nanoTime();
                    if (timed >= 0) {
                        arm.batchNanos[timed] = acked - start;
                        arm.roundTripNanos[timed] = acked - sent;
                        arm.injectedNanos += injected;
                    }
                    seq += count;
                    request++;
                }
            }
            long elapsed = System.nanoTime() - windowStart;
            long allocatedAtEnd = AllocatedBytes.ofThisThread();
            long allocated = allocatedAtStart < 0 || allocatedAtEnd < 0 ? -1 : allocatedAtEnd - allocatedAtStart;

            byte[] logout = SessionFrames.logout(client, request, session);
            connection.request(out -> out.write(logout), request, Operation.LOGOUT);
            return new RunResult(settings, arms, elapsed, allocated);
        }
    }

    private static List<Arm> arms(ProducerSettings settings, byte[] client) throws ProducerException {
        Payloads payloads = new Payloads(settings.bits(), settings.pack());
        int idsNeeded = (int) Math.min(settings.messages(), Integer.MAX_VALUE);
        List<Arm> arms = new ArrayList<>();
        for (String msgId : settings.msgIds()) {
            try {
                arms.add(new Arm(msgId, BatchBuilder.create(settings.sendPath(), msgId, client, payloads,
                        settings.batch(), idsNeeded), settings.timedBatches()));
            } catch (IllegalArgumentException e) {
                throw new ProducerException("MSG_ID=" + msgId + ": " + e.getMessage(), e);
            } catch (OutOfMemoryError e) {
                throw new ProducerException("MSG_ID=" + msgId + ": the " + settings.messages()
                        + " preset IDs of MESSAGES do not fit the heap; raise -Xmx", e);
            }
        }
        return arms;
    }

    /**
     * Injected work: spins on the monotonic clock until {@code nanos} have passed since the batch's
     * {@code start}, and returns how long that really took (the call included, so none of the
     * injected work goes unmeasured).
     */
    static long spin(long start, long nanos) {
        if (nanos == 0) {
            return 0;
        }
        long now;
        do {
            now = System.nanoTime();
        } while (now - start < nanos);
        return now - start;
    }

    private static long sessionOf(byte[] loginReply, ProducerSettings settings) throws ProducerException {
        long session = loginReply.length >= SESSION_AT + 8 ? LittleEndian.getLong(loginReply, SESSION_AT) : 0;
        if (session == 0) {
            throw new ProducerException("server " + settings.server() + " sent a login reply without a session");
        }
        return session;
    }

    private static byte[] randomNonZeroU128(SecureRandom random) {
        byte[] value = new byte[16];
        do {
            random.nextBytes(value);
        } while (LittleEndian.getLong(value, 0) == 0 && LittleEndian.getLong(value, 8) == 0);
        return value;
    }

    private static long nowMicros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }
}
