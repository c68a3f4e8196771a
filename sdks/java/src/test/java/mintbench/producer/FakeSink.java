package mintbench.producer;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import mintbench.LittleEndian;

/**
 * A one-connection stand-in for the Rust sink: answers login, SEND_MESSAGES and logout, and records
 * what arrived, decoding each message's sequence number from a BITS=64 payload.
 */
final class FakeSink implements AutoCloseable {
    enum Fault { NONE, CLOSE_AFTER_LOGIN, REJECT_FIRST_SEND }

    static final long SESSION = 77;
    private static final long SPREAD = 0xA5A5A5A5A5A5A5A5L;
    private static final int BATCH_MESSAGES_AT = 22 + 4 + 256; // in the SEND_MESSAGES body

    final List<Long> seqs = Collections.synchronizedList(new ArrayList<>());
    final List<Long> requests = Collections.synchronizedList(new ArrayList<>());
    /** The message IDs of each SEND_MESSAGES request, in arrival order. */
    final List<List<byte[]>> batchIds = Collections.synchronizedList(new ArrayList<>());
    volatile boolean loggedOut;
    volatile boolean wrongSession;

    private final ServerSocket server;
    private final Fault fault;
    private final Thread thread;

    FakeSink(Fault fault) throws IOException {
        this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        this.fault = fault;
        this.thread = new Thread(this::serve, "fake-sink");
        thread.setDaemon(true);
        thread.start();
    }

    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    private void serve() {
        try (Socket socket = server.accept()) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                byte[] header = new byte[256];
                in.readFully(header);
                byte[] body = new byte[LittleEndian.getInt(header, 48) - 256];
                in.readFully(body);
                long request = LittleEndian.getLong(header, 168);
                int operation = Byte.toUnsignedInt(header[176]);
                requests.add(request);
                if (operation == 1) {
                    out.write(reply(request, operation, 0, loginReplyBody()));
                    if (fault == Fault.CLOSE_AFTER_LOGIN) {
                        return;
                    }
                } else if (operation == 160) {
                    wrongSession |= LittleEndian.getLong(header, 184) != SESSION;
                    recordSeqs(body);
                    boolean reject = fault == Fault.REJECT_FIRST_SEND;
                    out.write(reply(request, operation, reject ? 4000 : 0, new byte[0]));
                } else {
                    loggedOut = operation == 3;
                    out.write(reply(request, operation, 0, new byte[0]));
                    return;
                }
            }
        } catch (IOException e) {
            // the producer hung up: the test reads what was recorded
        }
    }

    private void recordSeqs(byte[] body) {
        int count = LittleEndian.getInt(body, 22);
        int at = BATCH_MESSAGES_AT;
        List<byte[]> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int payloadLength = LittleEndian.getInt(body, at + 36);
            seqs.add(LittleEndian.getLong(body, at + 48) ^ SPREAD);
            ids.add(Arrays.copyOfRange(body, at + 8, at + 24));
            at += 48 + payloadLength;
        }
        batchIds.add(ids);
    }

    private static byte[] loginReplyBody() {
        byte[] body = new byte[4 + 4 + 8 + 4 + 1];
        LittleEndian.putInt(body, 4, 1);
        LittleEndian.putLong(body, 8, SESSION);
        LittleEndian.putInt(body, 16, 0x3002);
        return body;
    }

    private static byte[] reply(long request, int operation, int status, byte[] body) {
        byte[] frame = new byte[256 + body.length];
        LittleEndian.putInt(frame, 48, frame.length);
        frame[60] = 8;
        LittleEndian.putLong(frame, 200, request);
        frame[208] = (byte) operation;
        LittleEndian.putInt(frame, 216, status);
        System.arraycopy(body, 0, frame, 256, body.length);
        return frame;
    }

    /** Waits until the connection is over, so what it recorded is complete. */
    void awaitEnd() throws InterruptedException {
        thread.join(10_000);
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
