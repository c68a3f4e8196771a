package mintbench.mint;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-128 in counter mode under a random key and random initial counter: its keystream is
 * indistinguishable from random and never repeats within one stream, so IDs from different
 * threads and JVMs collide only by 128-bit chance. The JDK runs it on AES-NI intrinsics.
 */
final class AesCtrKeystream implements RandomFill {
    /**
     * One-ID cipher calls of {@link #warmUpCipherPath}: several times the 5,000 calls after which
     * HotSpot's tiered policy asks C2 for the JDK's {@code CipherCore.update}, the first frame of the
     * call chain whose C2 code inlines the CTR step as the AES-CTR intrinsic (see README.md).
     */
    static final int WARM_UP_CALLS = 50_000;

    /**
     * Most bytes a batch fill gives one {@code Cipher.update}: a default batch's 1000 IDs (16,000
     * bytes) in one call. Each call costs a fixed overhead before the intrinsic runs, so calls of one
     * 1 KiB pool each cost a batch 16 of them (JMH's {@code aesctr-calls-<bytes>B} rows).
     */
    static final int FILL_CALL_BYTES = 16 * 1024;

    private static boolean warmedUp;

    private final Cipher cipher;
    private final byte[] zeros; // the keystream is the encryption of zeros

    AesCtrKeystream(int chunkBytes) {
        this(chunkBytes, randomBytes(16), randomBytes(16));
    }

    /** A keystream under {@code key} from {@code counter}, at most {@code chunkBytes} per cipher call. */
    AesCtrKeystream(int chunkBytes, byte[] key, byte[] counter) {
        try {
            cipher = Cipher.getInstance("AES/CTR/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(counter));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CTR/NoPadding is unavailable in this JVM", e);
        }
        zeros = new byte[chunkBytes];
    }

    /**
     * Once per JVM, before the first minter's first ID: runs a throwaway AES-CTR cipher (all-zero key
     * and counter, output discarded) through {@link #WARM_UP_CALLS} calls, so the JIT compiles the
     * cipher's call chain with its AES-CTR intrinsic before a producer's first batch: at 16 calls
     * per 1000-ID batch, a producer's own calls take some 300 batches to get there. No keystream's
     * state is touched. Returns whether this call did the work.
     */
    static synchronized boolean warmUpCipherPath() {
        if (warmedUp) {
            return false;
        }
        warmedUp = true;
        try {
            Cipher throwaway = Cipher.getInstance("AES/CTR/NoPadding");
            throwaway.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[16], "AES"),
                    new IvParameterSpec(new byte[16]));
            byte[] in = new byte[IdMinter.ID_BYTES];
            byte[] out = new byte[IdMinter.ID_BYTES];
            for (int i = 0; i < WARM_UP_CALLS; i++) {
                throwaway.update(in, 0, in.length, out, 0);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CTR/NoPadding is unavailable in this JVM", e);
        }
        return true;
    }

    private static byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }

    /** The stream goes on where the last call stopped, however the calls split it. */
    @Override
    public void fill(byte[] dst, int offset, int length) {
        try {
            for (int done = 0; done < length; done += zeros.length) {
                cipher.update(zeros, 0, Math.min(zeros.length, length - done), dst, offset + done);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR keystream failed", e);
        }
    }
}
