package mintbench.producer;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import mintbench.LittleEndian;
import mintbench.wire.FrameWriter;
import mintbench.wire.Operation;

/**
 * One TCP connection to an Iggy server with one request in flight: send a frame, wait for its
 * reply, check that the reply answers it with status 0. Connect and every reply wait are bounded.
 */
final class IggyConnection implements AutoCloseable {
    static final int TIMEOUT_MILLIS = 10_000;

    private static final int HEADER_BYTES = 256;
    private static final int SIZE_AT = 48;
    private static final int REQUEST_AT = 200;
    private static final int OPERATION_AT = 208;
    private static final int STATUS_AT = 216;
    private static final int MAX_REPLY_BYTES = 1 << 20;

    private final String server;
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final byte[] header = new byte[HEADER_BYTES];

    private IggyConnection(String server, Socket socket) throws IOException {
        this.server = server;
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
    }

    static IggyConnection open(String host, int port) throws ProducerException {
        String server = host + ":" + port;
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            return new IggyConnection(server, socket);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new ProducerException("cannot connect to server " + server + ": " + describe(e), e);
        }
    }

    /** Sends {@code frame} and returns the reply's body once the server acknowledges it. */
    byte[] request(FrameWriter frame, long request, Operation operation) throws ProducerException {
        try {
            frame.writeTo(out);
            return awaitReply(request, operation);
        } catch (EOFException e) {
            throw new ProducerException("server " + server + " closed the connection mid-run, awaiting the reply to "
                    + operation + " request " + request, e);
        } catch (SocketTimeoutException e) {
            throw new ProducerException("server " + server + " sent no reply to " + operation + " request "
                    + request + " within " + TIMEOUT_MILLIS / 1000 + " s", e);
        } catch (IOException e) {
            throw new ProducerException("connection to server " + server + " failed during " + operation
                    + " request " + request + ": " + describe(e), e);
        }
    }

    private byte[] awaitReply(long request, Operation operation) throws IOException, ProducerException {
        in.readFully(header);
        int size = LittleEndian.getInt(header, SIZE_AT);
        if (size < HEADER_BYTES || size > MAX_REPLY_BYTES) {
            throw new ProducerException("server " + server + " sent a reply of " + Integer.toUnsignedString(size)
                    + " bytes to " + operation + " request " + request);
        }
        byte[] body = new byte[size - HEADER_BYTES];
        in.readFully(body);
        long echoedRequest = LittleEndian.getLong(header, REQUEST_AT);
        int echoedOperation = Byte.toUnsignedInt(header[OPERATION_AT]);
        if (echoedRequest != request || echoedOperation != operation.code()) {
            throw new ProducerException("server " + server + " answered request " + echoedRequest
                    + " (operation " + echoedOperation + ") while awaiting " + operation + " request " + request);
        }
        int status = LittleEndian.getInt(header, STATUS_AT);
        if (status != 0) {
            throw new ProducerException("server " + server + " rejected " + operation + " request " + request
                    + " with status " + Integer.toUnsignedString(status));
        }
        return body;
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing left to release: the run's outcome is already decided
        }
    }

    private static String describe(IOException e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
