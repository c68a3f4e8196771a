package mintbench.wire;

import static mintbench.LittleEndian.getInt;
import static mintbench.LittleEndian.getLong;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import mintbench.LittleEndian;
import mintbench.Vectors;
import mintbench.id.MessageIds;
import mintbench.mint.PresetMinter;
import org.junit.jupiter.api.Test;

class FramesTest {
    private static final byte[] CLIENT = MessageIds.serializeMessageId(new BigInteger("123456789012345678901234567890"));

    @Test
    void vectorFramesOfEveryKind() {
        Set<String> kinds = new TreeSet<>();
        for (JsonNode vector : Vectors.entries(Vectors.section("frames"))) {
            String kind = vector.get("kind").asText();
            kinds.add(kind);
            assertEquals(vector.get("hex").asText(), Vectors.hex(encode(kind, vector)), kind + " " + vector.get("request"));
        }
        assertEquals(Set.of("login", "logout", "send_messages"), kinds);
    }

    private static byte[] encode(String kind, JsonNode vector) {
        byte[] client = u128(vector, "client");
        switch (kind) {
            case "login":
                return SessionFrames.login(client, u128(vector, "request_checksum"), text(vector, "sdk_name"),
                        text(vector, "sdk_version"), text(vector, "username"), text(vector, "password"));
            case "logout":
                return SessionFrames.logout(client, vector.get("request").asLong(), vector.get("session").asLong());
            case "send_messages":
                assertEquals(List.of(1, 1, 0), List.of(vector.get("stream").asInt(), vector.get("topic").asInt(),
                        vector.get("partition").asInt()), "this encoder sends to stream 1, topic 1, partition 0");
                JsonNode ids = vector.get("ids");
                byte[] idBytes = new byte[16 * ids.size()];
                for (int i = 0; i < ids.size(); i++) {
                    System.arraycopy(MessageIds.serializeMessageId(ids.get(i).asText()), 0, idBytes, 16 * i, 16);
                }
                SendMessagesEncoder encoder = new SendMessagesEncoder(client,
                        new Payloads(vector.get("bits").asInt(), vector.get("pack").asInt()), ids.size());
                int length = encoder.encode(vector.get("request").asLong(), vector.get("session").asLong(),
                        vector.get("origin_timestamp").asLong(), vector.get("first_seq").asLong(), ids.size(),
                        new PresetMinter(idBytes));
                return Arrays.copyOf(encoder.frame(), length);
            default:
                throw new AssertionError("unknown frame kind " + kind);
        }
    }

    @Test
    void loginCarriesCredentialsAndSdkName() {
        byte[] checksum = new byte[16];
        checksum[3] = 7;
        byte[] frame = SessionFrames.login(CLIENT, checksum);
        assertEquals(frame.length, getInt(frame, 48));
        assertEquals(5, frame[60]);
        assertArrayEquals(CLIENT, Arrays.copyOfRange(frame, 128, 144));
        assertArrayEquals(checksum, Arrays.copyOfRange(frame, 144, 160));
        assertEquals(0, getLong(frame, 168));
        assertEquals(1, frame[176]);
        String body = HexFormat.of().formatHex(frame, 256, frame.length);
        assertEquals("02300000" + "0e" + ascii("mintbench-java") + "05" + ascii("0.1.0") + "00".repeat(32)
                + "04" + ascii("iggy") + "04" + ascii("iggy") + "00000000", body);
    }

    @Test
    void logoutIsAHeaderWithTheSession() {
        byte[] frame = SessionFrames.logout(CLIENT, 42, 99);
        assertEquals(256, frame.length);
        assertEquals(256, getInt(frame, 48));
        assertEquals(42, getLong(frame, 168));
        assertEquals(3, frame[176]);
        assertEquals(99, getLong(frame, 184));
    }

    @Test
    void sendMessagesBatchAddsUp() {
        int count = 3;
        byte[] ids = new byte[16 * count];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = (byte) (i + 1);
        }
        Payloads payloads = new Payloads(42, 2);
        SendMessagesEncoder encoder = new SendMessagesEncoder(CLIENT, payloads, 5);
        int length = encoder.encode(7, 99, 1_700_000_000_000_000L, 1000, count, new PresetMinter(ids));
        byte[] frame = encoder.frame();
        int messageBytes = 48 + payloads.length();

        assertEquals(256 + 4 + 22 + 256 + count * messageBytes, length);
        assertEquals(length, getInt(frame, 48));
        assertEquals(160, Byte.toUnsignedInt(frame[176]));
        assertEquals(7, getLong(frame, 168));
        assertEquals(99, getLong(frame, 184));
        assertEquals(22, getInt(frame, 256));
        assertEquals(count, getInt(frame, 278));
        int batch = 282;
        assertEquals(1_700_000_000_000_000L, getLong(frame, batch + 24));
        assertEquals(256 + count * messageBytes, getLong(frame, batch + 32));
        assertEquals(count, getInt(frame, batch + 48));

        byte[] checksummed = new byte[44 + 8 * count];
        System.arraycopy(frame, batch, checksummed, 0, 40);
        LittleEndian.putInt(checksummed, 40, count);
        for (int i = 0; i < count; i++) {
            int at = batch + 256 + i * messageBytes;
            assertArrayEquals(Arrays.copyOfRange(ids, 16 * i, 16 * i + 16), Arrays.copyOfRange(frame, at + 8, at + 24));
            assertEquals(i, getInt(frame, at + 24));
            assertEquals(payloads.length(), getInt(frame, at + 36));
            byte[] payload = new byte[payloads.length()];
            payloads.write(1000 + i, payload, 0);
            assertArrayEquals(payload, Arrays.copyOfRange(frame, at + 48, at + messageBytes));
            long checksum = getLong(frame, at);
            assertEquals(Checksums.xxh3(frame, at + 8, messageBytes - 8), checksum, "message " + i);
            LittleEndian.putLong(checksummed, 44 + 8 * i, checksum);
        }
        assertEquals(Checksums.xxh3(checksummed, 0, checksummed.length), getLong(frame, batch + 40));
    }

    private static byte[] u128(JsonNode vector, String field) {
        return MessageIds.serializeMessageId(vector.get(field).asText());
    }

    private static String text(JsonNode vector, String field) {
        return vector.get(field).asText();
    }

    private static String ascii(String text) {
        return HexFormat.of().formatHex(text.getBytes(StandardCharsets.US_ASCII));
    }
}
