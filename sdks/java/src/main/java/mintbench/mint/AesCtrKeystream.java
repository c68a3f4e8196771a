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

    AesCtrKeystream(int poolBytes) {
        SecureRandom seed = new SecureRandom();
        byte[] key = new byte[16];
        byte[] counter = new byte[16];
        seed.nextBytes(key);
        seed.nextBytes(counter);
        try {
            cipher = Cipher.getInstance("AES/CTR/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(counter));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CTR/NoPadding is unavailable in this JVM", e);
        }
        zeros = new byte[poolBytes];
    }

    @Override
    public void fill(byte[] pool) {
        try {
            cipher.update(zeros, 0, pool.length, pool, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR keystream failed", e);
        }
    }
}
