"""The whitelisting compiler for spec expressions (formulas, lambdas, f-string templates).

Why our own compiler: PuzzleClone specs are Python expressions written against the Z3 API,
and the original tool ``exec``s them with full builtins. We parse each expression once,
walk its AST against a whitelist (no imports, no statements, no dunder names or
attributes, no ``open``/``exec``/``eval``/``getattr``...), rewrite the operators that can
allocate without bound (``**``, ``*``, ``<<``) into guarded helpers, and compile the tree
once per spec. Evaluation happens in a namespace whose ``__builtins__`` is a small safe
table, so nothing outside that table is reachable by name either.

>>> code = compile_expr("x + 1", where="demo")
>>> code.run({"x": 2})
3
>>> compile_expr("__import__('os')", where="demo")
Traceback (most recent call last):
...
puzzleforge.core.errors.UnsafeExpression: field 'demo': name '__import__' is not allowed (dunder names are refused) in: __import__('os'). Expected a spec expression using only spec names, Z3 functions and safe builtins.
"""
from __future__ import annotations

import ast
import builtins
import math
import string
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core.errors import InvalidSpec, UnsafeExpression

__all__ = ["SafeCode", "compile_expr", "compile_template", "SAFE_BUILTINS", "ExprError",
           "MAX_SEQUENCE"]

#: Largest list/string/range a spec expression may build in one operation.
MAX_SEQUENCE = 2_000_000
#: Largest exponent of an integer power (bounds CPU and memory of big-int arithmetic).
MAX_EXPONENT = 4096

_FORBIDDEN_NAMES = {
    "open", "exec", "eval", "compile", "getattr", "setattr", "delattr", "globals",
    "locals", "__import__", "breakpoint", "input", "help", "memoryview", "object",
    "type", "super", "classmethod", "staticmethod", "property", "exit", "quit",
}
_FORBIDDEN_ATTRS = {
    "format_map", "mro", "gi_frame", "gi_code", "f_globals", "f_locals", "f_back",
    "cr_frame", "tb_frame", "func_globals", "co_code", "ag_frame", "from_file",
    "from_string", "set_param", "append_log", "open_log",
}

_ALLOWED_NODES: tuple[type, ...] = (
    ast.Expression, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Lambda, ast.IfExp, ast.Dict,
    ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Compare,
    ast.Call, ast.FormattedValue, ast.JoinedStr, ast.Constant, ast.Attribute,
    ast.Subscript, ast.Starred, ast.Name, ast.List, ast.Tuple, ast.Slice, ast.Load,
    ast.Store, ast.And, ast.Or, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv,
    ast.Mod, ast.Pow, ast.LShift, ast.RShift, ast.BitOr, ast.BitXor, ast.BitAnd,
    ast.MatMult, ast.Invert, ast.Not, ast.UAdd, ast.USub, ast.Eq, ast.NotEq, ast.Lt,
    ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn, ast.comprehension,
    ast.arguments, ast.arg, ast.keyword, ast.NamedExpr,
)


class ExprError(Exception):
    """An expression failed while running (wrapped with its source by the caller)."""


def _safe_pow(a: Any, b: Any, *mod: Any) -> Any:
    # exact numbers grow without bound (Fraction too, reachable through __import__('fractions'))
    if isinstance(b, int) and not isinstance(b, bool) and isinstance(a, (int, Fraction)) \
            and abs(b) > MAX_EXPONENT and a not in (0, 1, -1):
        raise ExprError(f"exponent {b} is too large (limit {MAX_EXPONENT})")
    return pow(a, b, *mod)


def _seq_len(x: Any) -> int | None:
    if isinstance(x, (str, bytes, list, tuple)):
        return len(x)
    return None


def _safe_mul(a: Any, b: Any) -> Any:
    if isinstance(b, int) and not isinstance(b, bool):
        n = _seq_len(a)
        if n is not None and n * b > MAX_SEQUENCE:
            raise ExprError(f"sequence repetition of {n} x {b} items is too large")
    if isinstance(a, int) and not isinstance(a, bool):
        n = _seq_len(b)
        if n is not None and n * a > MAX_SEQUENCE:
            raise ExprError(f"sequence repetition of {n} x {a} items is too large")
    return a * b


def _safe_lshift(a: Any, b: Any) -> Any:
    if isinstance(b, int) and b > 65536:
        raise ExprError(f"shift by {b} bits is too large")
    return a << b


