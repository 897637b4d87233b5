import { AgentoolError } from "@agentool/contract";
import type { FamilyName } from "./family-names.js";

/** Loads a module by specifier (`(specifier) => import(specifier)`); a seam for tests. */
export type ModuleImporter = (specifier: string) => Promise<unknown>;

/** The optional peer dependency the preview and browser families drive Chromium with. */
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

/** The families that drive Chromium with {@link PREVIEW_DEPENDENCY}. */
const CHROMIUM_FAMILIES: readonly FamilyName[] = ["preview", "browser"];

/**
 * Checks, before serving, that the optional dependencies of the requested families load: the
 * preview and browser families need `playwright-core` (an optional peer of
 * `@agentool/mcp-server`, so the default install stays small). Nothing is imported unless such a
 * family is requested — the other families never load `playwright-core`.
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
  const needing = CHROMIUM_FAMILIES.filter((family) => families.includes(family));
  if (needing.length === 0) return;
  try {
    await load(PREVIEW_DEPENDENCY);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const missing = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
    const reason = missing
      ? "which is not installed"
      : `which does not load (${error instanceof Error ? error.message : String(error)})`;
    const named = needing.join(" and ");
    const subject =
      needing.length === 1 ? `the ${named} family needs` : `the ${named} families need`;
    throw new DependencyMissingError(
      `Error [DEPENDENCY_MISSING]: ${subject} ${PREVIEW_DEPENDENCY}, ${reason}. Install it next to @agentool/mcp-server: ${PREVIEW_DEPENDENCY_INSTALL} (and a Chromium, e.g. apt-get install -y chromium), or drop ${named} from --families.`,
      { cause: error },
    );
  }
}
