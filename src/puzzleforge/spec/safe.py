"""The allow-list compiler for spec expressions (formulas, lambdas, f-string templates).

Why our own compiler: PuzzleClone specs are Python expressions written against the Z3 API,
and the original tool ``exec``s them with full builtins. We parse each expression once,
walk its AST (no imports, no statements, no dunder names, no private or assigned
attributes), rewrite it so that every attribute read goes through
``guards.guarded_getattr`` (an explicit allow-list per type, spec/attributes.py), every
format spec through a width check, and the operators that can allocate without bound
(``**``, ``*``, ``<<``, ``%``, ``+``) through bounded helpers (spec/bounded.py), then
compile the tree once per spec. Evaluation happens in a namespace built only from
explicit tables (``SAFE_BUILTINS`` as ``__builtins__``, the Z3 names of
``z3names.Z3_NAMES``, the spec operators), so nothing outside them is reachable by name,
and nothing outside the attribute table is reachable from a value. docs/architecture.md
says why this and not RestrictedPython. Templates (f-strings written without the ``f``)
are parsed into the same kind of tree by spec/placeholders.py, then checked here.

>>> code = compile_expr("x + 1", where="demo")
>>> code.run({"x": 2})
3
>>> try:
...     compile_expr("__import__('os')", where="demo")
... except UnsafeExpression as exc:
...     print(exc.field, "|", exc.problem)
demo | name '__import__' is not allowed (dunder names are refused) in: __import__('os')
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from ..core.errors import InvalidSpec, UnsafeExpression
from . import bounded
from .allowlist import IMPORTABLE, MODULE_VIEWS, ModuleView, builtin_table
from .bounded import MAX_EXPONENT, MAX_SEQUENCE, ExprError
from .escapes import unescape
from .guards import guarded_getattr, guarded_hasattr, safe_format
from .placeholders import short, template_tree

__all__ = [
    "SafeCode",
    "compile_expr",
    "compile_template",
    "SAFE_BUILTINS",
    "ExprError",
    "MAX_SEQUENCE",
    "MAX_EXPONENT",
    "SAFE_IMPORTS",
]

_FORBIDDEN_NAMES = {
    "open",
    "exec",
    "eval",
    "compile",
    "getattr",
    "setattr",
    "delattr",
    "globals",
    "locals",
    "__import__",
    "breakpoint",
    "input",
    "help",
    "memoryview",
    "object",
    "type",
    "super",
    "classmethod",
    "staticmethod",
    "property",
    "exit",
    "quit",
}

_ALLOWED_NODES: tuple[type, ...] = (
    ast.Expression,
    ast.BoolOp,
    ast.BinOp,
    ast.UnaryOp,
    ast.Lambda,
    ast.IfExp,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.Compare,
    ast.Call,
    ast.FormattedValue,
    ast.JoinedStr,
    ast.Constant,
    ast.Attribute,
    ast.Subscript,
    ast.Starred,
    ast.Name,
    ast.List,
    ast.Tuple,
    ast.Slice,
    ast.Load,
    ast.Store,
    ast.And,
    ast.Or,
    ast.Add,
    ast.Sub,
    ast.Mult,
    ast.Div,
    ast.FloorDiv,
    ast.Mod,
    ast.Pow,
    ast.LShift,
    ast.RShift,
    ast.BitOr,
    ast.BitXor,
    ast.BitAnd,
    ast.MatMult,
    ast.Invert,
    ast.Not,
    ast.UAdd,
    ast.USub,
    ast.Eq,
    ast.NotEq,
    ast.Lt,
    ast.LtE,
    ast.Gt,
    ast.GtE,
    ast.Is,
    ast.IsNot,
    ast.In,
    ast.NotIn,
    ast.comprehension,
    ast.arguments,
    ast.arg,
    ast.keyword,
    ast.NamedExpr,
)


def _internal_import(
    name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
) -> Any:
    """``__import__`` as seen by C code running under spec builtins (``strftime`` imports time).

    Spec expressions cannot name it (dunder names are refused); only the standard
    library's own internal imports of these modules get through.
    """
    if level == 0 and name in _INTERNAL_IMPORTS:
        import importlib

        return importlib.import_module(name)
    raise ImportError(f"import of {name!r} is not allowed in a spec expression")


_INTERNAL_IMPORTS = {"time", "_strptime", "datetime", "_datetime", "calendar", "locale", "math"}

#: Modules a spec may name in ``__import__('<name>')``: read-only views of chosen names.
SAFE_IMPORTS: dict[str, ModuleView] = {name: MODULE_VIEWS[name] for name in IMPORTABLE}


def _safe_import(name: Any, *rest: Any, **kw: Any) -> ModuleView:
    view = SAFE_IMPORTS.get(name) if isinstance(name, str) else None
    if view is None:
        raise ExprError(f"import of {name!r} is not allowed")
    return view


#: ``__builtins__`` of every spec expression: the allow-listed builtins and the hooks the
#: compiler inserts (``__pf_*``: dunder names, so no expression can name them itself).
SAFE_BUILTINS: dict[str, Any] = builtin_table()
SAFE_BUILTINS.update(
    {
        "hasattr": guarded_hasattr,
        "sum": bounded.safe_sum,
        "__pf_pow": bounded.safe_pow,
        "__pf_mul": bounded.safe_mul,
        "__pf_lshift": bounded.safe_lshift,
        "__pf_mod": bounded.safe_mod,
        "__pf_add": bounded.safe_add,
        "__pf_getattr": guarded_getattr,
        "__pf_fmtspec": bounded.check_format_spec,
        "__pf_format": safe_format,
        "__pf_import": _safe_import,
        "__import__": _internal_import,
    }
)


def _is_safe_import_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "__import__"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value in SAFE_IMPORTS
    )


class _Checker(ast.NodeVisitor):
    def __init__(self, where: str, source: str, file: str | None, line: int | None) -> None:
        self.where, self.source, self.file, self.line = where, source, file, line

    def visit_Call(self, node: ast.Call) -> None:
        if _is_safe_import_call(node):
            return  # __import__('datetime'): rewritten to a read-only module view
        self.generic_visit(node)

    def fail(self, message: str) -> None:
        raise UnsafeExpression(
            message,
            file=self.file,
            field=self.where,
            line=self.line,
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
        if node.attr.startswith("_"):
            self.fail(
                f"attribute '.{node.attr}' is not allowed "
                f"(private and dunder attributes are refused)"
            )
        if not isinstance(node.ctx, ast.Load):
            self.fail(f"assigning attribute '.{node.attr}' is not allowed")
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        if node.arg.startswith("__"):
            self.fail(f"parameter name '{node.arg}' is not allowed")
        self.generic_visit(node)


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
        helper = _BINOP_HELPERS.get(type(node.op))
        if helper is None:
            return node
        return ast.copy_location(
            ast.Call(
                func=ast.Name(id=helper, ctx=ast.Load()), args=[node.left, node.right], keywords=[]
            ),
            node,
        )

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        # x.name -> __pf_getattr(x, 'name'): the allow-list of type(x) decides (guards.py)
        self.generic_visit(node)
        return ast.copy_location(
            ast.Call(
                func=ast.Name(id="__pf_getattr", ctx=ast.Load()),
                args=[node.value, ast.Constant(node.attr)],
                keywords=[],
            ),
            node,
        )

    def visit_FormattedValue(self, node: ast.FormattedValue) -> ast.AST:
        # {x:SPEC} -> {x:{__pf_fmtspec(SPEC)}}: widths and precisions are bounded
        self.generic_visit(node)
        if node.format_spec is not None:
            checked = ast.Call(
                func=ast.Name(id="__pf_fmtspec", ctx=ast.Load()),
                args=[node.format_spec],
                keywords=[],
            )
            node.format_spec = ast.JoinedStr(
                [ast.FormattedValue(value=checked, conversion=-1, format_spec=None)]
            )
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if _is_safe_import_call(node):
            return ast.copy_location(
                ast.Call(
                    func=ast.Name(id="__pf_import", ctx=ast.Load()), args=node.args, keywords=[]
                ),
                node,
            )
        self.generic_visit(node)
        return node


#: Operators that can allocate without bound from small operands -> their bounded helper.
_BINOP_HELPERS = {
    ast.Pow: "__pf_pow",
    ast.Mult: "__pf_mul",
    ast.LShift: "__pf_lshift",
    ast.Mod: "__pf_mod",
    ast.Add: "__pf_add",
}


@dataclass
class SafeCode:
    """One compiled spec expression; ``run(env)`` evaluates it with ``env`` as globals."""

    source: str
    where: str
    code: Any
    file: str | None = None
    line: int | None = None

    def run(self, env: dict[str, Any]) -> Any:
        # always the allow-listed builtins: eval() would put the real ones into an env
        # that has none (vars, dir, setattr ... reachable by name)
        if env.get("__builtins__") is not SAFE_BUILTINS:
            env["__builtins__"] = SAFE_BUILTINS
        return eval(self.code, env)  # noqa: S307 - code passed the allow-list compiler


def _parse(source: str, where: str, file: str | None, line: int | None) -> ast.Expression:
    try:
        return ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        raise InvalidSpec(
            f"syntax error in expression ({exc.msg}): {short(source)}",
            file=file,
            field=where,
            line=line,
            expected="a valid Python expression",
        ) from None


def _finish(
    tree: ast.Expression,
    source: str,
    where: str,
    file: str | None,
    line: int | None,
    aliases: dict[str, str] | None = None,
) -> SafeCode:
    _Checker(where, source, file, line).visit(tree)
    tree = _Rewriter(aliases).visit(tree)
    ast.fix_missing_locations(tree)
    return SafeCode(source, where, compile(tree, f"<spec {where}>", "eval"), file, line)


def compile_expr(
    source: Any,
    *,
    where: str,
    file: str | None = None,
    line: int | None = None,
    aliases: dict[str, str] | None = None,
) -> SafeCode:
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
        raise UnsafeExpression(
            f"{exc.problem} in: {short(source)}",
            file=file,
            field=where,
            line=line,
            expected=exc.expected,
        ) from None


def compile_template(
    text: Any,
    *,
    where: str,
    file: str | None = None,
    line: int | None = None,
    aliases: dict[str, str] | None = None,
) -> SafeCode:
    """Compile a PuzzleClone text template (an f-string written without the ``f``)."""
    if text is None:
        text = ""
    text = str(text)
    if "{" not in text:
        return SafeCode(
            text,
            where,
            compile(repr(unescape(text.replace("}}", "}"))), "<const>", "eval"),
            file,
            line,
        )
    tree = template_tree(text, where, file, line)
    try:
        return _finish(tree, text, where, file, line, aliases)
    except UnsafeExpression as exc:
        raise UnsafeExpression(
            f"{exc.problem} in: {short(text)}",
            file=file,
            field=where,
            line=line,
            expected=exc.expected,
        ) from None
