package mintbench.wire;

/** The header's operation byte for the requests our producer sends. */
public enum Operation {
    LOGIN_REGISTER(1),
    LOGOUT(3),
    SEND_MESSAGES(160);

    final byte code;

    Operation(int code) {
        this.code = (byte) code;
    }

    public int code() {
        return Byte.toUnsignedInt(code);
    }
}
