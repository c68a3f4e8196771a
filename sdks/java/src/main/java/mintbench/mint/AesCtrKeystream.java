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
