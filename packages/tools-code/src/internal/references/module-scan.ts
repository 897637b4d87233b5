/**
 * A lexical pass over one file's import and export statements (TypeScript/JavaScript and
 * Python), for `find_references`' import following: which local names a file binds to which
 * module (`import { a as b } from "./m"`, `import * as ns`, `const { a } = require("./m")`,
 * `from .m import a`, `import pkg.m as m`), and what it re-exports (`export { a } from`,
 * `export * from`, `export * as ns from`, `export { a as b }`). Regular expressions over the
 * text, no parse: a file that neither declares nor imports a name needs no tree. Statements
 * quoted in comments are read as code (rare, and harmless: they only widen what is followed).
 *
 * @internal
 */

/** How a file's module statements are written. */
export type ModuleStyle = "javascript" | "python";

/** A local name bound by an import. */
export interface ImportBinding {
  /** The name in this file (`b` of `import { a as b }`; `ns`; Python's `pkg.m` of `import pkg.m`). */
  local: string;
  /** The name in the module (`a`), `*` for a whole-module binding, `default` for a default import. */
  imported: string;
  /** The module specifier as written (`./m.js`, `zod`, `.m`, `pkg.m`). */
  module: string;
}

/** A re-export of another module's name (`export { a as b } from "./m"`, `export * from`). */
export interface ReExport {
  /** The name exported here (`b`), or `*` for `export * from`. */
  exported: string;
  /** The module's name (`a`), or `*` (for `export *` and `export * as ns`). */
  imported: string;
  /** The module specifier as written. */
  module: string;
}

/** `export { a as b }` without `from`: a local name exported under another. */
export interface LocalExport {
  /** The exported name. */
  exported: string;
  /** The local name. */
  local: string;
}

/** What {@link scanModule} found. */
export interface ModuleScan {
  imports: ImportBinding[];
  reexports: ReExport[];
  localExports: LocalExport[];
}

const JS_IMPORT =
  /\bimport\s+(?:type\s+)?((?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*\s*as\s+[\w$]+)|[\w$]+)\s*from\s*["']([^"'\n]+)["']/g;
const JS_EXPORT_FROM =
  /\bexport\s+(?:type\s+)?(?:\*\s*(?:as\s+([\w$]+)\s*)?|\{([^}]*)\}\s*)from\s*["']([^"'\n]+)["']/g;
const JS_LOCAL_EXPORT = /\bexport\s+(?:type\s+)?\{([^}]*)\}(?!\s*from\b)/g;
const JS_REQUIRE =
  /\b(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*require\(\s*["']([^"'\n]+)["']\s*\)(?:\.([\w$]+))?/g;
const TS_IMPORT_REQUIRE = /\bimport\s+([\w$]+)\s*=\s*require\(\s*["']([^"'\n]+)["']\s*\)/g;
const PY_FROM_IMPORT = /^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)/gm;
const PY_IMPORT = /^[ \t]*import[ \t]+([^\n#;]+)/gm;

/** `a`, `a as b`, `type a as b`, `a: b` (destructuring) → [imported, local]. */
function specifiers(list: string, separator: RegExp): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const raw of list.split(",")) {
    const item = raw
      .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|#[^\n]*/g, "")
      .replace(/^\s*type\s+(?=[\w$])/, "")
      .trim();
    if (item === "") continue;
    const [imported, local] = item.split(separator).map((part) => part.trim());
    if (imported === undefined || !/^[\w$]+$/.test(imported)) continue;
    const bound = local !== undefined && /^[\w$]+$/.test(local) ? local : imported;
    pairs.push([imported, bound]);
  }
  return pairs;
}

function scanJavaScript(text: string): ModuleScan {
  const scan: ModuleScan = { imports: [], reexports: [], localExports: [] };
  for (const match of text.matchAll(JS_IMPORT)) {
    const clause = match[1] as string;
    const module = match[2] as string;
    const defaultName = /^([\w$]+)\s*(?:,|$)/.exec(clause)?.[1];
    if (defaultName !== undefined)
      scan.imports.push({ local: defaultName, imported: "default", module });
    const namespace = /\*\s*as\s+([\w$]+)/.exec(clause)?.[1];
    if (namespace !== undefined) scan.imports.push({ local: namespace, imported: "*", module });
    const braces = /\{([^}]*)\}/.exec(clause)?.[1];
    if (braces !== undefined) {
      for (const [imported, local] of specifiers(braces, /\s+as\s+/))
        scan.imports.push({ local, imported, module });
    }
  }
  for (const match of text.matchAll(JS_EXPORT_FROM)) {
    const module = match[3] as string;
    if (match[2] !== undefined) {
      for (const [imported, exported] of specifiers(match[2], /\s+as\s+/))
        scan.reexports.push({ exported, imported, module });
    } else {
      scan.reexports.push({ exported: match[1] ?? "*", imported: "*", module });
    }
  }
  for (const match of text.matchAll(JS_LOCAL_EXPORT)) {
    for (const [local, exported] of specifiers(match[1] as string, /\s+as\s+/))
      scan.localExports.push({ exported, local });
  }
  for (const match of text.matchAll(JS_REQUIRE)) {
    const target = match[1] as string;
    const module = match[2] as string;
    if (target.startsWith("{")) {
      for (const [imported, local] of specifiers(target.slice(1, -1), /\s*:\s*/))
        scan.imports.push({ local, imported, module });
    } else {
      scan.imports.push({ local: target, imported: match[3] ?? "*", module });
    }
  }
  for (const match of text.matchAll(TS_IMPORT_REQUIRE))
    scan.imports.push({ local: match[1] as string, imported: "*", module: match[2] as string });
  return scan;
}

