import { posix } from "node:path";
import { languageForPath } from "../tree-sitter/languages.js";
import type { NameOccurrence } from "../tree-sitter/name-occurrences.js";
import {
  type ModuleScan,
  type ModuleStyle,
  mayDeclare,
  scanModule,
  surelyDeclares,
} from "./module-scan.js";

/**
 * The import graph `find_references` follows, built lazily for one call: a module specifier
 * resolves to a workspace file (relative paths with or without extensions, `.js` written for a
 * `.ts` file, index files, Python packages and dotted modules searched from the file's folders
 * up to the root — no tsconfig `paths`, no `node_modules`); a name a file imports resolves
 * through re-exports (`export { a as b } from`, `export *`, a Python `__init__.py`'s imports) to
 * the files that declare it at the top. Everything read is cached for the call.
 *
 * @internal
 */

/** What the graph reads through: the workspace, confined and with its caps. */
export interface ModuleGraphSource {
  /** A workspace file's text, or `undefined` (missing, a directory, secret, binary, too large). */
  read(path: string): Promise<string | undefined>;
  /** The identifier occurrences of `name` in a file (parsed; cached by the caller), or `undefined`. */
  occurrences(path: string, name: string): Promise<NameOccurrence[] | undefined>;
}

/** A top-level declaration: the file and the name it declares. */
export interface Definition {
  path: string;
  name: string;
}

/** What a name in a file is bound to. */
export type Binding =
  | { kind: "defined"; definitions: Definition[] }
  | { kind: "package"; module: string }
  | { kind: "unbound" };

const JS_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".d.ts", ".js", ".jsx", ".mjs", ".cjs"];
const JS_SWAPS: Record<string, string[]> = {
  ".js": [".ts", ".tsx", ".d.ts"],
  ".jsx": [".tsx"],
  ".mjs": [".mts", ".d.mts"],
  ".cjs": [".cts", ".d.cts"],
};

/**
 * The module style of a path: `javascript` for TypeScript/TSX/JavaScript, `python`, or
 * `undefined` for languages whose imports are not followed.
 *
 * @param path - a workspace path
 * @returns its style
 */
export function moduleStyleOf(path: string): ModuleStyle | undefined {
  const language = languageForPath(path);
  if (language === "typescript" || language === "tsx" || language === "javascript")
    return "javascript";
  if (language === "python") return "python";
  return undefined;
}

function inside(path: string): string | undefined {
  const normal = posix.normalize(path);
  if (normal === ".." || normal.startsWith("../") || posix.isAbsolute(normal)) return undefined;
  return normal === "." ? "" : normal.replace(/\/$/, "");
}

/** Resolves module specifiers and exported names over a workspace, for one call. */
export class ModuleGraph {
  readonly #source: ModuleGraphSource;
  readonly #texts = new Map<string, Promise<string | undefined>>();
  readonly #scans = new Map<string, Promise<ModuleScan | undefined>>();
  readonly #resolved = new Map<string, Promise<string | undefined>>();
  readonly #exports = new Map<string, Promise<Definition[]>>();
  readonly #reach = new Map<string, Promise<Set<string>>>();

  constructor(source: ModuleGraphSource) {
    this.#source = source;
  }

  /** A file's text (cached). */
  text(path: string): Promise<string | undefined> {
    let text = this.#texts.get(path);
    if (text === undefined) {
      text = this.#source.read(path);
      this.#texts.set(path, text);
    }
    return text;
  }

  /** A file's import and export statements (cached), or `undefined` for other languages. */
  scan(path: string): Promise<ModuleScan | undefined> {
    let scan = this.#scans.get(path);
    if (scan === undefined) {
      scan = (async () => {
        const style = moduleStyleOf(path);
        const text = style === undefined ? undefined : await this.text(path);
        return text === undefined || style === undefined ? undefined : scanModule(text, style);
      })();
      this.#scans.set(path, scan);
    }
    return scan;
  }

