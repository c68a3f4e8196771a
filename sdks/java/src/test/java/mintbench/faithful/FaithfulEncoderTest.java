package mintbench.faithful;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import mintbench.Vectors;
import mintbench.id.MessageIds;
import mintbench.mint.IdMinter;
import mintbench.mint.PresetMinter;
import mintbench.wire.Checksums;
import mintbench.wire.FrameWriter;
import mintbench.wire.Payloads;
import mintbench.wire.SendMessagesEncoder;
import org.junit.jupiter.api.Test;

class FaithfulEncoderTest {
    private static final ZeroIdReplacement NEVER = batch -> {
        throw new AssertionError("a non-zero ID must not be replaced");
    };

    @Test
    void vectorFramesAreTheLeanPathsBytes() throws IOException {
        int checked = 0;
        for (JsonNode vector : Vectors.entries(Vectors.section("frames"))) {
            if (!vector.get("kind").asText().equals("send_messages")) {
                continue;
            }
            byte[] client = MessageIds.serializeMessageId(vector.get("client").asText());
            Payloads payloads = new Payloads(vector.get("bits").asInt(), vector.get("pack").asInt());
            JsonNode ids = vector.get("ids");
            byte[] idBytes = new byte[16 * ids.size()];
            List<Message> messages = new ArrayList<>();
            long firstSeq = vector.get("first_seq").asLong();
            for (int i = 0; i < ids.size(); i++) {
                System.arraycopy(MessageIds.serializeMessageId(ids.get(i).asText()), 0, idBytes, 16 * i, 16);
                byte[] payload = new byte[payloads.length()];
                payloads.write(firstSeq + i, payload, 0);
                messages.add(new Message(UuidMessageId.fromWireBytes(idBytes, 16 * i), payload));
            }
            long request = vector.get("request").asLong();
            long session = vector.get("session").asLong();
            long origin = vector.get("origin_timestamp").asLong();

            byte[] faithful = bytes(new FaithfulEncoder(client, NEVER).encode(request, session, origin, messages));
            SendMessagesEncoder lean = new SendMessagesEncoder(client, payloads, ids.size());
            int length = lean.encode(request, session, origin, firstSeq, ids.size(), new PresetMinter(idBytes));

            assertEquals(vector.get("hex").asText(), Vectors.hex(faithful));
            assertArrayEquals(Arrays.copyOf(lean.frame(), length), faithful);
            checked++;
        }
        assertTrue(checked >= 2, "the vectors hold " + checked + " send_messages frames");
    }

    @Test
    void onlyAZeroIdIsReplacedOncePerMessage() throws IOException {
        byte[] minted = new byte[16];
        Arrays.fill(minted, (byte) 0x5A);
        int[] calls = {0};
        ZeroIdReplacement counting = batch -> {
            calls[0]++;
            batch.writeBytes(minted);
        };
        byte[] given = MessageIds.serializeMessageId(new BigInteger("123456789"));
        List<Message> messages = List.of(new Message(UuidMessageId.ZERO, new byte[] {1}),
                new Message(UuidMessageId.fromWireBytes(given, 0), new byte[] {2}),
                new Message(UuidMessageId.ZERO, new byte[] {3}));
        byte[] frame = bytes(new FaithfulEncoder(new byte[16], counting).encode(1, 2, 3, messages));
        assertEquals(2, calls[0]);
        int messagesAt = 282 + 256;
        assertArrayEquals(minted, Arrays.copyOfRange(frame, messagesAt + 8, messagesAt + 24));
        assertArrayEquals(given, Arrays.copyOfRange(frame, messagesAt + 49 + 8, messagesAt + 49 + 24));
        assertArrayEquals(minted, Arrays.copyOfRange(frame, messagesAt + 98 + 8, messagesAt + 98 + 24));
    }

    @Test
    void aMintedReplacementTakesTheBatchsZeroIdsInOneFillAndWritesThemInOrder() throws IOException {
        List<Integer> fills = new ArrayList<>();
        IdMinter numbered = new IdMinter() {
            private int next = 1;

            @Override
            public void mintInto(byte[] dst, int offset) {
                dst[offset] = (byte) next++;
            }

            @Override
            public void fill(byte[] dst, int offset, int count) {
                fills.add(count);
                IdMinter.super.fill(dst, offset, count);
            }
        };
        byte[] given = MessageIds.serializeMessageId(new BigInteger("123456789"));
        UuidMessageId givenId = UuidMessageId.fromWireBytes(given, 0);
        FaithfulEncoder encoder = new FaithfulEncoder(new byte[16], ZeroIdReplacement.minted(numbered));
        byte[] first = bytes(encoder.encode(1, 2, 3, List.of(new Message(UuidMessageId.ZERO, new byte[] {1}),
                new Message(givenId, new byte[] {2}), new Message(UuidMessageId.ZERO, new byte[] {3}),
                new Message(UuidMessageId.ZERO, new byte[] {4}))));
        byte[] second = bytes(encoder.encode(2, 2, 3, List.of(new Message(UuidMessageId.ZERO, new byte[] {5}),
                new Message(UuidMessageId.ZERO, new byte[] {6}))));
        assertEquals(List.of(3, 2), fills);
        int messagesAt = 282 + 256;
        assertArrayEquals(new byte[] {1, given[0], 2, 3}, idFirstBytes(first, messagesAt, 4));
        assertArrayEquals(given, Arrays.copyOfRange(first, messagesAt + 49 + 8, messagesAt + 49 + 24));
        assertArrayEquals(new byte[] {4, 5}, idFirstBytes(second, messagesAt, 2));
    }

    // the first byte of each 1-byte-payload message's ID
    private static byte[] idFirstBytes(byte[] frame, int messagesAt, int count) {
        byte[] firsts = new byte[count];
        for (int i = 0; i < count; i++) {
            firsts[i] = frame[messagesAt + 49 * i + 8];
        }
        return firsts;
    }

    @Test
    void uuidIdIsLeastThenMostSignificantLongLittleEndian() {
        UUID uuid = new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L);
        UuidMessageId id = new UuidMessageId(uuid);
        byte[] wire = FaithfulEncoder.readAllBytes(id.toBytes());
        assertEquals("100f0e0d0c0b0a09" + "0807060504030201", Vectors.hex(wire));
        assertEquals(new BigInteger("0102030405060708090A0B0C0D0E0F10", 16), id.toBigInteger());
        assertArrayEquals(wire, FaithfulEncoder.readAllBytes(UuidMessageId.fromWireBytes(wire, 0).toBytes()));
        assertEquals(0, UuidMessageId.ZERO.toBigInteger().signum());
        assertEquals(1, new UuidMessageId(new UUID(Long.MIN_VALUE, 0)).toBigInteger().signum()); // unsigned
    }

    @Test
    void checksumOfABufferWithoutArrayIsTheSame() {
        byte[] data = new byte[300];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 7 + 1);
        }
        ByteBuf heap = Unpooled.wrappedBuffer(data);
        ByteBuf direct = Unpooled.directBuffer(data.length).writeBytes(data);
        assertTrue(heap.hasArray());
        assertFalse(direct.hasArray());
        for (int length : new int[] {0, 16, 240, 299}) {
            long expected = Checksums.xxh3(data, 1, length);
            assertEquals(expected, FaithfulEncoder.xxh3(heap, 1, length), "heap " + length);
            assertEquals(expected, FaithfulEncoder.xxh3(direct, 1, length), "direct " + length);
        }
        direct.release();
    }

    static byte[] bytes(FrameWriter frame) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        frame.writeTo(out);
        return out.toByteArray();
    }
}
