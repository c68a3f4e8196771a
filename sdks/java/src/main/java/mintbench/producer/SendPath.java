package mintbench.producer;

import java.util.List;
import mintbench.mint.Strategies;

/** SEND_PATH: how much of the SDK's per-message work a producer does besides minting the ID. */
enum SendPath {
    /** Our producer: only the ID path is the SDK's; frames are built straight into one reused array. */
    LEAN("lean", Strategies.NAMES),
    /** The Iggy Java SDK's serializer before the ID fix (see {@code mintbench.faithful}). */
    FAITHFUL("faithful", List.of("uuid", "fast", "preset", "counter"));

    final String setting;
    /** The MSG_ID names this path accepts. */
    final List<String> msgIds;

    SendPath(String setting, List<String> msgIds) {
        this.setting = setting;
        this.msgIds = msgIds;
    }

    static SendPath named(String setting) throws ProducerException {
        for (SendPath path : values()) {
            if (path.setting.equals(setting)) {
                return path;
            }
        }
        throw new ProducerException("SEND_PATH=" + setting + " is unknown; expected one of lean, faithful");
    }
}
