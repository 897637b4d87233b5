"""Prints, as one JSON object, how many *other files* of a Python package import each top-level
declaration (classes, functions and module-level assignments) of its modules: `from M import a`
(absolute within the package or relative), `import M` / `from P import M` followed by `M.a`
attribute uses, and re-exports (`from .x import a` in a package's `__init__`) resolved to the
defining module. Used by repo-map-quality.mjs; run it alone as

    python3 python-imports.py FOLDER

The folder's name is the package's name (`/usr/lib/python3.11/email` is `email`).
"""
import ast
import json
import os
import sys

root = os.path.abspath(sys.argv[1])
package = os.path.basename(root)
modules = {}  # dotted module name -> relative path
trees = {}
for directory, folders, files in os.walk(root):
    folders[:] = sorted(f for f in folders if not f.startswith(".") and f != "__pycache__")
    for name in sorted(files):
        if not name.endswith(".py"):
            continue
        path = os.path.join(directory, name)
        relative = os.path.relpath(path, root)
        parts = [package] + relative[:-3].split(os.sep)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = relative
        try:
            with open(path, "rb") as handle:
                trees[".".join(parts)] = ast.parse(handle.read(), path)
        except (SyntaxError, ValueError):
            pass


def top_level(tree):
    names = set()
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(statement.name)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    names.add(target.id)
    return names


declared = {module: top_level(tree) for module, tree in trees.items()}
# name -> (module it came from, original name), per module, for re-export resolution.
imported_names = {}


def absolute(module, level, target, is_package):
    if level == 0:
        return target
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


for module, tree in trees.items():
    is_package = modules[module].endswith("__init__.py")
    table = {}
    for statement in ast.walk(tree):
        if isinstance(statement, ast.ImportFrom):
            source = absolute(module, statement.level, statement.module, is_package)
            for alias in statement.names:
                table[alias.asname or alias.name] = (source, alias.name)
    imported_names[module] = table


def resolve(module, name, seen=None):
    """The (module, name) that declares `name` as seen from `module`, following re-exports."""
    seen = seen or set()
    if (module, name) in seen or module not in trees:
        return None
    seen.add((module, name))
    if name in declared[module]:
        return (module, name)
    origin = imported_names[module].get(name)
    if origin is not None:
        return resolve(origin[0], origin[1], seen)
    return None


counts = {}


def count(user, target):
    if target is None or target[0] == user:
        return
    counts.setdefault(target, set()).add(user)


for module, tree in trees.items():
    is_package = modules[module].endswith("__init__.py")
    aliases = {}  # local name -> module name
    for statement in ast.walk(tree):
        if isinstance(statement, ast.ImportFrom):
            source = absolute(module, statement.level, statement.module, is_package)
            for alias in statement.names:
                if f"{source}.{alias.name}" in trees:
                    aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
                else:
                    count(module, resolve(source, alias.name))
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.name in trees:
                    aliases[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain = []
            value = node
            while isinstance(value, ast.Attribute):
                chain.append(value.attr)
                value = value.value
            if not isinstance(value, ast.Name):
                continue
            chain.reverse()
            dotted = value.id if value.id not in aliases else aliases[value.id]
            # `email.utils.formatdate`: the longest module prefix, then the attribute after it.
            parts = [dotted] + chain
            for cut in range(len(parts) - 1, 0, -1):
                prefix = ".".join(parts[:cut])
                if prefix in trees and (cut > 1 or value.id in aliases or prefix == value.id):
                    count(module, resolve(prefix, parts[cut]))
                    break

result = []
for module, names in declared.items():
    for name in names:
        users = counts.get((module, name), set())
        result.append({"path": modules[module], "name": name, "files": len(users)})
print(json.dumps(result))
