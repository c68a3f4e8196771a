"""The producer's settings, read from the environment variables of the SDK contract."""

from dataclasses import dataclass

from mint import STRATEGIES

MAX_BITS = 64


class SettingsError(Exception):
    """A setting is missing or out of range; the message names it."""


@dataclass(frozen=True)
class Settings:
    server: str
    host: str
    port: int
    msg_id: str
    bits: int
    pack: int
    batch: int
    messages: int
    warmup_batches: int

    @property
    def warmup_messages(self):
        return self.warmup_batches * self.batch


def settings_from_env(env):
    """Settings from a mapping like os.environ, or SettingsError for the first bad one."""
    server = _required(env, "SERVER")
    host, _, port_text = server.rpartition(":")
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise SettingsError(f"SERVER must be host:port, got {server!r}")
    msg_id = _required(env, "MSG_ID")
    if msg_id not in STRATEGIES:
        raise SettingsError(f"MSG_ID {msg_id!r} is not one of {', '.join(STRATEGIES)}")
    bits = _number(env, "BITS", 1)
    if bits > MAX_BITS:
        raise SettingsError(f"BITS must be in 1..={MAX_BITS}, got {bits}")
    pack = _number(env, "PACK", 1)
    batch = _number(env, "BATCH", 1)
    messages = _number(env, "MESSAGES", 1)
    if messages < batch:
        raise SettingsError(f"MESSAGES ({messages}) must be at least BATCH ({batch})")
    # The warm-up is whole batches: the first ceil(WARMUP / BATCH) of them.
    warmup_batches = -(-_number(env, "WARMUP", 0) // batch)
    if warmup_batches * batch >= messages:
        raise SettingsError(
            f"no timed batch left after the warm-up: WARMUP takes {warmup_batches} batches of "
            f"{batch}, MESSAGES is {messages}")
    return Settings(server, host.strip("[]"), int(port_text), msg_id, bits, pack, batch, messages,
                    warmup_batches)


def _required(env, name):
    value = env.get(name)
    if value is None or value == "":
        raise SettingsError(f"{name} is not set")
    return value


def _number(env, name, minimum):
    text = _required(env, name)
    if not text.isascii() or not text.isdigit():
        raise SettingsError(f"{name} must be a whole number >= {minimum}, got {text!r}")
    value = int(text)
    if value < minimum:
        raise SettingsError(f"{name} must be >= {minimum}, got {value}")
    return value
