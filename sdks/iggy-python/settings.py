"""The producer's settings, read from the SDK contract's environment variables
(sdks/README.md, "Producer settings")."""

from dataclasses import dataclass

from ids import STRATEGIES

SEND_PATHS = ("faithful",)


class SettingsError(Exception):
    """A setting is missing or out of range; the message names it."""


@dataclass(frozen=True)
class Settings:
    server: str
    msg_ids: tuple
    paired: bool
    seed: int
    bits: int
    pack: int
    batch: int
    messages: int
    warmup: int
    inject_ns: int
    inject_arm: int

    @property
    def warmup_batches(self):
        """The warm-up is whole batches (whole blocks in paired mode): ceil(WARMUP / BATCH)."""
        return -(-self.warmup // self.batch)

    @property
    def batches(self):
        return -(-self.messages // self.batch)


def settings_from_env(env):
    """Settings from a mapping like os.environ, or SettingsError for the first bad one."""
    server = _required(env, "SERVER")
    mode = env.get("MODE") or "producer"
    if mode != "producer":
        raise SettingsError(f"MODE={mode} is not available: this row only sends (MODE=producer)")
    send_path = env.get("SEND_PATH") or "faithful"
    if send_path not in SEND_PATHS:
        raise SettingsError(
            f"SEND_PATH={send_path} is unknown; expected one of {', '.join(SEND_PATHS)} "
            "(the released client's own send path)")
    paired = _number(env, "PAIRED", 0, default=0)
    if paired > 1:
        raise SettingsError(f"PAIRED={paired} is out of range: it must be 0 or 1")
    msg_ids = tuple(_required(env, "MSG_ID").split(",")) if paired else (_required(env, "MSG_ID"),)
    for name in msg_ids:
        if name not in STRATEGIES:
            raise SettingsError(f"MSG_ID={name} is unknown; expected one of {', '.join(STRATEGIES)}")
    if paired and len(msg_ids) < 2:
        raise SettingsError(f"PAIRED=1 needs at least two arms in MSG_ID, got {','.join(msg_ids)}")
    bits = _number(env, "BITS", 1)
    if bits > 64:
        raise SettingsError(f"BITS={bits} is out of range: it must be 1..=64")
    batch = _number(env, "BATCH", 1)
    messages = _number(env, "MESSAGES", 1)
    if messages < batch:
        raise SettingsError(f"MESSAGES={messages} is below BATCH={batch}")
    inject_arm = _number(env, "INJECT_ARM", 0, default=0)
    if inject_arm >= len(msg_ids):
        raise SettingsError(f"INJECT_ARM={inject_arm} is outside the {len(msg_ids)} arm(s) of MSG_ID")
    settings = Settings(
        server=server, msg_ids=msg_ids, paired=bool(paired), seed=_number(env, "SEED", 0, default=0),
        bits=bits, pack=_number(env, "PACK", 1), batch=batch, messages=messages,
        warmup=_number(env, "WARMUP", 0), inject_ns=_number(env, "INJECT_NS", 0, default=0),
        inject_arm=inject_arm)
    if settings.warmup_batches >= settings.batches:
        raise SettingsError(
            f"WARMUP={settings.warmup} leaves no timed batch of MESSAGES={messages} in batches of {batch}")
    if settings.seed >= 1 << 64:
        raise SettingsError(f"SEED={settings.seed} is out of range: it must be a u64")
    return settings


def _required(env, name):
    value = env.get(name)
    if not value:
        raise SettingsError(f"{name} is not set")
    return value


def _number(env, name, minimum, default=None):
    text = env.get(name)
    if not text and default is not None:
        return default
    text = _required(env, name)
    if not (text.isascii() and text.isdigit()) or int(text) < minimum:
        raise SettingsError(f"{name}={text} is out of range: it must be a whole number >= {minimum}")
    return int(text)
