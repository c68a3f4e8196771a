package mintbench.wire;

import mintbench.LittleEndian;
import mintbench.mint.IdMinter;

/**
 * Builds SEND_MESSAGES requests into one reused buffer: stream 1, topic 1, partition 0, one batch of
 * messages numbered by sequence, each with a freshly minted ID and its XXH3 checksum. Minting
 * happens here, inside the producer's timed window, as it does in a real SDK's send path.
 */
public final class SendMessagesEncoder {
    private static final int BATCH_AT = SendMessagesHead.SIZE;
    private static final int BATCH_HEADER_BYTES = 256;
    private static final int MESSAGES_AT = BATCH_AT + BATCH_HEADER_BYTES;
    private static final int MESSAGE_HEADER_BYTES = 48;

    // batch header fields, relative to BATCH_AT
    private static final int ORIGIN_TIMESTAMP_AT = 24;
    private static final int BATCH_LENGTH_AT = 32;
    private static final int BATCH_CHECKSUM_AT = 40;
    private static final int MESSAGE_COUNT_AT = 48;
    // the batch checksum covers the five u64s before it, then message_count, then each message checksum
    private static final int CHECKSUMMED_HEADER_BYTES = 5 * 8;

    // message header fields, relative to the message
    private static final int ID_AT = 8;
    private static final int OFFSET_DELTA_AT = 24;
    private static final int PAYLOAD_LENGTH_AT = 36;

    private final byte[] client;
    private final Payloads payloads;
    private final int messageBytes;
    private final int maxMessages;
    private final byte[] frame;
    private final byte[] batchChecksumInput;

    /** {@code client} is the connection's u128 as 16 little-endian bytes. */
    public SendMessagesEncoder(byte[] client, Payloads payloads, int maxMessages) {
        this.client = client.clone();
        this.payloads = payloads;
        this.messageBytes = MESSAGE_HEADER_BYTES + payloads.length();
        this.maxMessages = maxMessages;
        this.frame = new byte[Math.addExact(MESSAGES_AT, Math.multiplyExact(maxMessages, messageBytes))];
        this.batchChecksumInput = new byte[CHECKSUMMED_HEADER_BYTES + 4 + 8 * maxMessages];
    }

    /** The buffer {@link #encode} writes into; the request is its first {@code encode()} bytes. */
    public byte[] frame() {
        return frame;
    }

    /**
     * Encodes messages {@code firstSeq .. firstSeq + count} as request number {@code request} and
     * returns the frame's length.
     */
    public int encode(long request, long session, long originTimestampMicros, long firstSeq, int count,
                      IdMinter ids) {
        if (count < 1 || count > maxMessages) {
            throw new IllegalArgumentException(count + " messages do not fit a batch of 1.." + maxMessages);
        }
        int batchLength = BATCH_HEADER_BYTES + count * messageBytes;
        int frameLength = MESSAGES_AT + count * messageBytes;
        SendMessagesHead.write(frame, client, request, session, count, batchLength);
        LittleEndian.putLong(frame, BATCH_AT + ORIGIN_TIMESTAMP_AT, originTimestampMicros);
        LittleEndian.putLong(frame, BATCH_AT + BATCH_LENGTH_AT, batchLength);
        LittleEndian.putInt(frame, BATCH_AT + MESSAGE_COUNT_AT, count);

        int checksumAt = CHECKSUMMED_HEADER_BYTES + 4;
        for (int i = 0; i < count; i++) {
            int at = MESSAGES_AT + i * messageBytes;
            ids.mintInto(frame, at + ID_AT);
            LittleEndian.putInt(frame, at + OFFSET_DELTA_AT, i);
            LittleEndian.putInt(frame, at + PAYLOAD_LENGTH_AT, payloads.length());
            payloads.write(firstSeq + i, frame, at + MESSAGE_HEADER_BYTES);
            long checksum = Checksums.xxh3(frame, at + ID_AT, messageBytes - ID_AT);
            LittleEndian.putLong(frame, at, checksum);
            LittleEndian.putLong(batchChecksumInput, checksumAt, checksum);
            checksumAt += 8;
        }
        System.arraycopy(frame, BATCH_AT, batchChecksumInput, 0, CHECKSUMMED_HEADER_BYTES);
        LittleEndian.putInt(batchChecksumInput, CHECKSUMMED_HEADER_BYTES, count);
        LittleEndian.putLong(frame, BATCH_AT + BATCH_CHECKSUM_AT,
                Checksums.xxh3(batchChecksumInput, 0, checksumAt));
        return frameLength;
    }
}