  async #isFile(path: string): Promise<boolean> {
    return (await this.text(path)) !== undefined;
  }

  async #firstFile(candidates: string[]): Promise<string | undefined> {
    for (const candidate of candidates) if (await this.#isFile(candidate)) return candidate;
    return undefined;
  }

  /**
   * The workspace file a specifier in `from` names, or `undefined` (a package, or not found).
   *
   * @param from - the importing file
   * @param specifier - as written
   * @returns a workspace path
   */
  resolve(from: string, specifier: string): Promise<string | undefined> {
    const style = moduleStyleOf(from);
    const key = `${style === "python" ? from : posix.dirname(from)}\n${specifier}`;
    let resolved = this.#resolved.get(key);
    if (resolved === undefined) {
      resolved =
        style === "python"
          ? this.#resolvePython(from, specifier)
          : this.#resolveScript(from, specifier);
      this.#resolved.set(key, resolved);
    }
    return resolved;
  }

  async #resolveScript(from: string, specifier: string): Promise<string | undefined> {
    if (!specifier.startsWith("./") && !specifier.startsWith("../") && specifier !== ".")
      return undefined;
    const base = inside(posix.join(posix.dirname(from), specifier));
    if (base === undefined) return undefined;
    const extension = posix.extname(base);
    const stem = base.slice(0, base.length - extension.length);
    const swapped = (JS_SWAPS[extension] ?? []).map((swap) => stem + swap);
    const folder = base === "" ? "index" : `${base}/index`;
    return this.#firstFile([
      ...swapped,
      base,
      ...JS_EXTENSIONS.map((candidate) => base + candidate),
      ...JS_EXTENSIONS.map((candidate) => folder + candidate),
    ]);
  }

  async #resolvePython(from: string, specifier: string): Promise<string | undefined> {
    const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
    const dotted = specifier.slice(dots);
    const relative = dotted === "" ? "" : dotted.split(".").join("/");
    const bases: string[] = [];
    if (dots > 0) {
      let folder = posix.dirname(from);
      for (let level = 1; level < dots; level += 1) folder = posix.dirname(folder);
      bases.push(folder === "." ? "" : folder);
    } else {
      // An absolute module: from the file's folder up to the root (src/ layouts, scripts).
      for (let folder = posix.dirname(from); ; folder = posix.dirname(folder)) {
        bases.push(folder === "." ? "" : folder);
        if (folder === "." || folder === "/" || folder === "") break;
      }
    }
    for (const base of bases) {
      const path = inside(posix.join(base, relative));
      if (path === undefined) continue;
      const prefix = path === "" ? "" : `${path}/`;
      const found = await this.#firstFile(
        path === "" ? [`__init__.py`] : [`${path}.py`, `${path}.pyi`, `${prefix}__init__.py`],
      );
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /**
   * Whether a file declares `name` at its top (its own top-level declaration: a function,
   * class, interface, type, enum, variable, or a Python `def`, `class` or module assignment).
   *
   * @param path - a workspace file
   * @param name - an identifier
   * @returns `true` when it does
   */
  async declares(path: string, name: string): Promise<boolean> {
    const style = moduleStyleOf(path);
    const text = await this.text(path);
    if (style === undefined || text === undefined || !mayDeclare(text, name, style)) return false;
    if (surelyDeclares(text, name, style)) return true;
    const occurrences = await this.#source.occurrences(path, name);
    return (
      occurrences?.some(
        (occurrence) =>
          occurrence.role === "declaration" &&
          occurrence.enclosing === null &&
          occurrence.form === "free",
      ) ?? false
    );
  }

  /**
   * The top-level declarations a module's exported `name` comes from, through its re-exports.
   *
   * @param module - a workspace file
   * @param name - the exported name
   * @returns the definitions (empty when the module does not export it)
   */
  exported(module: string, name: string): Promise<Definition[]> {
    const key = `${module}\n${name}`;
    let found = this.#exports.get(key);
    if (found === undefined) {
      // Set before resolving, so a cycle of re-exports ends (with nothing) instead of looping.
      this.#exports.set(key, Promise.resolve([]));
      found = this.#exported(module, name);
      this.#exports.set(key, found);
    }
    return found;
  }

  async #exported(module: string, name: string): Promise<Definition[]> {
    if (await this.declares(module, name)) return [{ path: module, name }];
    const scan = await this.scan(module);
    if (scan === undefined) return [];
    const found: Definition[] = [];
    for (const entry of scan.reexports) {
      if (entry.exported !== name || entry.imported === "*") continue;
      const target = await this.resolve(module, entry.module);
      if (target !== undefined) found.push(...(await this.exported(target, entry.imported)));
    }
    for (const entry of scan.localExports) {
      if (entry.exported !== name) continue;
      const binding = await this.binding(module, entry.local);
      if (binding.kind === "defined") found.push(...binding.definitions);
    }
    if (found.length === 0 && moduleStyleOf(module) === "python") {
      const binding = await this.binding(module, name);
      if (binding.kind === "defined") found.push(...binding.definitions);
    }
    if (found.length === 0 && name !== "default") {
      for (const entry of scan.reexports) {
        if (entry.exported !== "*") continue;
        const target = await this.resolve(module, entry.module);
        if (target !== undefined) found.push(...(await this.exported(target, name)));
      }
    }
    return unique(found);
  }

  /**
   * What `local` means at the top of a file: its own declaration, an import from a workspace
   * module (followed to the declarations), an import from a package, or nothing.
   *
   * @param path - a workspace file
   * @param local - the name as the file spells it
   * @returns the binding
   */
  async binding(path: string, local: string): Promise<Binding> {
    if (await this.declares(path, local)) {
      return { kind: "defined", definitions: [{ path, name: local }] };
    }
    const scan = await this.scan(path);
    for (const entry of scan?.imports ?? []) {
      if (entry.local !== local || entry.imported === "*") continue;
      const target = await this.resolve(path, entry.module);
      if (target === undefined) {
        // Python's `from pkg import module`: the name may be a submodule, not a declaration.
        return { kind: "package", module: entry.module };
      }
      const definitions = await this.exported(target, entry.imported);
      if (definitions.length > 0) return { kind: "defined", definitions };
    }
    return { kind: "unbound" };
  }

  /**
   * The module a member access's receiver names in a file: `ns` of `import * as ns`, a
   * CommonJS `require`, a Python `import pkg.m` (as `pkg.m`) or `from pkg import m`, then
   * through `export * as sub` for each further part (`z.iso` → `iso.ts`); also `import("./m")`.
   *
   * @param path - a workspace file
   * @param receiver - the receiver's text
   * @returns the module's workspace path, or `undefined` when the receiver is not a module
   */
  async receiverModule(path: string, receiver: string): Promise<string | undefined> {
    const dynamic = /^import\(\s*["']([^"']+)["']\s*\)$/.exec(receiver);
    if (dynamic !== null) return this.resolve(path, dynamic[1] as string);
    if (!/^[\w$]+(?:\s*\.\s*[\w$]+)*$/.test(receiver)) return undefined;
    const parts = receiver.split(".").map((part) => part.trim());
    const scan = await this.scan(path);
    if (scan === undefined) return undefined;
    // The longest prefix bound whole (Python's `import a.b` binds `a.b`).
    for (let length = parts.length; length >= 1; length -= 1) {
      const head = parts.slice(0, length).join(".");
      let module: string | undefined;
      for (const entry of scan.imports) {
        if (entry.local !== head) continue;
        if (entry.imported === "*") module = await this.resolve(path, entry.module);
        else module = await this.#namespaceImport(path, entry.module, entry.imported);
        if (module !== undefined) break;
      }
      if (module === undefined) continue;
      for (const part of parts.slice(length)) {
        module = await this.#namespaceExport(module, part);
        if (module === undefined) return undefined;
      }
      return module;
    }
    return undefined;
  }

  /** `import { sub } from "./m"` where `m` has `export * as sub from`; Python's `from pkg import m`. */
  async #namespaceImport(
    path: string,
    specifier: string,
    imported: string,
  ): Promise<string | undefined> {
    if (moduleStyleOf(path) === "python") {
      const joined = specifier.endsWith(".")
        ? `${specifier}${imported}`
        : `${specifier}.${imported}`;
      return this.resolve(path, joined);
    }
    const target = await this.resolve(path, specifier);
    return target === undefined ? undefined : this.#namespaceExport(target, imported);
  }

  async #namespaceExport(module: string, name: string): Promise<string | undefined> {
    const scan = await this.scan(module);
    for (const entry of scan?.reexports ?? []) {
      if (entry.exported === name && entry.imported === "*")
        return this.resolve(module, entry.module);
    }
    for (const entry of scan?.imports ?? []) {
      if (entry.local === name && entry.imported === "*") {
        const exported = scan?.localExports.some((local) => local.local === name);
        if (exported || moduleStyleOf(module) === "python")
          return this.resolve(module, entry.module);
      }
    }
    return undefined;
  }

  /**
   * The files a module's re-exports reach (itself included): what importing it can bring in.
   *
   * @param module - a workspace file
   * @returns the workspace paths
   */
  reach(module: string): Promise<Set<string>> {
    let reach = this.#reach.get(module);
    if (reach === undefined) {
      const found = new Set<string>([module]);
      this.#reach.set(module, Promise.resolve(found));
      reach = (async () => {
        const scan = await this.scan(module);
        const specifiers = [
          ...(scan?.reexports ?? []).map((entry) => entry.module),
          ...(moduleStyleOf(module) === "python" ? (scan?.imports ?? []) : []).map(
            (entry) => entry.module,
          ),
        ];
        for (const specifier of new Set(specifiers)) {
          const target = await this.resolve(module, specifier);
          if (target === undefined || found.has(target)) continue;
          for (const path of await this.reach(target)) found.add(path);
        }
        return found;
      })();
      this.#reach.set(module, reach);
    }
    return reach;
  }
}

function unique(definitions: Definition[]): Definition[] {
  const seen = new Map<string, Definition>();
  for (const definition of definitions)
    seen.set(`${definition.path}\n${definition.name}`, definition);
  return [...seen.values()];
}
