package mintbench.id;

/** A message ID that has no exact 16-byte unsigned form; {@link #kind()} says why. */
public final class InvalidMessageIdException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The error kinds of sdks/vectors.json's {@code rejected} section. */
    public enum Kind {
        NEGATIVE("is negative"),
        TOO_LARGE("is too large"),
        NOT_INTEGER("is not an integer"),
        INVALID("is not a number");

        private final String description;

        Kind(String description) {
            this.description = description;
        }
    }

    private final Kind kind;

    InvalidMessageIdException(Kind kind, String input) {
        super("message id " + input + " " + kind.description + ": expected an integer in 0..2^128-1");
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
