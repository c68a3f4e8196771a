package mintbench.mint;

/** A source of 16-byte message IDs, written straight into the caller's frame buffer. */
@FunctionalInterface
public interface IdMinter {
    int ID_BYTES = 16;

    /** Writes the next ID into {@code dst[offset .. offset + 16)}. */
    void mintInto(byte[] dst, int offset);

    /**
     * Writes the next {@code count} IDs back to back from {@code dst[offset]}: the same IDs, in the
     * same order, as {@code count} calls of {@link #mintInto}. A batch takes its IDs in one call.
     */
    default void fill(byte[] dst, int offset, int count) {
        for (int i = 0; i < count; i++) {
            mintInto(dst, offset + i * ID_BYTES);
        }
    }
}
