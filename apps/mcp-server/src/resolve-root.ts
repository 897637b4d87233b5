import { readFileSync, realpathSync, statSync } from "node:fs";
import { AgentoolError } from "@agentool/contract";

/**
 * The package's version from its package.json: one folder up from the compiled module
 * (dist/), two from the bundled bin (dist/bin/).
 */
function packageVersion(): string {
  for (const relative of ["../package.json", "../../package.json"]) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === "@agentool/mcp-server" && typeof manifest.version === "string")
        return manifest.version;
    } catch {
      // not this folder
    }
  }
  return "0.0.0";
}

/** The version of `@agentool/mcp-server` (from its package.json). */
export const AGENTOOL_MCP_SERVER_VERSION: string = packageVersion();

/**
 * Resolves a confinement root: its real path, checked to be an existing directory.
 *
 * @param path - the directory as given
 * @param label - how the message names it (`"--root"`, `"the client's root"`)
 * @returns the real path
 * @throws AgentoolError naming the path and the fix when it is missing or not a directory
 * @example
 * resolveRoot(".", "--root"); // "/work/project"
 */
export function resolveRoot(path: string, label: string): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AgentoolError(
      code === "ENOENT"
        ? `${label} ${path} does not exist: pass an existing directory to confine the tools to.`
        : `${label} ${path} cannot be opened (${code ?? String(error)}): pass a directory this user can read.`,
    );
  }
  if (!statSync(real).isDirectory()) {
    throw new AgentoolError(
      `${label} ${path} is not a directory: pass the directory to confine the tools to (e.g. its parent).`,
    );
  }
  return real;
}
