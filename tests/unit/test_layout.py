"""The shape of the code, kept: folders named for the stages a listing passes through, whose
imports point one way, no import cycle between modules (counting imports made inside functions
and under TYPE_CHECKING: a lazy import is still a dependency), LINE's SDK in one folder, and
classes small enough to read."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "hunter"
MAX_CLASS_LINES = 200
MAX_TOP_MODULES = 8
# The folders, each importing only those after it: app -> chat -> ... -> rules. Each is one
# stage or one kind of part; the modules directly in hunter/ (errors, logs, redact) are for all.
ORDER = (
    "app",
    "chat",
    "web",
    "status",
    "channels",
    "poll",
    "deliver",
    "words",
    "store",
    "settings",
    "sources",
    "rules",
)


def modules() -> dict[str, tuple[Path, ast.Module]]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = (path, ast.parse(path.read_text(encoding="utf-8")))
    return found


def imports(name: str, path: Path, tree: ast.Module, known: set[str]) -> set[str]:
    """hunter's modules that `name` imports anywhere: at module level, in a function, or
    under TYPE_CHECKING."""
    imported: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: from the module's own package
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            # `from a import b` imports the module a.b when there is one, else a name of a
            targets = [
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module
                for alias in node.names
            ]
        imported |= {target for target in targets if target in known and target != name}
    return imported


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports(name, path, tree, known) for name, (path, tree) in found.items()}


def folder(module: str) -> str | None:
    """The folder of hunter/ a module is in; None for hunter itself and the modules in it."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (PACKAGE / parts[-1]).is_dir() else None


def test_no_class_in_hunter_is_over_200_lines() -> None:
    large = [
        f"{name}.{node.name}: {node.end_lineno - node.lineno + 1} lines"  # type: ignore[operator]
        for name, (_path, tree) in modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES  # type: ignore[operator]
    ]
    assert large == []


def test_hunters_modules_import_each_other_without_a_cycle() -> None:
    edges = graph()
    cycles: list[list[str]] = []
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for target in sorted(edges[node]):
            if state.get(target) == "open":
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = "done"

    for name in sorted(edges):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_the_folders_import_one_way() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(ORDER), "a new folder needs its place in ORDER"
    backwards = sorted(
        f"{source} -> {target}"
        for source, targets in graph().items()
        for target in targets
        if (a := folder(source)) is not None
        and (b := folder(target)) is not None
        and ORDER.index(b) < ORDER.index(a)
    )
    assert backwards == []


def test_few_modules_sit_directly_in_hunter() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, top


def test_lines_sdk_is_imported_in_one_folder_only() -> None:
    """line-bot-sdk costs 70-80 MB and shapes everything it touches: only the LINE channel
    (hunter/channels/line/) imports it."""
    users = set()
    for path, tree in modules().values():
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            if any(n == "linebot" or n.startswith("linebot.") for n in names):
                users.add(path.parent.relative_to(PACKAGE.parent).as_posix())
    assert users == {"hunter/channels/line"}


# A channel named in code (LINE, LineSender, line_token, Telegram, TELEGRAM_..., Discord, ...),
# or a channel's own words where every channel is meant (a LINE postback, reply token, Flex
# message: a tap, an answer, a card). The owner's environment variable, LINE_TO, aside.
CHANNEL_NAMED = re.compile(
    r"\bLINE(?!_TO)|\bLine[A-Z]|\bline_(?!to\b)|[Tt]elegram|TELEGRAM|[Dd]iscord|DISCORD"
    r"|[Pp]ostback|reply_?[Tt]oken|\b[Ff]lex"
)
MAY_NAME_CHANNELS = ("channels", "app")  # the channels' own folders, and what wires them


def code_words(path: Path) -> list[str]:
    """The names and strings of a module as code uses them: comments and docstrings aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
        and isinstance(node.body[0].value.value, str)
    }
    words: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                words.append(node.value)
        elif isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.alias):
            words.append(node.name)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef | ast.arg):
            words.append(node.name if not isinstance(node, ast.arg) else node.arg)
    return words


def test_outside_the_channels_no_module_names_a_channel() -> None:
    """Issues 35 and 44: what a channel is lives in its folder; the rest asks the registry.
    Outside hunter/channels/ and hunter/app/, no module names one, or uses a channel's own
    words, in its code: adding a channel is its folder, a line in the registry
    (hunter/channels/__init__.py), its stand-in and its tests."""
    naming = sorted(
        name
        for name, (path, _tree) in modules().items()
        if folder(name) not in MAY_NAME_CHANNELS
        and any(CHANNEL_NAMED.search(word) for word in code_words(path))
    )
    assert naming == []


def test_the_channel_check_sees_a_name_in_code_not_in_a_comment(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""About LINE."""\n# Telegram\nx = 1\n', encoding="utf-8")
    assert not any(CHANNEL_NAMED.search(word) for word in code_words(module))
    module.write_text(
        '"""About it."""\ndef f(line_token: str, reply_token: str) -> str:\n'
        '    kind = "postback"\n    return environ["LINE_TO"] or "Discord"\n'
    )
    assert sorted(w for w in code_words(module) if CHANNEL_NAMED.search(w)) == [
        "Discord",
        "line_token",
        "postback",
        "reply_token",
    ]


def test_no_class_name_is_defined_twice() -> None:
    """Issue 44: one class per name under hunter/ (a reader who meets `Plan` or `Health` knows
    which one it is)."""
    defined: dict[str, list[str]] = {}
    for name, (_path, tree) in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                defined.setdefault(node.name, []).append(name)
    assert {c: where for c, where in defined.items() if len(where) > 1} == {}


# Released migrations stay byte for byte as they shipped (a database that ran them never runs
# them again; tests/contract/test_release_upgrades.py pins them): their comments keep what
# they said then. 029 was the last released with this project's history in its comments.
RELEASED = re.compile(r"sql/(postgres|sqlite)/0(0\d|1\d|2\d)_\w+\.sql$")


def test_the_code_says_what_and_why_now_not_which_issue() -> None:
    """The history is in git and docs/decisions/: no file of hunter/ (code, SQL, data) names
    an issue of the tracker, which goes stale as the code moves; the released migrations
    aside, which never change."""
    named = [
        f"{path.relative_to(PACKAGE.parent)}:{n}"
        for path in sorted(PACKAGE.rglob("*"))
        if path.suffix in (".py", ".sql", ".json", ".toml") and not RELEASED.search(path.as_posix())
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"[Ii]ssues? [0-9]+", line)
    ]
    assert named == []
