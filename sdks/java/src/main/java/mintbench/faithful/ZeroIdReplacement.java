package mintbench.faithful;

import java.util.UUID;
import java.util.function.Supplier;
import mintbench.mint.IdMinter;

/** Where the serializer gets the 16 wire bytes of an ID for a message whose ID is zero. */
@FunctionalInterface
public interface ZeroIdReplacement {
    byte[] newId();

    /** The SDK before the fix ({@code uuid}): a UUID message ID, its Netty buffer read out into a new array. */
    static ZeroIdReplacement uuid(Supplier<UUID> source) {
        return () -> FaithfulEncoder.readAllBytes(new UuidMessageId(source.get()).toBytes());
    }

    /** The same path with the UUID replaced by a minter ({@code fast}): 16 minted bytes in a new array. */
    static ZeroIdReplacement minted(IdMinter minter) {
        return () -> {
            byte[] id = new byte[IdMinter.ID_BYTES];
            minter.mintInto(id, 0);
            return id;
        };
    }
}
