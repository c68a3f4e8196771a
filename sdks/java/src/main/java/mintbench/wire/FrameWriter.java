package mintbench.wire;

import java.io.IOException;
import java.io.OutputStream;

/** A request ready to go: writes its bytes to the connection. */
@FunctionalInterface
public interface FrameWriter {
    void writeTo(OutputStream out) throws IOException;
}
