import { UsageError } from "../usage-error.js";

/** The Xvfb display `--gui-xvfb` (and `--gui-app`) ask the gui family to start. */
export interface GuiXvfbOptions {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** `--gui-app`: the program and its arguments (split on spaces, run without a shell). */
  app?: string[];
}

/** The smallest and largest side `--gui-xvfb` accepts (Xvfb's own limit is 32767). */
const SIDE = { min: 64, max: 8_192 } as const;

/**
 * Reads `--gui-xvfb <width>x<height>` and `--gui-app <command>` (which needs it).
 *
 * @param size - the `--gui-xvfb` value, when given
 * @param app - the `--gui-app` value, when given
 * @returns the display to start, or undefined (drive the host's `DISPLAY`)
 * @throws UsageError for a size that is not WIDTHxHEIGHT in range, or an app without --gui-xvfb
 * @example
 * parseGuiXvfb("1280x800", "xterm -geometry 100x30");
 * // { width: 1280, height: 800, app: ["xterm", "-geometry", "100x30"] }
 */
export function parseGuiXvfb(
  size: string | undefined,
  app: string | undefined,
): GuiXvfbOptions | undefined {
  if (size === undefined) {
    if (app !== undefined) {
      throw new UsageError(
        "--gui-app launches a program into the display the server starts: add --gui-xvfb <width>x<height> (e.g. 1280x800) or drop --gui-app.",
      );
    }
    return undefined;
  }
  const match = /^(\d{1,5})x(\d{1,5})$/i.exec(size.trim());
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  if (match === null || [width, height].some((side) => side < SIDE.min || side > SIDE.max)) {
    throw new UsageError(
      `--gui-xvfb needs <width>x<height> in pixels, each from ${SIDE.min} to ${SIDE.max}, e.g. --gui-xvfb 1280x800 (got "${size}").`,
    );
  }
  if (app === undefined) return { width, height };
  const words = app.split(/\s+/).filter((word) => word.length > 0);
  if (words.length === 0) {
    throw new UsageError('--gui-app needs a program, e.g. --gui-app "xterm".');
  }
  return { width, height, app: words };
}

/**
 * Reads `--figma-api-url`: an http(s) origin, without a path.
 *
 * @param value - the flag's value
 * @returns the origin
 * @throws UsageError for anything but a bare http(s) origin
 */
export function parseFigmaApiUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    url.origin !== value.replace(/\/$/, "")
  ) {
    throw new UsageError(
      `--figma-api-url needs the origin of a Figma REST API (scheme, host and port, no path), e.g. https://api.figma.com (got "${value}").`,
    );
  }
  return url.origin;
}