def _safe_range(*args: Any) -> range:
    r = range(*args)
    if len(r) > MAX_SEQUENCE:
        raise ExprError(f"range of {len(r)} items is too large (limit {MAX_SEQUENCE})")
    return r


class _SafeFormatter(string.Formatter):
    def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
        if "__" in field_name or "." in field_name:
            raise ExprError(f"format field '{field_name}' is not allowed")
        return super().get_field(field_name, args, kwargs)


_FORMATTER = _SafeFormatter()


def _safe_format(template: Any, *args: Any, **kwargs: Any) -> str:
    return _FORMATTER.format(template, *args, **kwargs)


_SAFE_BUILTIN_NAMES = (
    "abs", "all", "any", "bool", "chr", "dict", "divmod", "enumerate", "filter", "float",
    "frozenset", "hash", "int", "isinstance", "iter", "len", "list", "map", "max", "min",
    "next", "ord", "reversed", "round", "set", "slice", "sorted", "str", "sum", "tuple",
    "zip", "repr", "callable", "bin", "hex", "oct", "format", "pow", "print", "hasattr",
    "complex", "id",
    "ValueError", "Exception", "KeyError", "IndexError", "TypeError", "ZeroDivisionError",
    "True", "False", "None",
)

SAFE_BUILTINS: dict[str, Any] = {name: getattr(builtins, name) for name in _SAFE_BUILTIN_NAMES}
SAFE_BUILTINS["print"] = lambda *a, **k: None  # engine modules never print
SAFE_BUILTINS["range"] = _safe_range
SAFE_BUILTINS["pow"] = _safe_pow
SAFE_BUILTINS["math"] = math
SAFE_BUILTINS["__pf_pow"] = _safe_pow
SAFE_BUILTINS["__pf_mul"] = _safe_mul
SAFE_BUILTINS["__pf_lshift"] = _safe_lshift
SAFE_BUILTINS["__pf_format"] = _safe_format
SAFE_BUILTINS["__pf_import"] = lambda name: _safe_import(name)


def _internal_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                     level: int = 0) -> Any:
    """``__import__`` as seen by C code running under spec builtins (``strftime`` imports time).

    Spec expressions cannot name it (dunder names are refused); only the standard
    library's own internal imports of these modules get through.
    """
    if level == 0 and name in _INTERNAL_IMPORTS:
        import importlib
        return importlib.import_module(name)
    raise ImportError(f"import of {name!r} is not allowed in a spec expression")


_INTERNAL_IMPORTS = {"time", "_strptime", "datetime", "_datetime", "calendar", "locale", "math"}
SAFE_BUILTINS["__import__"] = _internal_import


class _ModuleView:
    """The public, harmless part of a standard module, as ``__import__('datetime')`` sees it."""

    def __init__(self, name: str, items: dict[str, Any]) -> None:
        self._name = name
        self.__dict__.update(items)

    def __repr__(self) -> str:
        return f"<module view {self._name}>"


def _module_views() -> dict[str, _ModuleView]:
    import datetime
    import functools
    import itertools
    import statistics
    import fractions
    import decimal
    views = {
        "datetime": {n: getattr(datetime, n) for n in (
            "date", "datetime", "time", "timedelta", "timezone", "MINYEAR", "MAXYEAR")},
        "math": {n: getattr(math, n) for n in dir(math) if not n.startswith("_")},
        "itertools": {n: getattr(itertools, n) for n in (
            "product", "permutations", "combinations", "combinations_with_replacement", "chain",
            "accumulate", "groupby", "islice", "starmap", "zip_longest", "count", "cycle",
            "repeat", "compress", "dropwhile", "takewhile", "filterfalse", "pairwise")
            if hasattr(itertools, n)},
        "functools": {n: getattr(functools, n) for n in ("reduce", "cmp_to_key")},
        "statistics": {n: getattr(statistics, n) for n in (
            "mean", "median", "mode", "stdev", "variance", "pstdev", "pvariance")},
        "fractions": {"Fraction": fractions.Fraction},
        "decimal": {"Decimal": decimal.Decimal},
    }
    return {name: _ModuleView(name, items) for name, items in views.items()}


#: Modules a spec may name in ``__import__('<name>')`` (the original runs specs with full
#: Python; corpus-style specs import ``datetime`` this way inside lambdas). Each is a
#: read-only view of harmless public names, never the module object itself.
SAFE_IMPORTS: dict[str, _ModuleView] = _module_views()


