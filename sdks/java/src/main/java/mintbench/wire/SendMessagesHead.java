package mintbench.wire;

import mintbench.LittleEndian;

/**
 * The part of a SEND_MESSAGES request in front of its batch: the request header, then stream 1,
 * topic 1, partition 0 and the message count. Both send paths write it here.
 */
public final class SendMessagesHead {
    /** Request header, metadata length and the 22 bytes of metadata. */
    public static final int SIZE = RequestHeader.SIZE + 4 + 22;

    private static final int METADATA_LENGTH = 22; // stream id 6, topic id 6, partitioning 6, count 4
    private static final int COUNT_AT = SIZE - 4;

    private SendMessagesHead() {}

    /**
     * Writes the head at the start of {@code frame} for {@code count} messages followed by a batch
     * of {@code batchLength} bytes; {@code client} is the connection's u128 as 16 little-endian bytes.
     */
    public static void write(byte[] frame, byte[] client, long request, long session, int count, int batchLength) {
        RequestHeader.write(frame, SIZE - RequestHeader.SIZE + batchLength, client, RequestHeader.NO_CHECKSUM,
                request, Operation.SEND_MESSAGES, session);
        int at = RequestHeader.SIZE;
        LittleEndian.putInt(frame, at, METADATA_LENGTH);
        at = putNumericIdentifier(frame, at + 4, 1); // stream
        at = putNumericIdentifier(frame, at, 1); // topic
        frame[at] = 2; // partitioning by partition id
        frame[at + 1] = 4;
        LittleEndian.putInt(frame, at + 2, 0);
        LittleEndian.putInt(frame, COUNT_AT, count);
    }

    private static int putNumericIdentifier(byte[] frame, int at, int id) {
        frame[at] = 1;
        frame[at + 1] = 4;
        LittleEndian.putInt(frame, at + 2, id);
        return at + 6;
    }
}
