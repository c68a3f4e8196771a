package mintbench.mint;

/**
 * {@code preset}: hands out IDs minted before the timed window, so the hot path only copies 16
 * bytes. It never wraps around: a run mints exactly as many IDs as it sends.
 */
public final class PresetMinter implements IdMinter {
    private final byte[] ids;
    private int next;

    /** Serves {@code ids} (a whole number of 16-byte IDs) in order. */
    public PresetMinter(byte[] ids) {
        if (ids.length % ID_BYTES != 0) {
            throw new IllegalArgumentException(ids.length + " bytes is not a whole number of 16-byte IDs");
        }
        this.ids = ids;
    }

    /** Mints {@code count} IDs from {@code source} now, to be served later. */
    public static PresetMinter mintAhead(IdMinter source, int count) {
        if (count < 0 || count > Integer.MAX_VALUE / ID_BYTES) {
            throw new IllegalArgumentException("cannot preset " + count + " IDs: at most "
                    + Integer.MAX_VALUE / ID_BYTES + " fit in one array");
        }
        byte[] ids = new byte[count * ID_BYTES];
        for (int offset = 0; offset < ids.length; offset += ID_BYTES) {
            source.mintInto(ids, offset);
        }
        return new PresetMinter(ids);
    }

    public int remaining() {
        return (ids.length - next) / ID_BYTES;
    }

    @Override
    public void mintInto(byte[] dst, int offset) {
        fill(dst, offset, 1);
    }

    @Override
    public void fill(byte[] dst, int offset, int count) {
        if (count > remaining()) {
            throw new IllegalStateException(count + " IDs asked, " + remaining() + " of "
                    + ids.length / ID_BYTES + " preset IDs left");
        }
        System.arraycopy(ids, next, dst, offset, count * ID_BYTES);
        next += count * ID_BYTES;
    }
}
