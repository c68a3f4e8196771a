package mintbench.producer;

/** A setting or server problem, reported as one {@code error: ...} line and a non-zero exit. */
public final class ProducerException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProducerException(String message) {
        super(message);
    }

    public ProducerException(String message, Throwable cause) {
        super(message, cause);
    }
}
