package mintbench.mint;

/** A source of 16-byte message IDs, written straight into the caller's frame buffer. */
@FunctionalInterface
public interface IdMinter {
    int ID_BYTES = 16;

    /** Writes the next ID into {@code dst[offset .. offset + 16)}. */
    void mintInto(byte[] dst, int offset);
}
