package mintbench.faithful;

/** What an application hands the SDK per message: an ID (zero: the SDK mints) and the payload. */
public record Message(UuidMessageId id, byte[] payload) {}
