import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** A program tools-gui runs, with the Debian package that installs it. */
export interface X11Program {
  /** The program's name, as it is looked up on `PATH`. */
  program: string;
  /** The Debian (and Ubuntu) package that installs it. */
  debianPackage: string;
}

/** What {@link connectX11Display} runs: input by XTEST and screenshots. */
const DISPLAY_PROGRAMS: readonly X11Program[] = [
  { program: "xdotool", debianPackage: "xdotool" },
  { program: "xwd", debianPackage: "x11-apps" },
];

/** What {@link startXvfbDisplay} runs besides those: the server and its cookie writer. */
const XVFB_PROGRAMS: readonly X11Program[] = [
  { program: "Xvfb", debianPackage: "xvfb" },
  { program: "xauth", debianPackage: "xauth" },
];

/** What {@link missingX11Programs} is given. */
export interface MissingX11ProgramsOptions {
  /**
   * Which display the host means to use: `"xvfb"` (startXvfbDisplay: Xvfb, xauth, xdotool, xwd)
   * or `"existing"` (connectX11Display: xdotool, xwd). Default `"xvfb"`.
   */
  display?: "xvfb" | "existing";
  /** The search path. Default `process.env.PATH`. */
  path?: string;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The X programs a display needs that are not on the search path, each with the Debian package
 * that installs it — for a host's start-up check or a test's skip reason. It only looks at the
 * path (no program is run), so it is cheap to call.
 *
 * @param options - which display (`xvfb` by default or `existing`), the search path
 * @returns the missing programs, in the order they are listed above; empty when all are there
 * @example
 * const missing = missingX11Programs();
 * if (missing.length > 0) console.error(describeMissingX11Programs(missing));
 */
export function missingX11Programs(options: MissingX11ProgramsOptions = {}): X11Program[] {
  const folders = (options.path ?? process.env.PATH ?? "")
    .split(delimiter)
    .filter((folder) => folder.length > 0);
  const needed =
    options.display === "existing" ? DISPLAY_PROGRAMS : [...XVFB_PROGRAMS, ...DISPLAY_PROGRAMS];
  return needed.filter(
    ({ program }) => !folders.some((folder) => isExecutable(join(folder, program))),
  );
}

/**
 * One sentence naming missing programs and the install command, e.g.
 * `Xvfb, xauth are not installed (Debian: apt-get install xvfb xauth).`
 *
 * @param missing - what {@link missingX11Programs} returned (non-empty)
 * @returns the sentence
 */
export function describeMissingX11Programs(missing: readonly X11Program[]): string {
  const programs = missing.map(({ program }) => program);
  const packages = [...new Set(missing.map(({ debianPackage }) => debianPackage))];
  const verb = programs.length === 1 ? "is" : "are";
  return `${programs.join(", ")} ${verb} not installed (Debian: apt-get install ${packages.join(" ")}).`;
}
