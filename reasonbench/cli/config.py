"""The CLI edge of the Hydra commands: every override is checked before anything runs.

* unknown keys (``out_dri=x``) and unknown group options (``model=tny``) are errors naming the
  closest valid one; adding keys (``+key=...``) or deleting them (``~key``) is refused outside
  ``hydra.*``, so a typo can never fall back to a default output;
* values are checked against the command's typed schema (:mod:`reasonbench.cli.schemas`):
  ``workers=two`` names the key and the expected type; so are a judge factory's arguments
  (``judge.args.concurrency=abc``) where :data:`~reasonbench.cli.schemas.JUDGE_ARGS` types them;
* a sweep (``seed=0,1,2`` with ``-m``) is checked value by value;
* keys a command reads otherwise than Hydra would (:class:`~reasonbench.cli.schemas.KeyReading`)
  are rewritten first into the Hydra override that gives what was typed: a verbatim value as one
  quoted string, a ``true``/``null``/number meant as text quoted;
* every interpolation is resolved, Hydra's run and sweep directories as Hydra will resolve them:
  one that names a missing or unknown key is an error naming the key that holds it, its value
  and what is missing (``out_dir = results/judge_cards/${judge.name}: judge.name is missing``).

Problems are :class:`ConfigError`, one line each.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, ListConfig, OmegaConf, open_dict
from omegaconf.errors import InterpolationToMissingValueError, OmegaConfBaseException

from reasonbench.cli.keys import help_of, opens_entries, store_keys
from reasonbench.cli.schemas import JUDGE_ARGS, KEY_READING, SCHEMAS, KeyReading
from reasonbench.registry import closest

__all__ = [
    "CONF_DIR",
    "PLUGINS_HELP",
    "ConfigError",
    "compose",
    "factory_parameters",
    "plugins_of",
    "key_help",
    "store_all_keys",
    "prepare",
    "typed_judge_args",
    "validate",
    "without_hydra",
]

CONF_DIR = Path(__file__).resolve().parents[2] / "conf"


_WHERE = "in the command line"


class ConfigError(ValueError):
    """A bad command line or config value; the message names the key."""


@dataclass(frozen=True)
class Override:
    text: str
    key: str
    values: tuple[str, ...]  # one, or every value of a sweep
    kind: str  # "change", "add", "delete"
    sweep: bool = False  # a sweep override (Hydra leaves it out of the sweep's own config)


def parse_overrides(overrides: Sequence[str]) -> list[Override]:
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser = OverridesParser.create()
    out = []
    for text in overrides:
        try:
            (parsed,) = parser.parse_overrides([text])
        except HydraException as exc:
            first = str(exc).strip().splitlines()[0]
            raise ConfigError(f"cannot parse override {text!r} ({first})") from None
        kind = "delete" if parsed.is_delete() else "add" if parsed.is_add() else "change"
        if parsed.is_force_add():
            kind = "add"
        if parsed.is_sweep_override():
            values = tuple(parsed.sweep_string_iterator())
        elif parsed.is_delete():
            values = ()
        else:
            values = (parsed.get_value_element_as_str(),)
        out.append(Override(text, parsed.key_or_group, values, kind, parsed.is_sweep_override()))
    return out


def hydra_quoted(text: str) -> str:
    """``text`` as a Hydra quoted string that the composed config reads back as exactly
    ``text`` (quotes, backslashes, ``${...}`` and newlines included)."""
    # OmegaConf: "${" opens an interpolation, "\${" is a literal "${" (backslashes before it
    # are doubled so that they stay themselves)
    text = re.sub(r"(\\*)\$\{", lambda m: m.group(1) * 2 + "\\${", text)
    # Hydra: inside '...' a run of backslashes is literal, except before a quote or at the end,
    # where it is doubled (and the quote escaped)
    text = re.sub(r"(\\*)'", lambda m: m.group(1) * 2 + "\\'", text)
    text = re.sub(r"(\\+)\Z", lambda m: m.group(1) * 2, text)
    return f"'{text}'"


_SCALARS = {"BOOL", "INT", "FLOAT"}  # and NULL, inside a list only (a top-level null is None)
_OPENS = {None, "BRACKET_OPEN", "COMMA"}
_CLOSES = {None, "BRACKET_CLOSE", "COMMA"}


def text_tokens(value: str) -> str:
    """``value`` (an override's value) with each bool or number that stands alone as a value or
    a list element — and each ``null`` inside a list — quoted: Hydra would read ``true``,
    ``1.10``, ``null`` as True, 1.1, None; quoted they stay the text typed. Function arguments
    (``range(1,3)``) and multi-token values are left to Hydra."""
    from antlr4 import InputStream, Token
    from hydra.grammar.gen.OverrideLexer import OverrideLexer

    lexer = OverrideLexer(InputStream(value))
    lexer.removeErrorListeners()  # a value Hydra cannot lex is reported by its parser later
    lexer.mode(OverrideLexer.VALUE_MODE)
    tokens: list[tuple[str, int, int, int]] = []  # (kind, start, stop, list depth)
    depth = 0
    while (token := lexer.nextToken()).type != Token.EOF:
        kind = lexer.symbolicNames[token.type]
        depth -= kind == "BRACKET_CLOSE"
        if kind != "WS":
            tokens.append((kind, token.start, token.stop, depth))
        depth += kind == "BRACKET_OPEN"
    out, end = [], 0
    for i, (kind, start, stop, level) in enumerate(tokens):
        before = tokens[i - 1][0] if i > 0 else None
        after = tokens[i + 1][0] if i + 1 < len(tokens) else None
        scalar = kind in _SCALARS or (kind == "NULL" and level > 0)
        if scalar and before in _OPENS and after in _CLOSES:
            out += [value[end:start], "'", value[start : stop + 1], "'"]
            end = stop + 1
    return "".join(out) + value[end:]


def read_as_typed(config_name: str, overrides: Sequence[str]) -> list[str]:
    """The overrides, with the command's :class:`KeyReading` keys rewritten so that Hydra
    composes exactly what was typed."""
    if config_name not in KEY_READING:
        return list(overrides)
    reading: KeyReading = KEY_READING.get(config_name)
    out = []
    for text in overrides:
        head, sep, value = text.partition("=")
        key = head.lstrip("+~")
        if sep and key in reading.verbatim:
            text = f"{head}={hydra_quoted(value)}"
        elif sep and key in reading.as_text:
            text = f"{head}={text_tokens(value)}"
        out.append(text)
    return out


def _check_unswept(config_name: str, parsed: list[Override]) -> None:
    if config_name not in KEY_READING:
        return
    for o in parsed:
        if o.key in KEY_READING.get(config_name).unswept and len(o.values) > 1:
            raise ConfigError(
                f"{o.key} cannot be swept: each job of a sweep writes to <{o.key}>/<job number>/ "
                f"(give one {o.key}), {_WHERE}"
            )


PLUGINS_HELP = "modules that register strata, metrics, judges, ... first (docs/extending.md)"


def plugins_of(overrides: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the modules ``plugins=[a.b,c]`` names, the other overrides). ``plugins`` is read here,
    at the CLI edge, before anything is composed: a plug-in may add a config group option
    (a benchmark) that the rest of the command line selects. It is not part of the composed
    config, so what a command records of its config is the same with or without plug-ins."""
    modules: list[str] = []
    rest: list[str] = []
    for text in overrides:
        if text.split("=", 1)[0].lstrip("+~") != "plugins":
            rest.append(text)
            continue
        (o,) = parse_overrides([text])
        if o.kind != "change" or len(o.values) != 1:
            raise ConfigError(f"give plug-ins as plugins=[pkg.module,...], not {text!r}, {_WHERE}")
        from hydra.core.override_parser.overrides_parser import OverridesParser

        value = OverridesParser.create().parse_override(text).value()
        names = value if isinstance(value, list) else [value]
        for name in names:
            if not isinstance(name, str) or not re.fullmatch(
                r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", name
            ):
                raise ConfigError(
                    f"plugins must name importable modules (pkg.module), got {name!r}, {_WHERE}"
                )
            modules.append(name)
    return modules, rest


def groups_of(config_name: str) -> dict[str, list[str]]:
    """The config groups a command selects in its defaults list -> their options: the files of
    ``conf/<group>/`` and those a plug-in stored in Hydra's ``ConfigStore``."""
    from hydra.core.config_store import ConfigStore

    store = ConfigStore.instance()
    text = (CONF_DIR / f"{config_name}.yaml").read_text(encoding="utf-8")
    out: dict[str, list[str]] = {}
    for match in re.finditer(r"^\s*-\s*([a-z_]+)\s*:\s*\S+", text, re.MULTILINE):
        group = match.group(1)
        if (CONF_DIR / group).is_dir():
            options = {p.stem for p in (CONF_DIR / group).glob("*.yaml")}
            if group in store.repo:
                options |= {n.removesuffix(".yaml") for n in store.list(group)}
            out[group] = sorted(options)
    return out


def store_all_keys() -> None:
    """Every command's own keys in Hydra's ``ConfigStore`` (:func:`~reasonbench.cli.keys.store_keys`):
    a command's YAML names them in its defaults list, so this runs before any composition."""
    for name in SCHEMAS:
        store_keys(name, SCHEMAS.get(name))


def compose(
    config_name: str, overrides: Sequence[str] = (), return_hydra_config: bool = False
) -> DictConfig:
    """The composed config (Hydra's compose API); composition errors are one line. The one way
    the package, its scripts and its tests compose a command's config. ``return_hydra_config``:
    keep Hydra's own node (``hydra.*``: the launcher, the run's choices)."""
    return copy.deepcopy(_composed(config_name, tuple(overrides), return_hydra_config))


@lru_cache(maxsize=64)
def _composed(
    config_name: str, overrides: tuple[str, ...], return_hydra_config: bool = False
) -> DictConfig:
    # one composition costs a few hundred ms; checking a command line composes the same base
    # several times (and a test suite composes the same commands over and over)
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.errors import HydraException

    store_all_keys()
    try:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            return hydra_compose(
                config_name, overrides=list(overrides), return_hydra_config=return_hydra_config
            )
    except (HydraException, OmegaConfBaseException) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ConfigError(first) from None


def flat_keys(node: Any, prefix: str = "") -> Iterator[str]:
    if isinstance(node, DictConfig):
        for key in node:
            path = prefix + str(key)
            yield path
            yield from flat_keys(node._get_node(key), path + ".")


def _node_at(cfg: DictConfig, key: str) -> Any:
    """The node at dotted ``key`` (a mandatory ``???`` value's included), or ``None``."""
    node: Any = cfg
    for part in key.split("."):
        # ``part in node`` is False for a mandatory (???) value: look at the keys themselves
        if not isinstance(node, DictConfig) or part not in node.keys():  # noqa: SIM118
            return None
        node = node._get_node(part)
    return node


def _has_key(cfg: DictConfig, key: str) -> bool:
    return _node_at(cfg, key) is not None


# Free-form mappings whose keys only their consumer knows: the arguments of your own judge
# factory (judge=custom) and the options of a certify plug-in; both start empty and the factory
# checks what it gets.
FREE_FORM = ("judge.args", "plugin_options")


def _open(cfg: DictConfig, key: str) -> bool:
    """Whether ``key`` is a new key of a free-form mapping (:data:`FREE_FORM`) left empty by the
    config."""
    for mapping in FREE_FORM:
        if key.startswith(mapping + ".") and _has_key(cfg, mapping):
            node: Any = cfg
            for part in mapping.split("."):
                node = node._get_node(part)
            return isinstance(node, DictConfig) and len(node) == 0
    return False


def _new_entry(config_name: str, cfg: DictConfig, key: str) -> bool:
    """Whether ``key`` adds a whole entry to a mapping its schema opens to new entries
    (:func:`~reasonbench.cli.keys.opens_entries`: ``runs.<name>`` of ``baselines``)."""
    parent, _, _ = key.rpartition(".")
    return (
        bool(parent)
        and config_name in SCHEMAS
        and opens_entries(SCHEMAS.get(config_name), parent)
        and not _has_key(cfg, key)
    )


def judge_parameters(factory: str) -> dict[str, Any]:
    """The arguments a judge factory takes, with the default its signature gives (``???`` where
    it has none): what ``judge.args`` may set, whatever the option's YAML names ({} for a factory
    without a schema, or one that cannot be inspected)."""
    import inspect

    if factory not in JUDGE_ARGS:
        return {}
    params = factory_parameters(factory)
    if not params:
        return {}
    names = [f.name for f in dataclasses.fields(JUDGE_ARGS.get(factory)())]
    empty = inspect.Parameter.empty
    return {n: "???" if params[n].default is empty else params[n].default for n in names}


def factory_parameters(factory: str) -> dict[str, Any]:
    """The parameters (``inspect.Parameter``) of registered judge factory ``factory``, with those
    of the function its ``**options`` go to (its ``forwards`` attribute) under its own; {} for a
    factory that cannot be inspected. What ``--help`` lists and a Judge Card records."""
    import inspect

    from reasonbench.judges.base import JUDGES

    try:
        build = JUDGES.get(factory)
        params = dict(inspect.signature(build).parameters)
        forwards = getattr(build, "forwards", None)
        if forwards is not None:
            params = {**dict(inspect.signature(forwards).parameters), **params}
    except (KeyError, ValueError, TypeError, ImportError, AttributeError):
        return {}
    return params


def _judge_argument(cfg: DictConfig, key: str) -> bool:
    """Whether ``key`` sets an argument of the chosen judge's factory that its YAML leaves to the
    factory's default (``judge.args.dtype=bf16``, ``judge.args.decoding.sample=true``)."""
    parts = key.split(".")
    if len(parts) < 3 or parts[:2] != ["judge", "args"] or _has_key(cfg, key):
        return False
    factory = str(OmegaConf.select(cfg, "judge.factory", default=""))
    return parts[2] in judge_parameters(factory)


def _check_groups(config_name: str, parsed: list[Override]) -> None:
    groups = groups_of(config_name)
    for o in parsed:
        if o.key not in groups:
            continue
        if o.kind != "change":
            raise ConfigError(f"{o.key} is a config group: choose it with {o.key}=OPTION, {_WHERE}")
        for value in o.values:
            if value not in groups[o.key]:
                hint = closest(value, groups[o.key])
                also = f"; did you mean {o.key}={hint}?" if hint else ""
                raise ConfigError(
                    f"unknown {o.key} {value!r} (options: {', '.join(groups[o.key])}){also}, "
                    f"{_WHERE}"
                )


def _check_keys(config_name: str, parsed: list[Override], base: DictConfig) -> list[Override]:
    """The overrides as Hydra must see them: a new key of a free-form mapping gets the ``+`` that
    Hydra's struct mode requires (the user never writes one)."""
    groups = groups_of(config_name)
    keys = list(flat_keys(base))
    out = []
    for o in parsed:
        opened = _open(base, o.key) or _new_entry(config_name, base, o.key)
        if (opened or _judge_argument(base, o.key)) and o.kind in ("change", "add"):
            text = o.text if o.kind == "add" else "+" + o.text
            out.append(dataclasses.replace(o, text=text, kind="add"))
            continue
        out.append(o)
        if o.key == "hydra" or o.key.startswith(("hydra.", "hydra/")) or o.key in groups:
            continue
        if o.kind == "delete":
            raise ConfigError(f"removing keys ({o.text!r}) is not supported, {_WHERE}")
        known = _has_key(base, o.key)
        if known and o.kind == "change":
            continue
        if known:
            raise ConfigError(f"{o.key} exists: set it with {o.key}=..., not {o.text!r}, {_WHERE}")
        hint = closest(o.key, keys)
        also = f"; did you mean {hint!r}?" if hint else ""
        command = config_name.replace("_", "-")
        raise ConfigError(
            f"unknown key {o.key!r}{also} (reasonbench {command} --help lists the keys), {_WHERE}"
        )
    return out


_TYPE_NAMES = {
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "str": "a string",
}


def _expected(schema: type, key: str) -> str:
    """A readable expected type of ``key`` from the schema's annotations."""
    import typing
    from enum import Enum

    node: Any = schema
    hint: Any = None
    for part in key.split("."):
        inner = [a for a in typing.get_args(node) if a is not type(None)]
        if type(None) in typing.get_args(node) and len(inner) == 1:
            node = inner[0]  # an optional section (judge.args.decoding): its own fields' types
        if typing.get_origin(node) is dict:  # an entry of a mapping (runs.<name>): its value type
            node = typing.get_args(node)[1]
            hint = node
            continue
        if not dataclasses.is_dataclass(node):
            return "another value"
        hints = typing.get_type_hints(node)
        if part not in hints:
            return "another value"
        hint = hints[part]
        node = hint
    optional = type(None) in typing.get_args(hint)
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    base = args[0] if optional and args else hint
    if isinstance(base, type) and issubclass(base, Enum):
        text = "one of " + ", ".join(m.value for m in base)
    elif typing.get_origin(base) in (list, tuple):
        text = "a list, e.g. [a,b]"
    elif typing.get_origin(base) is dict:
        text = "a mapping"
    else:
        text = _TYPE_NAMES.get(getattr(base, "__name__", ""), str(base))
    return text + (" or null" if optional else "")


def _check_types(config_name: str, cfg: DictConfig, setting: str) -> None:
    try:  # every interpolation, for every command
        resolved = OmegaConf.to_container(cfg, resolve=True)
    except OmegaConfBaseException as exc:
        raise ConfigError(f"{_unresolved(cfg, exc)}, {setting}") from None
    if config_name not in SCHEMAS:
        return
    schema = SCHEMAS.get(config_name)
    resolved = {k: v for k, v in resolved.items() if k != "hydra"}  # type: ignore[union-attr]
    try:
        OmegaConf.merge(OmegaConf.structured(schema), resolved)
    except OmegaConfBaseException as exc:
        key = getattr(exc, "full_key", None) or "?"
        value = _value_at(resolved, key)
        raise ConfigError(
            f"{key} must be {_expected(schema, key)}, got {value!r}, {setting}"
        ) from None
    judge = resolved.get("judge")
    if isinstance(judge, dict) and isinstance(judge.get("args"), dict):
        typed_judge_args(str(judge.get("factory")), judge["args"], setting)


def typed_judge_args(factory: str, args: dict[str, Any], setting: str = _WHERE) -> dict[str, Any]:
    """``judge.args`` converted to the types of the factory's schema (``timeout_s: 60`` becomes
    60.0), or the arguments as given for a factory without one. An argument of the wrong type is
    a :class:`ConfigError` naming ``judge.args.<key>``; one the factory does not take is left to
    :func:`reasonbench.judges.make_judge`, which lists the arguments it takes."""
    if factory not in JUDGE_ARGS:
        return dict(args)
    schema = JUDGE_ARGS.get(factory)()
    known = {f.name for f in dataclasses.fields(schema)}
    given = {k: v for k, v in args.items() if k in known}
    try:
        typed = OmegaConf.merge(OmegaConf.structured(schema), given)
    except OmegaConfBaseException as exc:
        key = getattr(exc, "full_key", None) or "?"
        raise ConfigError(
            f"judge.args.{key} must be {_expected(schema, key)}, got "
            f"{_value_at(given, key)!r}, {setting}"
        ) from None
    converted: Any = OmegaConf.to_container(typed)
    return {k: converted[k] if k in given else v for k, v in args.items()}


def _first(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


_MISSING = re.compile(r"Missing mandatory value: (\S+)")
_NOT_FOUND = re.compile(r"Interpolation key '([^']+)' not found")
_ALIAS = re.compile(r"\$\{([\w.]+)\}")  # a value that is one interpolation of another key


def _raw(cfg: DictConfig, key: str) -> Any:
    """The value of ``key`` as written (an interpolation unresolved), or ``None``."""
    node = _node_at(cfg, key)
    return node._value() if hasattr(node, "_value") else None


def _written(cfg: DictConfig, key: str) -> str:
    """``key``'s value as written, followed through plain aliases: ``${out_dir} = out/${cases}``."""
    shown = [str(_raw(cfg, key))]
    seen = {key}
    while (alias := _ALIAS.fullmatch(shown[-1])) and alias.group(1) not in seen:
        seen.add(alias.group(1))
        value = _raw(cfg, alias.group(1))
        if not isinstance(value, str):
            break
        shown.append(value)
    return " = ".join(shown)


def _missing_key(exc: BaseException) -> str | None:
    """The key an interpolation needed and found without a value (``???``), if that is ``exc``."""
    match = _MISSING.search(str(exc)) if isinstance(exc, InterpolationToMissingValueError) else None
    return match.group(1) if match else None


def _unresolved(cfg: DictConfig, exc: OmegaConfBaseException, why: str = "") -> str:
    """One line for an interpolation of ``cfg`` that cannot be resolved (``exc``): the key that
    holds it, its value as written, and what is missing (``why``: the reason, if known)."""
    key = getattr(exc, "full_key", None) or "?"
    missing = _missing_key(exc)
    unknown = _NOT_FOUND.search(str(exc))
    if missing:
        what = f"{missing} is missing" + (why or f" (set {missing}=...)")
    elif unknown:
        what = f"{unknown.group(1)} is not a key"
    elif "HydraConfig was not set" in str(exc):
        what = (
            "the hydra: resolver has nothing to read yet (Hydra resolves this before its runtime "
            "config is set); write ${hydra.<key>} instead"
        )
    else:
        what = _first(exc).removesuffix(".")
    return f"{key} = {_written(cfg, key)}: {what}"


def _check_hydra_dirs(config_name: str, parsed: list[Override], composed: DictConfig) -> None:
    """Resolve Hydra's run directory, and for a sweep its sweep directory, as Hydra will: the
    sweep's own config is composed without the sweep overrides (Hydra resolves ``hydra.sweep.dir``
    once, before any job), so a swept key has its default there, or none."""
    checks = [(composed, "hydra.run.dir", "")]
    swept = [o for o in parsed if o.sweep]
    if swept:
        sweep_cfg = compose(
            config_name, [o.text for o in parsed if not o.sweep], return_hydra_config=True
        )
        texts = " ".join(o.text for o in swept)
        subdir = _raw(sweep_cfg, "hydra.sweep.subdir")
        job = "<job number>" if subdir == "${hydra.job.num}" else str(subdir)
        why = (
            f": Hydra resolves the sweep directory once, before any job, without the swept "
            f"values ({texts}), so it cannot name a swept key (each job writes to its own "
            f"<sweep directory>/{job}/)"
        )
        checks.append((sweep_cfg, "hydra.sweep.dir", why))
    for cfg, key, why in checks:
        try:
            OmegaConf.select(cfg, key, throw_on_missing=True)
        except OmegaConfBaseException as exc:
            missing = _missing_key(exc)
            reason = why if missing and any(o.key == missing for o in swept) else ""
            raise ConfigError(f"{_unresolved(cfg, exc, reason)}, {_WHERE}") from None


def _value_at(tree: Any, key: str) -> Any:
    for part in key.split("."):
        if isinstance(tree, dict) and part in tree:
            tree = tree[part]
        elif isinstance(tree, list) and part.isdigit() and int(part) < len(tree):
            tree = tree[int(part)]
        else:
            return None
    return tree


def _first_values(parsed: list[Override]) -> list[str]:
    """The overrides with every sweep at its first value."""
    return [
        f"{o.text.split('=')[0]}={o.values[0]}" if len(o.values) > 1 else o.text for o in parsed
    ]


def _variants(parsed: list[Override]) -> Iterator[tuple[list[str], str]]:
    """One override list per value of each sweep (the other sweeps at their first value), so
    every value of a sweep is type-checked without composing the whole product."""
    first = _first_values(parsed)
    yield first, _WHERE
    for i, o in enumerate(parsed):
        for value in o.values[1:]:
            variant = list(first)
            variant[i] = f"{o.text.split('=')[0]}={value}"
            yield variant, f"in the sweep {o.text!r}"


def prepare(config_name: str, overrides: Sequence[str]) -> tuple[DictConfig, list[str]]:
    """Check ``overrides`` for command ``config_name``; return the composed config (of the first
    value of every sweep; Hydra's own node included, as a run sees it) and the overrides as Hydra
    must receive them. :class:`ConfigError` on the first problem.

    A command line of known keys is composed once: the command's bare config (its groups chosen)
    is composed only to name the closest key of an unknown one, or to find that a new key goes
    into a free-form mapping (``judge.args.<key>``)."""
    parsed = parse_overrides(read_as_typed(config_name, overrides))
    _check_unswept(config_name, parsed)
    _check_groups(config_name, parsed)
    groups = groups_of(config_name)
    if not all(o.kind == "change" and not _free_form(o.key) for o in parsed) or not _composes(
        config_name, parsed
    ):
        selections = [f"{o.key}={o.values[0]}" for o in parsed if o.key in groups]
        parsed = _check_keys(config_name, parsed, compose(config_name, selections))
    composed: DictConfig | None = None
    for variant, setting in _variants(parsed):
        cfg = compose(config_name, variant, return_hydra_config=True)
        _check_types(config_name, without_hydra(cfg), setting)
        composed = composed or cfg
    assert composed is not None
    _check_hydra_dirs(config_name, parsed, composed)
    return composed, [o.text for o in parsed]


def _free_form(key: str) -> bool:
    return any(key.startswith(mapping + ".") for mapping in FREE_FORM)


def _composes(config_name: str, parsed: list[Override]) -> bool:
    """Whether the first value of every override composes (every key known); the composition is
    cached, so the checks that follow reuse it."""
    try:
        compose(config_name, _first_values(parsed), return_hydra_config=True)
    except ConfigError:
        return False
    return True


def without_hydra(cfg: DictConfig) -> DictConfig:
    """``cfg`` without Hydra's own node: what a command's ``run(cfg)`` receives."""
    task = copy.deepcopy(cfg)
    with open_dict(task):
        task.pop("hydra", None)
    return task


def validate(config_name: str, overrides: Sequence[str]) -> DictConfig:
    """:func:`prepare`'s composed config alone (without Hydra's node)."""
    return without_hydra(prepare(config_name, overrides)[0])


def key_help(config_name: str, choices: Sequence[str] = ()) -> list[tuple[str, str, str]]:
    """(key, default, help) for every top-level key of the command and every key of its groups'
    options and sections: the help its dataclass declares (:mod:`reasonbench.cli.schemas`); an
    entry of a free mapping (a role of ``methods``) shows the comment on its line in the chosen
    option's YAML, where that value is written. ``choices``: ``GROUP=OPTION`` words of the command
    line (``judge=openai --help`` shows that judge's arguments)."""
    groups = groups_of(config_name)
    picked = [c for c in choices if c.partition("=")[0] in groups and "=" in c]
    cfg = compose(config_name, picked)
    schema = SCHEMAS.get(config_name) if config_name in SCHEMAS else None
    rows: list[tuple[str, str, str]] = []
    for key in cfg:
        if key == "hydra":
            continue
        node = cfg._get_node(str(key))
        if isinstance(node, DictConfig) and len(node) > 0:
            variant = _comments(_chosen(config_name, str(key)))
            for child in node:
                path = f"{key!s}.{child!s}"
                text = help_of(schema, path) if schema else None
                if text is None:
                    text = variant.get(str(child)) or (help_of(schema, str(key)) if schema else "")
                if path == "judge.args":
                    rows += _judge_rows(node, variant)
                    continue
                rows.append((path, _show(node._get_node(str(child))), text or ""))
            continue
        rows.append((str(key), _show(node), (help_of(schema, str(key)) if schema else "") or ""))
    return rows


def _judge_rows(judge: DictConfig, comments: dict[str, str]) -> list[tuple[str, str, str]]:
    """``judge.args.<argument>`` for every argument of the chosen judge's factory: the value the
    option's YAML gives (with its comment), else the factory's own default."""
    factory = str(judge.get("factory"))
    given = judge._get_node("args")
    rows = []
    for name, default in judge_parameters(factory).items():
        if isinstance(given, DictConfig) and name in list(given.keys()):
            text = comments.get(name) or "set by the option's YAML"
            rows.append((f"judge.args.{name}", _show(given._get_node(name)), text))
        else:
            shown = default if isinstance(default, str) else json.dumps(default)
            said = "required" if default == "???" else f"{factory}'s default"
            rows.append((f"judge.args.{name}", shown, said))
    return rows or [("judge.args", _show(given), comments.get("args", ""))]


def _chosen(config_name: str, group: str) -> Path:
    """The YAML of ``group``'s option in the command's defaults list (a missing path if none)."""
    text = (CONF_DIR / f"{config_name}.yaml").read_text(encoding="utf-8")
    match = re.search(rf"^\s*-\s*{group}\s*:\s*(\S+)", text, re.MULTILINE)
    return CONF_DIR / group / f"{match.group(1)}.yaml" if match else Path("/nonexistent")


def _show(node: Any) -> str:
    if isinstance(node, DictConfig | ListConfig):
        text = OmegaConf.to_yaml(node, resolve=False).strip().replace("\n", " ")
        return text if len(text) <= 40 else text[:37] + "..."
    value = node._value() if hasattr(node, "_value") else node
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return '""' if value == "" else str(value)


def _comments(path: Path) -> dict[str, str]:
    """``key: value  # comment`` lines of a YAML file -> {key: comment} (a nested key's too: a
    judge option's ``args``)."""
    if not path.is_file():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\s*([A-Za-z_][\w]*)\s*:.*?\s#\s*(.+)$", line)
        if match:
            out[match.group(1)] = match.group(2).strip()
    return out
