package mintbench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian reads and writes into byte arrays: everything on the Iggy wire is little-endian. */
public final class LittleEndian {
    private static final VarHandle LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {}

    public static void putLong(byte[] dst, int offset, long value) {
        LONG.set(dst, offset, value);
    }

    public static void putInt(byte[] dst, int offset, int value) {
        INT.set(dst, offset, value);
    }

    public static long getLong(byte[] src, int offset) {
        return (long) LONG.get(src, offset);
    }

    public static int getInt(byte[] src, int offset) {
        return (int) INT.get(src, offset);
    }
}
