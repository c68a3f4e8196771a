"""The producer's settings, read from the environment variables of the SDK contract."""

from dataclasses import dataclass

from mint import STRATEGIES

MAX_BITS = 64
MAX_U64 = 2**64 - 1
# Only our lean producer lives here; the real Python client is its own row.
SEND_PATHS = ("lean",)


class SettingsError(Exception):
    """A setting is missing or out of range; the message names it."""


@dataclass(frozen=True)
class Settings:
    server: str
    host: str
    port: int
    msg_ids: tuple  # one strategy name per arm: one arm unless paired
    paired: bool
    seed: int
    send_path: str
    bits: int
    pack: int
    batch: int
    messages: int
    warmup_batches: int
    inject_ns: int
    inject_arm: int

    @property
    def warmup_messages(self):
        return self.warmup_batches * self.batch

    @property
    def total_batches(self):
        return -(-self.messages // self.batch)


def settings_from_env(env):
    """Settings from a mapping like os.environ, or SettingsError for the first bad one."""
    server = _required(env, "SERVER")
    host, _, port_text = server.rpartition(":")
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise SettingsError(f"SERVER must be host:port, got {server!r}")
    send_path = _optional(env, "SEND_PATH", "lean")
    if send_path not in SEND_PATHS:
        raise SettingsError(f"SEND_PATH={send_path} is unknown; expected one of {', '.join(SEND_PATHS)}")
    paired = _number(env, "PAIRED", 0, unset="0")
    if paired > 1:
        raise SettingsError(f"PAIRED must be 0 or 1, got {paired}")
    msg_id = _required(env, "MSG_ID")
    msg_ids = tuple(msg_id.split(",")) if paired else (msg_id,)
    for name in msg_ids:
        if name not in STRATEGIES:
            raise SettingsError(f"MSG_ID={name} is unknown; expected one of {', '.join(STRATEGIES)}")
    if paired and len(msg_ids) < 2:
        raise SettingsError(f"PAIRED=1 needs at least two arms, MSG_ID={msg_id} has {len(msg_ids)}")
    seed = _number(env, "SEED", 0, unset="0") if paired else 0
    if seed > MAX_U64:
        raise SettingsError(f"SEED must be a u64, got {seed}")
    inject_ns = _number(env, "INJECT_NS", 0, unset="0")
    inject_arm = _number(env, "INJECT_ARM", 0, unset="0")
    if inject_arm >= len(msg_ids):
        raise SettingsError(f"INJECT_ARM={inject_arm} is outside the MSG_ID list of {len(msg_ids)} arm(s)")
    bits = _number(env, "BITS", 1)
    if bits > MAX_BITS:
        raise SettingsError(f"BITS must be in 1..={MAX_BITS}, got {bits}")
    pack = _number(env, "PACK", 1)
    batch = _number(env, "BATCH", 1)
    messages = _number(env, "MESSAGES", 1)
    if messages < batch:
        raise SettingsError(f"MESSAGES ({messages}) must be at least BATCH ({batch})")
    # The warm-up is whole batches (blocks when paired): the first ceil(WARMUP / BATCH) of them.
    warmup_batches = -(-_number(env, "WARMUP", 0) // batch)
    if warmup_batches * batch >= messages:
        raise SettingsError(
            f"no timed batch left after the warm-up: WARMUP takes {warmup_batches} batches of "
            f"{batch}, MESSAGES is {messages}")
    return Settings(server, host.strip("[]"), int(port_text), msg_ids, bool(paired), seed,
                    send_path, bits, pack, batch, messages, warmup_batches, inject_ns, inject_arm)


def _required(env, name):
    value = env.get(name)
    if value is None or value == "":
        raise SettingsError(f"{name} is not set")
    return value


def _optional(env, name, unset):
    """The settings that came with paired mode take their neutral value when unset."""
    value = env.get(name)
    return unset if value is None or value == "" else value


def _number(env, name, minimum, unset=None):
    text = _required(env, name) if unset is None else _optional(env, name, unset)
    if not text.isascii() or not text.isdigit():
        raise SettingsError(f"{name} must be a whole number >= {minimum}, got {text!r}")
    value = int(text)
    if value < minimum:
        raise SettingsError(f"{name} must be >= {minimum}, got {value}")
    return value
