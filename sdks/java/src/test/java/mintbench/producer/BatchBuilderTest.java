package mintbench.producer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import mintbench.LittleEndian;
import mintbench.wire.FrameWriter;
import mintbench.wire.Payloads;
import org.junit.jupiter.api.Test;

class BatchBuilderTest {
    private static final byte[] CLIENT = new byte[16];
    private static final Payloads PAYLOADS = new Payloads(42, 2);
    private static final int MESSAGE_BYTES = 48 + 12;
    private static final int MESSAGES_AT = 282 + 256;

    @Test
    void faithfulUuidArmAsksTheUuidSourceOncePerMessageAndSendsItsBytes() throws IOException {
        List<UUID> handed = new ArrayList<>();
        Supplier<UUID> counting = () -> {
            UUID uuid = UUID.randomUUID();
            handed.add(uuid);
            return uuid;
        };
        BatchBuilder arm = BatchBuilder.faithful("uuid", CLIENT, PAYLOADS, 0, counting);
        byte[] first = bytes(arm.build(1, 2, 3, 0, 5));
        assertEquals(5, handed.size());
        byte[] second = bytes(arm.build(2, 2, 3, 5, 3));
        assertEquals(8, handed.size());
        for (int i = 0; i < 8; i++) {
            byte[] frame = i < 5 ? first : second;
            int at = MESSAGES_AT + (i < 5 ? i : i - 5) * MESSAGE_BYTES + 8;
            UUID uuid = handed.get(i);
            assertEquals(uuid.getLeastSignificantBits(), LittleEndian.getLong(frame, at), "message " + i);
            assertEquals(uuid.getMostSignificantBits(), LittleEndian.getLong(frame, at + 8), "message " + i);
        }
    }

    @Test
    void faithfulFastPresetAndCounterArmsNeverAskTheUuidSource() throws IOException {
        Supplier<UUID> refusing = () -> {
            throw new AssertionError("the UUID source was asked");
        };
        for (String msgId : List.of("fast", "preset", "counter")) {
            BatchBuilder arm = BatchBuilder.faithful(msgId, CLIENT, PAYLOADS, 10, refusing);
            byte[] frame = bytes(arm.build(1, 2, 3, 0, 10));
            for (int i = 0; i < 10; i++) {
                int at = MESSAGES_AT + i * MESSAGE_BYTES + 8;
                assertFalse(Arrays.equals(new byte[16], Arrays.copyOfRange(frame, at, at + 16)), msgId);
            }
        }
    }

    @Test
    void bothPathsCarryTheSamePayloads() throws IOException {
        byte[] lean = bytes(BatchBuilder.create(SendPath.LEAN, "fast", CLIENT, PAYLOADS, 4, 0).build(1, 2, 3, 70, 4));
        byte[] faithful = bytes(BatchBuilder.create(SendPath.FAITHFUL, "fast", CLIENT, PAYLOADS, 4, 0)
                .build(1, 2, 3, 70, 4));
        assertEquals(lean.length, faithful.length);
        for (int i = 0; i < 4; i++) {
            int at = MESSAGES_AT + i * MESSAGE_BYTES;
            assertArrayEquals(Arrays.copyOfRange(lean, at + 24, at + MESSAGE_BYTES),
                    Arrays.copyOfRange(faithful, at + 24, at + MESSAGE_BYTES), "message " + i);
        }
    }

    static byte[] bytes(FrameWriter frame) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        frame.writeTo(out);
        return out.toByteArray();
    }
}
