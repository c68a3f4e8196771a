package mintbench.producer;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import mintbench.faithful.FaithfulEncoder;
import mintbench.faithful.Message;
import mintbench.faithful.UuidMessageId;
import mintbench.faithful.ZeroIdReplacement;
import mintbench.mint.IdMinter;
import mintbench.mint.Strategies;
import mintbench.wire.FrameWriter;
import mintbench.wire.Payloads;
import mintbench.wire.SendMessagesEncoder;

/** One arm's send path: builds the SEND_MESSAGES request of a batch, minting its IDs on the way. */
@FunctionalInterface
interface BatchBuilder {
    /** The request for messages {@code firstSeq .. firstSeq + count}; valid until the next call. */
    FrameWriter build(long request, long session, long originTimestampMicros, long firstSeq, int count);

    /**
     * The arm {@code msgId} on {@code path}. {@code preset} mints its {@code idsNeeded} IDs here, so
     * call it before the first send.
     */
    static BatchBuilder create(SendPath path, String msgId, byte[] client, Payloads payloads, int batch,
                               int idsNeeded) {
        return path == SendPath.LEAN
                ? lean(Strategies.create(msgId, idsNeeded), client, payloads, batch)
                : faithful(msgId, client, payloads, idsNeeded, UUID::randomUUID);
    }

    static BatchBuilder lean(IdMinter ids, byte[] client, Payloads payloads, int batch) {
        SendMessagesEncoder encoder = new SendMessagesEncoder(client, payloads, batch);
        return (request, session, origin, firstSeq, count) -> {
            int length = encoder.encode(request, session, origin, firstSeq, count, ids);
            return out -> out.write(encoder.frame(), 0, length);
        };
    }

    /**
     * As an application drives the SDK: per message a payload array and a message object, whose ID
     * is zero (the SDK mints it: {@code uuid}, or our minter in its place, a batch's IDs at once:
     * {@code fast}, or the {@code counter} floor) or one minted ahead ({@code preset}). {@code uuids}
     * is the SDK's UUID source.
     */
    static BatchBuilder faithful(String msgId, byte[] client, Payloads payloads, int idsNeeded,
                                 Supplier<UUID> uuids) {
        ZeroIdReplacement zeroIds = msgId.equals("fast") || msgId.equals("counter")
                ? ZeroIdReplacement.minted(Strategies.create(msgId, 0)) : ZeroIdReplacement.uuid(uuids);
        FaithfulEncoder encoder = new FaithfulEncoder(client, zeroIds);
        UuidMessageId[] preset = msgId.equals("preset") ? mintAhead(Strategies.create("fast", 0), idsNeeded) : null;
        int[] next = {0};
        return (request, session, origin, firstSeq, count) -> {
            List<Message> messages = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                byte[] payload = new byte[payloads.length()];
                payloads.write(firstSeq + i, payload, 0);
                messages.add(new Message(preset == null ? UuidMessageId.ZERO : preset[next[0]++], payload));
            }
            return encoder.encode(request, session, origin, messages);
        };
    }

    private static UuidMessageId[] mintAhead(IdMinter fast, int count) {
        UuidMessageId[] ids = new UuidMessageId[count];
        byte[] id = new byte[IdMinter.ID_BYTES];
        for (int i = 0; i < count; i++) {
            fast.mintInto(id, 0);
            ids[i] = UuidMessageId.fromWireBytes(id, 0);
        }
        return ids;
    }
}
