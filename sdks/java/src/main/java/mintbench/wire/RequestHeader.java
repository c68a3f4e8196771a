package mintbench.wire;

import mintbench.LittleEndian;

/** The 256-byte header in front of every request; fields our producer leaves at 0 are not written. */
final class RequestHeader {
    static final int SIZE = 256;
    /** The request_checksum of every request but the login. */
    static final byte[] NO_CHECKSUM = new byte[16];

    private static final int SIZE_AT = 48;
    private static final int COMMAND_AT = 60;
    private static final int CLIENT_AT = 128;
    private static final int REQUEST_CHECKSUM_AT = 144;
    private static final int REQUEST_AT = 168;
    private static final int OPERATION_AT = 176;
    private static final int SESSION_AT = 184;
    private static final byte COMMAND_REQUEST = 5;

    private RequestHeader() {}

    /**
     * Writes the header at the start of {@code frame}, whose other header bytes must be 0.
     * {@code client} and {@code requestChecksum} are u128s as 16 little-endian bytes.
     */
    static void write(byte[] frame, int bodyLength, byte[] client, byte[] requestChecksum,
                      long request, Operation operation, long session) {
        LittleEndian.putInt(frame, SIZE_AT, SIZE + bodyLength);
        frame[COMMAND_AT] = COMMAND_REQUEST;
        System.arraycopy(client, 0, frame, CLIENT_AT, 16);
        System.arraycopy(requestChecksum, 0, frame, REQUEST_CHECKSUM_AT, 16);
        LittleEndian.putLong(frame, REQUEST_AT, request);
        frame[OPERATION_AT] = operation.code;
        LittleEndian.putLong(frame, SESSION_AT, session);
    }
}
