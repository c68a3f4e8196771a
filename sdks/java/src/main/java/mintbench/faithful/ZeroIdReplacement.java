package mintbench.faithful;

import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import mintbench.mint.IdMinter;

/** Where the serializer gets the 16 wire bytes of an ID for a message whose ID is zero. */
@FunctionalInterface
public interface ZeroIdReplacement {
    /** Writes the next replacement ID into {@code batch}. */
    void writeNewId(ByteBuf batch);

    /** Called once per batch before its first message. */
    default void startBatch(List<Message> messages) {}

    /** The SDK before the fix ({@code uuid}): a UUID message ID, its Netty buffer read out into a new array. */
    static ZeroIdReplacement uuid(Supplier<UUID> source) {
        return batch -> batch.writeBytes(FaithfulEncoder.readAllBytes(new UuidMessageId(source.get()).toBytes()));
    }

    /**
     * The same path with the UUID replaced by a minter ({@code fast}, {@code counter}): the IDs of
     * every zero-ID message of a batch minted in one call into a reused array, then read per message.
     */
    static ZeroIdReplacement minted(IdMinter minter) {
        return new ZeroIdReplacement() {
            private byte[] ids = new byte[0];
            private int filled;
            private int next;

            @Override
            public void startBatch(List<Message> messages) {
                int zeroIds = 0;
                for (Message message : messages) {
                    if (message.id().isZero()) {
                        zeroIds++;
                    }
                }
                filled = zeroIds * IdMinter.ID_BYTES;
                if (ids.length < filled) {
                    ids = new byte[filled];
                }
                minter.fill(ids, 0, zeroIds);
                next = 0;
            }

            @Override
            public void writeNewId(ByteBuf batch) {
                if (next == filled) {
                    throw new IllegalStateException("more zero IDs than the batch had when it started");
                }
                batch.writeBytes(ids, next, IdMinter.ID_BYTES);
                next += IdMinter.ID_BYTES;
            }
        };
    }
}
