package mintbench.wire;

import java.nio.charset.StandardCharsets;
import mintbench.LittleEndian;

/** The LOGIN_REGISTER and LOGOUT requests that open and close a producer's session. */
public final class SessionFrames {
    public static final String SDK_NAME = "mintbench-java";
    public static final String SDK_VERSION = "0.1.0";
    public static final String USERNAME = "iggy";
    public static final String PASSWORD = "iggy";

    private static final int PROTOCOL_VERSION = 0x3002; // 0.12.2 as major<<20 | minor<<10 | patch
    private static final int BIND_SECRET_BYTES = 32;

    private SessionFrames() {}

    /** This producer's login: request 0 of a connection; {@code requestChecksum} is random and non-zero. */
    public static byte[] login(byte[] client, byte[] requestChecksum) {
        return login(client, requestChecksum, SDK_NAME, SDK_VERSION, USERNAME, PASSWORD);
    }

    public static byte[] login(byte[] client, byte[] requestChecksum, String sdkName, String sdkVersion,
                               String username, String password) {
        byte[][] strings = {ascii(sdkName), ascii(sdkVersion), ascii(username), ascii(password)};
        int bodyLength = 4 + BIND_SECRET_BYTES + 4;
        for (byte[] string : strings) {
            bodyLength += 1 + string.length;
        }
        byte[] frame = new byte[RequestHeader.SIZE + bodyLength];
        RequestHeader.write(frame, bodyLength, client, requestChecksum, 0, Operation.LOGIN_REGISTER, 0);
        int at = RequestHeader.SIZE;
        LittleEndian.putInt(frame, at, PROTOCOL_VERSION);
        at = putString(frame, at + 4, strings[0]);
        at = putString(frame, at, strings[1]);
        at += BIND_SECRET_BYTES; // zeros
        at = putString(frame, at, strings[2]);
        at = putString(frame, at, strings[3]);
        LittleEndian.putInt(frame, at, 0); // context length, no context
        return frame;
    }

    public static byte[] logout(byte[] client, long request, long session) {
        byte[] frame = new byte[RequestHeader.SIZE];
        RequestHeader.write(frame, 0, client, RequestHeader.NO_CHECKSUM, request, Operation.LOGOUT, session);
        return frame;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static int putString(byte[] frame, int at, byte[] string) {
        frame[at] = (byte) string.length;
        System.arraycopy(string, 0, frame, at + 1, string.length);
        return at + 1 + string.length;
    }
}
