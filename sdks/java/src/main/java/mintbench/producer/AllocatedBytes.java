package mintbench.producer;

import java.lang.management.ManagementFactory;

/** The JVM's cumulative count of bytes this thread allocated, where the JVM keeps one. */
final class AllocatedBytes {
    private static final com.sun.management.ThreadMXBean THREADS = threads();

    private AllocatedBytes() {}

    /** Bytes allocated by the calling thread so far; -1 when this JVM does not count them. */
    static long ofThisThread() {
        return THREADS == null ? -1 : THREADS.getCurrentThreadAllocatedBytes();
    }

    private static com.sun.management.ThreadMXBean threads() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
                && threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled()) {
            return threads;
        }
        return null;
    }
}
