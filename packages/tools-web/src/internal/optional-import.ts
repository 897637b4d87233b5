import { WebRequestError } from "./http-transport.js";

/**
 * Imports an optional peer dependency at call time. A missing package becomes a
 * `DEPENDENCY_MISSING` {@link WebRequestError} with an install hint — never a crash.
 *
 * @param specifier - the package name
 * @param purpose - what it is needed for, e.g. "PDF text extraction"
 * @returns the module
 */
export async function importOptionalPeer<Module>(
  specifier: string,
  purpose: string,
): Promise<Module> {
  try {
    // A variable specifier keeps bundlers from resolving the optional peer at build time.
    const name = specifier;
    return (await import(/* @vite-ignore */ name)) as Module;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const missing =
      code === "ERR_MODULE_NOT_FOUND" ||
      code === "MODULE_NOT_FOUND" ||
      (error instanceof Error &&
        /Cannot find (package|module)|Failed to resolve/i.test(error.message));
    if (!missing) throw error;
    throw new WebRequestError(
      "DEPENDENCY_MISSING",
      `${purpose} needs the optional package "${specifier}", which is not installed.`,
      {
        hint: `Ask the host to install it (pnpm add ${specifier}); meanwhile use another source for this content.`,
        retryable: false,
      },
    );
  }
}
