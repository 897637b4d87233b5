"""Prints, as one JSON object per line, the classes and functions Python's own `ast` module finds
in each file given: top-level ones (module level, including under if/elif/else, try/except/
else/finally and with) and class members (defs and nested classes in a class body, the same
compound statements walked). Files `ast` cannot parse are reported with "error".

Used by ground-truth-python.mjs; run it alone as
    python3 python-declarations.py FILE...
"""
import ast
import json
import sys

COMPOUND = (ast.If, ast.Try, ast.With, ast.AsyncWith) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def bodies(statement):
    for field in ("body", "orelse", "finalbody"):
        yield from getattr(statement, field, []) or []
    for handler in getattr(statement, "handlers", []) or []:
        yield from handler.body


def definitions(statements):
    for statement in statements:
        if isinstance(statement, DEFS):
            yield statement
        elif isinstance(statement, COMPOUND):
            yield from definitions(bodies(statement))


def members(prefix, statements, out):
    for definition in definitions(statements):
        name = f"{prefix}.{definition.name}"
        out.append(name)
        if isinstance(definition, ast.ClassDef):
            members(name, definition.body, out)


for path in sys.argv[1:]:
    try:
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read(), path)
    except (SyntaxError, ValueError) as error:
        print(json.dumps({"path": path, "error": str(error)}))
        continue
    top, inner = [], []
    for definition in definitions(tree.body):
        top.append(definition.name)
        if isinstance(definition, ast.ClassDef):
            members(definition.name, definition.body, inner)
    print(json.dumps({"path": path, "top": top, "members": inner}))
