import { builtinModules } from "node:module";
import { rolldown } from "rolldown";

const NODE_BUILTINS = new Set(builtinModules);

/** A browser bundle of one script and what it tried to take from Node. */
export interface BrowserBundle {
  /** The ESM code of the whole graph in one file. */
  code: string;
  /**
   * Every import of a Node built-in the graph asked for: `node:` specifiers and bare built-in
   * names (`fs`, `buffer`, `process`…), which in a browser build can only resolve to a shim
   * package or fail. Each as `specifier (from importer)`.
   */
  nodeImports: string[];
  /** The absolute path of every module the graph loaded (re-export-only files included). */
  loadedModules: string[];
}

/**
 * Tells whether an import specifier names a Node built-in (`node:fs`, `fs`, `fs/promises`,
 * `buffer`, `process`…).
 *
 * @param specifier - the import specifier as written
 * @returns whether it names a built-in
 */
export function isNodeBuiltin(specifier: string): boolean {
  if (specifier.startsWith("node:")) return true;
  return NODE_BUILTINS.has(specifier) || NODE_BUILTINS.has(specifier.split("/")[0] ?? "");
}

/**
 * Bundles a script the way a browser app would (rolldown, platform `browser`, one ESM file),
 * recording every import of a Node built-in instead of resolving it: a built-in is never
 * replaced by a shim here, so a graph that needs one is reported, not hidden.
 *
 * @param input - the absolute path of the script
 * @returns the code, the Node built-ins the graph imports (none when it is runtime-neutral) and
 *   the modules loaded
 * @example
 * const { code, nodeImports } = await bundleForBrowser("/repo/src/browser-entries/tools-core.ts");
 */
export async function bundleForBrowser(input: string): Promise<BrowserBundle> {
  const nodeImports: string[] = [];
  const loadedModules: string[] = [];
  const bundle = await rolldown({
    input,
    platform: "browser",
    logLevel: "silent",
    plugins: [
      {
        name: "record-node-builtins",
        resolveId(specifier, importer) {
          if (!isNodeBuiltin(specifier)) return null;
          nodeImports.push(`${specifier} (from ${importer ?? "the entry"})`);
          return { id: specifier, external: true };
        },
        load(id) {
          loadedModules.push(id);
          return null;
        },
      },
    ],
  });
  try {
    const { output } = await bundle.generate({ format: "esm", codeSplitting: false });
    const chunk = output[0];
    return { code: chunk.code, nodeImports, loadedModules };
  } finally {
    await bundle.close();
  }
}
