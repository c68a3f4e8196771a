package mintbench.mint;

import java.util.UUID;
import mintbench.LittleEndian;

/**
 * The Iggy Java SDK's path before the fix: a fresh {@link UUID#randomUUID()} per message, written as
 * the least-significant long then the most-significant long, each little-endian.
 */
public final class UuidMinter implements IdMinter {
    @Override
    public void mintInto(byte[] dst, int offset) {
        UUID uuid = UUID.randomUUID();
        LittleEndian.putLong(dst, offset, uuid.getLeastSignificantBits());
        LittleEndian.putLong(dst, offset + 8, uuid.getMostSignificantBits());
    }
}