function scanPython(text: string): ModuleScan {
  const scan: ModuleScan = { imports: [], reexports: [], localExports: [] };
  for (const match of text.matchAll(PY_FROM_IMPORT)) {
    const module = match[1] as string;
    const names = (match[2] as string).replace(/^\(|\)$/g, "").replace(/\\\n/g, " ");
    if (names.trim().startsWith("*")) {
      scan.reexports.push({ exported: "*", imported: "*", module });
      continue;
    }
    for (const [imported, local] of specifiers(names, /\s+as\s+/))
      scan.imports.push({ local, imported, module });
  }
  for (const match of text.matchAll(PY_IMPORT)) {
    for (const raw of (match[1] as string).split(",")) {
      const [dotted, alias] = raw.trim().split(/\s+as\s+/);
      if (dotted === undefined || !/^[\w.]+$/.test(dotted)) continue;
      // `import a.b` binds `a.b` as written (uses read `a.b.x`); `import a.b as c` binds `c`.
      scan.imports.push({ local: alias?.trim() || dotted, imported: "*", module: dotted });
    }
  }
  return scan;
}

/**
 * Reads a file's import and export statements.
 *
 * @param text - the file's text
 * @param style - `javascript` (TypeScript, TSX, JavaScript) or `python`
 * @returns its bindings and re-exports
 */
export function scanModule(text: string, style: ModuleStyle): ModuleScan {
  return style === "python" ? scanPython(text) : scanJavaScript(text);
}

/** Regular-expression escape. */
function escapeName(name: string): string {
  return name.replace(/[$]/g, "\\$");
}

/**
 * Whether the text surely declares `name` at the top of the file: a declaration that starts a
 * line (`export class name`, `const name =`, Python `def name`, `name = …`). No parse needed.
 *
 * @param text - the file's text
 * @param name - an identifier
 * @param style - the file's module style
 * @returns `true` when such a line is there
 */
export function surelyDeclares(text: string, name: string, style: ModuleStyle): boolean {
  const word = escapeName(name);
  if (style === "python") {
    return new RegExp(
      `^(?:(?:async[ \\t]+)?def|class)[ \\t]+${word}\\b|^${word}[ \\t]*(?::[^=\\n]*)?=(?!=)`,
      "m",
    ).test(text);
  }
  return new RegExp(
    `^(?:export\\s+)?(?:declare\\s+)?(?:default\\s+)?(?:abstract\\s+)?(?:async\\s+)?(?:function\\s*\\*?|class|interface|type|enum|const|let|var|namespace)\\s+${word}(?![\\w$])|^(?:module\\.)?exports\\.${word}\\s*=`,
    "m",
  ).test(text);
}

/**
 * Whether the text may declare `name` at the top of the file, by its spelling (`function name`,
 * `class name`, `const name`, `exports.name =`, Python `def name` / `name =` at the line start…).
 * A cheap filter before the parse that decides; never false when the file declares it.
 *
 * @param text - the file's text
 * @param name - an identifier
 * @param style - the file's module style
 * @returns `true` when a declaration may be there
 */
export function mayDeclare(text: string, name: string, style: ModuleStyle): boolean {
  const word = escapeName(name);
  if (style === "python") {
    return new RegExp(
      `^(?:(?:async[ \\t]+)?def|class)[ \\t]+${word}\\b|^${word}[ \\t]*(?::[^=\\n]*)?=|^[\\w, \\t]*\\b${word}\\b[\\w, \\t]*=[^=]|^(?:for|with)\\b[^\\n]*\\b${word}\\b|^[ \\t]*global\\b[^\\n]*\\b${word}\\b`,
      "m",
    ).test(text);
  }
  return new RegExp(
    `\\b(?:function\\s*\\*?|class|interface|type|enum|const|let|var|namespace|module)\\s+${word}(?![\\w$])|\\bexports\\.${word}\\s*=|\\b(?:const|let|var)\\s*[{[][^=;]*(?<![\\w$])${word}(?![\\w$])`,
  ).test(text);
}
