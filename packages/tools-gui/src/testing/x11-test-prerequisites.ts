import { spawnSync } from "node:child_process";
import {
  describeMissingX11Programs,
  missingX11Programs,
  type X11Program,
} from "../node/missing-x11-programs.js";

/** Options of {@link missingX11TestPrerequisites}. */
export interface X11TestPrerequisitesOptions {
  /** Whether the tests start the Tk test app (python3's tkinter). Default true. */
  tk?: boolean;
  /** Whether the tests read window titles with `xprop` (x11-utils). Default false. */
  xprop?: boolean;
  /** The PATH searched for the programs (default `process.env.PATH`). */
  path?: string;
}

function run(program: string, args: string[]): ReturnType<typeof spawnSync> {
  return spawnSync(program, args, { stdio: "ignore", timeout: 10_000 });
}

/**
 * What X11 tests on an Xvfb need and this machine lacks: the programs `startXvfbDisplay` needs
 * (see `missingX11Programs` on `./node`), then `xprop` when asked for and python3's tkinter for
 * the Tk test app.
 *
 * @param options - which extra prerequisites the tests have, and the PATH
 * @returns the missing ones with their Debian packages (empty when the tests can run)
 * @example
 * missingX11TestPrerequisites(); // [] on a machine with xvfb, xauth, xdotool, x11-apps, python3-tk
 */
export function missingX11TestPrerequisites(
  options: X11TestPrerequisitesOptions = {},
): X11Program[] {
  const missing = missingX11Programs(options.path === undefined ? {} : { path: options.path });
  // xprop exits 1 without a display: whether it starts is what tells it is installed.
  if (options.xprop === true && run("xprop", ["-version"]).error !== undefined) {
    missing.push({ program: "xprop", debianPackage: "x11-utils" });
  }
  if (options.tk !== false && run("/usr/bin/python3", ["-c", "import tkinter"]).status !== 0) {
    missing.push({ program: "python3's tkinter", debianPackage: "python3-tk" });
  }
  return missing;
}

/** Options of {@link x11TestSkipReason}. */
export interface X11TestSkipOptions extends X11TestPrerequisitesOptions {
  /**
   * Whether a missing prerequisite is an error instead of a skip (CI, where the set-up step
   * installs X). Default: whether the environment variable `AGENTOOL_REQUIRE_SYSTEM` is set.
   */
  require?: boolean;
}

/**
 * Why X11 tests cannot run here, or undefined when they can; for `describe.skipIf(reason !==
 * undefined)`. The reason names the missing programs and the `apt-get install` line, and is
 * printed as a warning; where a missing prerequisite is required it throws instead.
 *
 * @param label - the tests' name, for the warning or the error
 * @param options - which extra prerequisites the tests have, and whether they are required
 * @returns the reason to skip, or undefined
 * @throws Error naming the label and the reason when a prerequisite is missing and required
 * @example
 * const X11_MISSING = x11TestSkipReason("my gui tests");
 * describe.skipIf(X11_MISSING !== undefined)("my gui tests", () => { … });
 */
export function x11TestSkipReason(
  label: string,
  options: X11TestSkipOptions = {},
): string | undefined {
  const missing = missingX11TestPrerequisites(options);
  if (missing.length === 0) return undefined;
  const reason = describeMissingX11Programs(missing);
  const required = options.require ?? process.env.AGENTOOL_REQUIRE_SYSTEM !== undefined;
  if (required) {
    const why =
      options.require === undefined ? "AGENTOOL_REQUIRE_SYSTEM is set" : "X11 is required";
    throw new Error(`${label}: ${why} but ${reason}`);
  }
  console.warn(`${label} skipped: ${reason}`);
  return reason;
}