def _safe_import(name: Any, *rest: Any, **kw: Any) -> _ModuleView:
    view = SAFE_IMPORTS.get(name) if isinstance(name, str) else None
    if view is None:
        raise ExprError(f"import of {name!r} is not allowed")
    return view


def _is_safe_import_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "__import__" and len(node.args) == 1 and not node.keywords
            and isinstance(node.args[0], ast.Constant) and node.args[0].value in SAFE_IMPORTS)


class _Checker(ast.NodeVisitor):
    def __init__(self, where: str, source: str, file: str | None, line: int | None) -> None:
        self.where, self.source, self.file, self.line = where, source, file, line

    def visit_Call(self, node: ast.Call) -> None:
        if _is_safe_import_call(node):
            return  # __import__('datetime'): rewritten to a read-only module view
        self.generic_visit(node)

    def fail(self, message: str) -> None:
        raise UnsafeExpression(
            message, file=self.file, field=self.where, line=self.line,
            expected="a spec expression using only spec names, Z3 functions and safe builtins",
            )

    def generic_visit(self, node: ast.AST) -> None:
        if not isinstance(node, _ALLOWED_NODES):
            self.fail(f"{type(node).__name__} is not allowed in a spec expression")
        super().generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id.startswith("__"):
            self.fail(f"name '{node.id}' is not allowed (dunder names are refused)")
        if node.id in _FORBIDDEN_NAMES:
            self.fail(f"name '{node.id}' is not allowed in a spec expression")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr.startswith("_") or node.attr in _FORBIDDEN_ATTRS:
            self.fail(f"attribute '.{node.attr}' is not allowed (private and dunder attributes are refused)")
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        if node.arg.startswith("__"):
            self.fail(f"parameter name '{node.arg}' is not allowed")
        self.generic_visit(node)


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Rewriter(ast.NodeTransformer):
    """Route unbounded operators through guarded helpers (and substitute name aliases)."""

    def __init__(self, aliases: dict[str, str] | None = None) -> None:
        self.aliases = aliases or {}

    def visit_Name(self, node: ast.Name) -> ast.AST:
        alias = self.aliases.get(node.id)
        if alias is not None and isinstance(node.ctx, ast.Load):
            return ast.copy_location(self.visit(ast.parse(alias, mode="eval").body), node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        helper = {ast.Pow: "__pf_pow", ast.Mult: "__pf_mul", ast.LShift: "__pf_lshift"}.get(type(node.op))
        if helper is None:
            return node
        return ast.copy_location(
            ast.Call(func=ast.Name(id=helper, ctx=ast.Load()), args=[node.left, node.right], keywords=[]),
            node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if _is_safe_import_call(node):
            return ast.copy_location(
                ast.Call(func=ast.Name(id="__pf_import", ctx=ast.Load()), args=node.args,
                         keywords=[]), node)
        self.generic_visit(node)
        # "...".format(...) -> safe formatter (format strings can otherwise reach attributes)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            return ast.copy_location(
                ast.Call(func=ast.Name(id="__pf_format", ctx=ast.Load()),
                         args=[node.func.value, *node.args], keywords=node.keywords), node)
        return node


@dataclass
class SafeCode:
    """One compiled spec expression; ``run(env)`` evaluates it with ``env`` as globals."""

    source: str
    where: str
    code: Any
    file: str | None = None
    line: int | None = None

    def run(self, env: dict[str, Any]) -> Any:
        return eval(self.code, env)  # noqa: S307 - code passed the whitelist above


def _parse(source: str, where: str, file: str | None, line: int | None) -> ast.Expression:
    try:
        return ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        raise InvalidSpec(f"syntax error in expression ({exc.msg}): {_short(source)}",
                          file=file, field=where, line=line,
                          expected="a valid Python expression") from None


def _finish(tree: ast.Expression, source: str, where: str, file: str | None,
            line: int | None, aliases: dict[str, str] | None = None) -> SafeCode:
    _Checker(where, source, file, line).visit(tree)
    tree = _Rewriter(aliases).visit(tree)
    ast.fix_missing_locations(tree)
    return SafeCode(source, where, compile(tree, f"<spec {where}>", "eval"), file, line)


def compile_expr(source: Any, *, where: str, file: str | None = None,
                 line: int | None = None, aliases: dict[str, str] | None = None) -> SafeCode:
    """Compile one spec expression (refusing anything outside the whitelist).

    ``aliases`` maps a name to an expression (already trusted: written by the engine)
    that replaces it, for names the format defines implicitly (``extra_conditions``).
    """
    if not isinstance(source, str):
        source = repr(source)
    tree = _parse(source, where, file, line)
    try:
        return _finish(tree, source, where, file, line, aliases)
    except UnsafeExpression as exc:
        raise UnsafeExpression(f"{exc.problem} in: {_short(source)}", file=file, field=where,
                               line=line, expected=exc.expected) from None


def _find_close(text: str, start: int) -> int:
    """Index of the '}' closing the placeholder opened at ``start`` (quotes and brackets aware)."""
    depth = 0
    i = start + 1
    quote = None
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if text.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
        elif ch in "'\"":
            quote = text[i:i + 3] if text[i:i + 3] in ("'''", '"""') else ch
            i += len(quote)
            continue
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                if ch == "}":
                    return i
                return -1
            depth -= 1
        i += 1
    return -1


def _split_field(body: str) -> tuple[str, str | None, str | None]:
    """Split a placeholder body into expression, conversion and format spec (top level only)."""
    depth = 0
    quote = None
    i = 0
    while i < len(body):
        ch = body[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if body.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
        elif ch in "'\"":
            quote = body[i:i + 3] if body[i:i + 3] in ("'''", '"""') else ch
            i += len(quote)
            continue
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and ch == "!" and i + 1 < len(body) and body[i + 1] in "rsa" and \
                (i + 2 == len(body) or body[i + 2] == ":"):
            rest = body[i + 2:]
            return body[:i], body[i + 1], (rest[1:] if rest.startswith(":") else None)
        elif depth == 0 and ch == ":" and not body[:i].lstrip().startswith("lambda"):
            return body[:i], None, body[i + 1:]
        i += 1
    return body, None, None


from .escapes import unescape  # noqa: E402 - the template literals' escapes (spec/escapes.py)


def _template_tree(text: str, where: str, file: str | None, line: int | None) -> ast.Expression:
    """Parse a template into an f-string AST without going through Python string quoting.

    Why: spec templates mix both quote characters and backslashes freely (the original
    wraps them in triple quotes and patches the ends); parsing placeholders ourselves
    accepts every template the original accepts, with any quoting.
    """
    parts: list[ast.expr] = []
    buf: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "{":
            if i + 1 < n and text[i + 1] == "{":
                buf.append("{")
                i += 2
                continue
            close = _find_close(text, i)
            if close < 0:
                raise InvalidSpec(f"unclosed '{{' in template: {_short(text)}", file=file,
                                  field=where, line=line, expected="text with {expression} placeholders")
            expr_src, conv, spec = _split_field(text[i + 1:close])
            if not expr_src.strip():
                raise InvalidSpec(f"empty placeholder {{}} in template: {_short(text)}", file=file,
                                  field=where, line=line, expected="an expression inside each {}")
            try:
                node = ast.parse("(" + expr_src.strip().replace("\n", " ") + ")", mode="eval").body
            except SyntaxError as exc:
                raise InvalidSpec(f"syntax error in placeholder {{{_short(expr_src, 80)}}} ({exc.msg})",
                                  file=file, field=where, line=line,
                                  expected="a valid Python expression inside {}") from None
            if buf:
                parts.append(ast.Constant(unescape("".join(buf))))  # as the original's f-string
                buf = []
            fmt = ast.JoinedStr([ast.Constant(spec)]) if spec else None
            parts.append(ast.FormattedValue(value=node, conversion=ord(conv) if conv else -1,
                                            format_spec=fmt))
            i = close + 1
            continue
        if ch == "}" and i + 1 < n and text[i + 1] == "}":
            buf.append("}")
            i += 2
            continue
        buf.append(ch)
        i += 1
    if buf:
        parts.append(ast.Constant(unescape("".join(buf))))  # as the original's f-string
    return ast.Expression(body=ast.JoinedStr(values=parts))


def compile_template(text: Any, *, where: str, file: str | None = None,
                     line: int | None = None, aliases: dict[str, str] | None = None) -> SafeCode:
    """Compile a PuzzleClone text template (an f-string written without the ``f``)."""
    if text is None:
        text = ""
    text = str(text)
    if "{" not in text:
        return SafeCode(text, where, compile(repr(unescape(text.replace("}}", "}"))), "<const>", "eval"), file, line)
    tree = _template_tree(text, where, file, line)
    try:
        return _finish(tree, text, where, file, line, aliases)
    except UnsafeExpression as exc:
        raise UnsafeExpression(f"{exc.problem} in: {_short(text)}", file=file, field=where,
                               line=line, expected=exc.expected) from None
