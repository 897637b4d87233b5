import { spawnSync } from "node:child_process";
import { describeMissingX11Programs, missingX11Programs } from "@agentool/tools-gui/node";

/**
 * Why the X tests cannot run here, or undefined when they can: the programs startXvfbDisplay
 * needs (tools-gui's missingX11Programs) and, unless `tk: false`, Tk for tools-gui's test app. With
 * AGENTOOL_REQUIRE_SYSTEM set (CI, where the set-up step installs them) a missing one throws
 * instead of skipping.
 *
 * @param label - the tests', for the warning or the error
 * @param options - `tk: false` when the tests start no Tk app
 * @returns the reason to skip, or undefined
 */
export function missingX11Prerequisite(
  label: string,
  options: { tk?: boolean } = {},
): string | undefined {
  const missing = missingX11Programs();
  const tk =
    options.tk === false
      ? undefined
      : spawnSync("/usr/bin/python3", ["-c", "import tkinter"], {
          stdio: "ignore",
          timeout: 10_000,
        });
  if (tk !== undefined && tk.status !== 0) {
    missing.push({ program: "python3's tkinter", debianPackage: "python3-tk" });
  }
  if (missing.length === 0) return undefined;
  const reason = `${describeMissingX11Programs(missing)} Or run \`node scripts/setup-system.mjs test\` (as root).`;
  if (process.env.AGENTOOL_REQUIRE_SYSTEM !== undefined) {
    throw new Error(`${label}: AGENTOOL_REQUIRE_SYSTEM is set but ${reason}`);
  }
  console.warn(`${label} skipped: ${reason}`);
  return reason;
}
