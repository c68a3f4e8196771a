package mintbench.producer;

import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import mintbench.LittleEndian;
import mintbench.mint.IdMinter;
import mintbench.mint.Strategies;
import mintbench.wire.Operation;
import mintbench.wire.Payloads;
import mintbench.wire.SendMessagesEncoder;
import mintbench.wire.SessionFrames;

/**
 * The contract's producer: logs in, sends MESSAGES in batches of BATCH with one request in flight,
 * logs out and prints one JSON line. The warm-up batches also warm the JIT: the encoder, the
 * minter and the socket path are compiled before the timed window opens.
 */
public final class Producer {
    private static final int SESSION_AT = 8; // in the login reply's body

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
        IdMinter ids = minter(settings);
        int timedBatches = Math.toIntExact(settings.totalBatches() - settings.warmupBatches());
        long[] roundTrips = new long[timedBatches];
        SecureRandom random = new SecureRandom();
        byte[] client = randomNonZeroU128(random);
        SendMessagesEncoder encoder =
                new SendMessagesEncoder(client, new Payloads(settings.bits(), settings.pack()), settings.batch());

        try (IggyConnection connection = IggyConnection.open(settings.host(), settings.port())) {
            byte[] login = SessionFrames.login(client, randomNonZeroU128(random));
            long session = sessionOf(connection.request(login, login.length, 0, Operation.LOGIN_REGISTER), settings);

            long request = 1;
            long seq = 0;
            long windowStart = 0;
            for (long batch = 0; batch < settings.totalBatches(); batch++, request++) {
                if (batch == settings.warmupBatches()) {
                    windowStart = System.nanoTime(); // the timed window includes building its first batch
                }
                int count = (int) Math.min(settings.batch(), settings.messages() - seq);
                int length = encoder.encode(request, session, nowMicros(), seq, count, ids);
                long sent = System.nanoTime();
                connection.request(encoder.frame(), length, request, Operation.SEND_MESSAGES);
                if (batch >= settings.warmupBatches()) {
                    roundTrips[(int) (batch - settings.warmupBatches())] = System.nanoTime() - sent;
                }
                seq += count;
            }
            long elapsed = System.nanoTime() - windowStart;

            byte[] logout = SessionFrames.logout(client, request, session);
            connection.request(logout, logout.length, request, Operation.LOGOUT);
            return new RunResult(settings.msgId(), settings.messages(), settings.warmupMessages(),
                    settings.messages() - settings.warmupMessages(), elapsed, roundTrips);
        }
    }

    private static IdMinter minter(ProducerSettings settings) throws ProducerException {
        try {
            return Strategies.create(settings.msgId(), (int) Math.min(settings.messages(), Integer.MAX_VALUE));
        } catch (IllegalArgumentException e) {
            throw new ProducerException("MSG_ID=" + settings.msgId() + ": " + e.getMessage(), e);
        } catch (OutOfMemoryError e) {
            throw new ProducerException("MSG_ID=" + settings.msgId() + ": the " + settings.messages()
                    + " preset IDs of MESSAGES do not fit the heap; raise -Xmx", e);
        }
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
