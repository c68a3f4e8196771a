"""The producer's settings, read from the environment variables of the SDK contract (../README.md,
"Producer settings"). The iggy-python row parses its settings here too; each producer names the
strategies and send paths it has."""

import math
import re
from dataclasses import dataclass

MAX_BITS = 64
MAX_U64 = 2**64 - 1
# A second per message: far past calibration's needs.
MAX_INJECT_NS = 10**9
# INJECT_NS's form (../README.md): digits with an optional fraction.
DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?")


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
    inject_ns: float  # ns per message, a decimal
    inject_arm: int

    def injected_ns_per_batch(self, count):
        """The spin target of a batch of `count` messages of the injected arm: to the nearest ns,
        a half away from zero (as the other rows round; Python's round() would round it to even)."""
        return math.floor(count * self.inject_ns + 0.5)

    @property
    def warmup_messages(self):
        return self.warmup_batches * self.batch

    @property
    def total_batches(self):
        return -(-self.messages // self.batch)


def settings_from_env(env, strategies, send_paths):
    """Settings from a mapping like os.environ, or SettingsError for the first bad one. The first
    of `send_paths` is the one an unset SEND_PATH takes."""
    server = _required(env, "SERVER")
    host, _, port_text = server.rpartition(":")
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise SettingsError(f"SERVER must be host:port, got {server!r}")
    mode = _optional(env, "MODE", "producer")
    if mode != "producer":
        raise SettingsError(f"MODE={mode} is not available: this producer only sends (MODE=producer)")
    send_path = _optional(env, "SEND_PATH", send_paths[0])
    if send_path not in send_paths:
        raise SettingsError(f"SEND_PATH={send_path} is unknown; expected one of {', '.join(send_paths)}")
    paired = _number(env, "PAIRED", 0, unset="0")
    if paired > 1:
        raise SettingsError(f"PAIRED={paired} is out of range: it must be 0 or 1")
    msg_id = _required(env, "MSG_ID")
    msg_ids = tuple(msg_id.split(",")) if paired else (msg_id,)
    for name in msg_ids:
        if name not in strategies:
            raise SettingsError(f"MSG_ID={name} is unknown; expected one of {', '.join(strategies)}")
    if paired and len(msg_ids) < 2:
        raise SettingsError(f"PAIRED=1 needs at least two arms, MSG_ID={msg_id} has {len(msg_ids)}")
    seed = _number(env, "SEED", 0, unset="0") if paired else 0
    if seed > MAX_U64:
        raise SettingsError(f"SEED={seed} is out of range: it must be a u64")
    inject_ns = _decimal_ns(env, "INJECT_NS")
    inject_arm = _number(env, "INJECT_ARM", 0, unset="0")
    if inject_arm >= len(msg_ids):
        raise SettingsError(f"INJECT_ARM={inject_arm} is outside the MSG_ID list of {len(msg_ids)} arm(s)")
    bits = _number(env, "BITS", 1)
    if bits > MAX_BITS:
        raise SettingsError(f"BITS={bits} is out of range: it must be 1..={MAX_BITS}")
    pack = _number(env, "PACK", 1)
    batch = _number(env, "BATCH", 1)
    messages = _number(env, "MESSAGES", 1)
    if messages < batch:
        raise SettingsError(f"MESSAGES={messages} is below BATCH={batch}")
    # The warm-up is whole batches (blocks when paired): the first ceil(WARMUP / BATCH) of them.
    warmup = _number(env, "WARMUP", 0)
    warmup_batches = -(-warmup // batch)
    if warmup_batches * batch >= messages:
        raise SettingsError(f"WARMUP={warmup} leaves no timed batch of MESSAGES={messages} in batches of {batch}")
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


def _decimal_ns(env, name):
    text = _optional(env, name, "0")
    if not DECIMAL.fullmatch(text) or float(text) > MAX_INJECT_NS:
        raise SettingsError(f"{name}={text} is not a decimal number of ns in 0..={MAX_INJECT_NS}")
    return float(text)


def _number(env, name, minimum, unset=None):
    text = _required(env, name) if unset is None else _optional(env, name, unset)
    if not text.isascii() or not text.isdigit() or int(text) < minimum:
        raise SettingsError(f"{name}={text} is out of range: it must be a whole number >= {minimum}")
    return int(text)
