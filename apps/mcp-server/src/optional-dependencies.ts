import { AgentoolError } from "@agentool/contract";
import type { FamilyName } from "./family-names.js";

/** Loads a module by specifier (`(specifier) => import(specifier)`); a seam for tests. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

/** The optional peer dependency the preview family drives Chromium with. */
export const PREVIEW_DEPENDENCY = "playwright-core";

/** The line that installs it. */
export const PREVIEW_DEPENDENCY_INSTALL = `npm install ${PREVIEW_DEPENDENCY}`;

/**
 * A family was asked for whose optional dependency is not installed (or does not load). Its
 * `code` is the contract's `DEPENDENCY_MISSING`; the message names the install line.
 */
export class DependencyMissingError extends AgentoolError {
  /** Always `"DEPENDENCY_MISSING"`. */
  readonly code = "DEPENDENCY_MISSING";

  /**
   * @param message - what is missing and the install line
   * @param options - the import failure
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DependencyMissingError";
  }
}

const importModule: ModuleImporter = (specifier) => import(specifier);

/**
 * Checks, before serving, that the optional dependencies of the requested families load: the
 * preview family needs `playwright-core` (an optional peer of `@agentool/mcp-server`, so the
 * default install stays small). Nothing is imported unless such a family is requested — the
 * other families never load `playwright-core`.
 *
 * @param families - the families to serve
 * @param load - how modules are loaded (default: dynamic `import`)
 * @returns when every needed dependency loaded
 * @throws DependencyMissingError naming the install line (`npm install playwright-core`)
 * @example
 * await checkOptionalDependencies(["core", "preview"]);
 */
export async function checkOptionalDependencies(
  families: readonly FamilyName[],
  load: ModuleImporter = importModule,
): Promise<void> {
  if (!families.includes("preview")) return;
  try {
    await load(PREVIEW_DEPENDENCY);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const missing = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
    const reason = missing
      ? "which is not installed"
      : `which does not load (${error instanceof Error ? error.message : String(error)})`;
    throw new DependencyMissingError(
      `Error [DEPENDENCY_MISSING]: the preview family needs ${PREVIEW_DEPENDENCY}, ${reason}. Install it next to @agentool/mcp-server: ${PREVIEW_DEPENDENCY_INSTALL} (and a Chromium, e.g. apt-get install -y chromium), or drop preview from --families.`,
      { cause: error },
    );
  }
}
