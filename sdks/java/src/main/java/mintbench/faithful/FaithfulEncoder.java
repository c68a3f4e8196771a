package mintbench.faithful;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import mintbench.wire.FrameWriter;
import mintbench.wire.SendMessagesHead;

/**
 * The faithful send path: SEND_MESSAGES built with the per-message work of the Iggy Java SDK's
 * serializer before the ID fix. Per message the ID's {@code BigInteger} is built to test it for
 * zero, a zero ID is replaced (by a UUID in the SDK), the ID's bytes are copied out of their Netty
 * buffer, and the message is written into a Netty buffer sized for the whole batch; checksums use
 * hash4j's XXH3. The bytes are the contract's, the same as the lean path's for the same IDs.
 */
public final class FaithfulEncoder {
    private static final Hasher64 XXH3 = Hashing.xxh3_64();
    private static final int BATCH_HEADER_BYTES = 256;
    private static final int MESSAGE_HEADER_BYTES = 48;
    private static final int BATCH_CHECKSUM_AT = 40;
    // the batch checksum covers the five u64s before it, then message_count, then each message checksum
    private static final int CHECKSUMMED_HEADER_BYTES = 5 * 8;

    private final byte[] client;
    private final ZeroIdReplacement zeroIds;
    private final byte[] head = new byte[SendMessagesHead.SIZE];

    /** {@code client} is the connection's u128 as 16 little-endian bytes. */
    public FaithfulEncoder(byte[] client, ZeroIdReplacement zeroIds) {
        this.client = client.clone();
        this.zeroIds = zeroIds;
    }

    /** Encodes {@code messages} as request number {@code request}; valid until the next call. */
    public FrameWriter encode(long request, long session, long originTimestampMicros, List<Message> messages) {
        int count = messages.size();
        int blobLength = 0;
        for (Message message : messages) {
            blobLength += MESSAGE_HEADER_BYTES + message.payload().length;
        }
        ByteBuf batch = Unpooled.buffer(BATCH_HEADER_BYTES + blobLength);
        batch.writeLongLE(0); // partition_id
        batch.writeLongLE(0); // base_offset
        batch.writeLongLE(0); // base_timestamp
        batch.writeLongLE(originTimestampMicros);
        batch.writeLongLE(BATCH_HEADER_BYTES + blobLength);
        batch.writeLongLE(0); // batch checksum, set once the messages are in
        batch.writeIntLE(count);
        batch.writeZero(BATCH_HEADER_BYTES - batch.writerIndex());

        zeroIds.startBatch(messages);
        ByteBuf checksummed = Unpooled.buffer(CHECKSUMMED_HEADER_BYTES + 4 + 8 * count);
        checksummed.writeBytes(batch, 0, CHECKSUMMED_HEADER_BYTES);
        checksummed.writeIntLE(count);
        for (int i = 0; i < count; i++) {
            Message message = messages.get(i);
            int start = batch.writerIndex();
            batch.writeLongLE(0); // checksum, set once the message is in
            writeId(batch, message.id());
            batch.writeIntLE(i); // offset_delta
            batch.writeIntLE(0); // timestamp_delta
            batch.writeIntLE(0); // user_headers_length
            batch.writeIntLE(message.payload().length);
            batch.writeLongLE(0); // reserved
            batch.writeBytes(message.payload());
            long checksum = xxh3(batch, start + 8, batch.writerIndex() - start - 8);
            batch.setLongLE(start, checksum);
            checksummed.writeLongLE(checksum);
        }
        batch.setLongLE(BATCH_CHECKSUM_AT, xxh3(checksummed, 0, checksummed.readableBytes()));

        SendMessagesHead.write(head, client, request, session, count, batch.readableBytes());
        return out -> {
            out.write(head);
            batch.getBytes(batch.readerIndex(), out, batch.readableBytes());
        };
    }

    /** The SDK's ID step: the ID as a BigInteger for its sign; zero is replaced, else its bytes are copied out. */
    private void writeId(ByteBuf batch, UuidMessageId id) {
        if (id.toBigInteger().signum() == 0) {
            zeroIds.writeNewId(batch);
        } else {
            batch.writeBytes(readAllBytes(id.toBytes()));
        }
    }

    /** XXH3-64 of {@code length} bytes at {@code index}; a buffer without a backing array is copied out first. */
    static long xxh3(ByteBuf buffer, int index, int length) {
        if (buffer.hasArray()) {
            return XXH3.hashBytesToLong(buffer.array(), buffer.arrayOffset() + index, length);
        }
        byte[] copy = new byte[length];
        buffer.getBytes(index, copy);
        return XXH3.hashBytesToLong(copy);
    }

    /** Copies every readable byte of {@code buffer} into a new array. */
    static byte[] readAllBytes(ByteBuf buffer) {
        byte[] bytes = new byte[buffer.readableBytes()];
        buffer.readBytes(bytes);
        return bytes;
    }
}
