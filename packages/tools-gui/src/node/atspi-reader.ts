import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { ToolFailureError } from "@agentool/contract";
import { z } from "zod";
import type {
  AccessibilityReader,
  AccessibleElement,
  AccessibleWindow,
  DisplayRegion,
} from "../computer-display.js";
import { ATSPI_READER_SCRIPT } from "./atspi-reader-script.js";
import { runProgram } from "./run-program.js";

/** Debian's python3, which has python3-gi and the AT-SPI typelib (PyPI's has neither). */
export const ATSPI_PYTHON = "/usr/bin/python3";
/** The program D-Bus starts to give the accessibility bus (Debian's at-spi2-core). */
export const ATSPI_BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher";
/** The Debian packages accessibility needs, as one apt-get line. */
export const ATSPI_PACKAGES = "dbus-daemon at-spi2-core python3-gi gir1.2-atspi-2.0";

/** Most elements one read returns to the tool (which pages through them). */
export const DEFAULT_MAX_ACCESSIBLE_ELEMENTS = 1_000;
/** Most characters of one field's text the reader keeps. */
export const DEFAULT_MAX_VALUE_CHARACTERS = 200;

const boxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable();
const elementSchema = z.tuple([
  z.number().int().min(0),
  z.string(),
  z.string(),
  z.string().nullable(),
  z.boolean(),
  z.array(z.string()),
  boxSchema,
]);
const outputSchema = z.union([
  z.object({ error: z.literal("no-window") }),
  z.object({
    title: z.string(),
    application: z.string(),
    focused: z.boolean(),
    box: boxSchema,
    elements: z.array(elementSchema),
    incomplete: z.boolean(),
    others: z.array(z.string()),
  }),
]);

function region(box: z.infer<typeof boxSchema>): DisplayRegion | undefined {
  if (box === null) return undefined;
  const [x, y, width, height] = box;
  return { x, y, width, height };
}

/**
 * Why AT-SPI cannot be read on this machine (a missing program or binding, with the Debian
 * packages), or undefined when it can.
 *
 * @returns the reason, or undefined
 */
export function missingAccessibility(): string | undefined {
  const missing: string[] = [];
  const probe = spawnSync("dbus-daemon", ["--version"], { stdio: "ignore", timeout: 10_000 });
  if (probe.error !== undefined) missing.push("dbus-daemon (package dbus-daemon)");
  try {
    accessSync(ATSPI_BUS_LAUNCHER, constants.X_OK);
  } catch {
    missing.push(`${ATSPI_BUS_LAUNCHER} (package at-spi2-core)`);
  }
  const python = spawnSync(
    ATSPI_PYTHON,
    ["-I", "-c", 'import gi; gi.require_version("Atspi", "2.0"); from gi.repository import Atspi'],
    { stdio: "ignore", timeout: 10_000 },
  );
  if (python.error !== undefined || python.status !== 0) {
    missing.push(`${ATSPI_PYTHON} with the AT-SPI bindings (packages python3-gi gir1.2-atspi-2.0)`);
  }
  if (missing.length === 0) return undefined;
  return `AT-SPI is not available here: missing ${missing.join(", ")}. Debian: apt-get install ${ATSPI_PACKAGES} (or node scripts/setup-system.mjs test).`;
}

/** Options of {@link AtspiReader}. */
export interface AtspiReaderOptions {
  /** The reader's environment: DISPLAY, XAUTHORITY and the session bus of the display's apps. */
  environment: Record<string, string>;
  /** Milliseconds one read may take. */
  timeoutMs: number;
  /** Most elements one read returns. Default 1,000. */
  maxElements?: number;
  /** Most characters of one field's text. Default 200. */
  maxValueCharacters?: number;
}

/**
 * Reads the focused window's accessibility tree over AT-SPI by running Debian's python3 with
 * the reader script (argv only, a scrubbed environment, a time limit and an output cap).
 */
export class AtspiReader implements AccessibilityReader {
  readonly #options: AtspiReaderOptions;

  /** @param options - the environment with the session bus, the time limit and the caps */
  constructor(options: AtspiReaderOptions) {
    this.#options = options;
  }

  async readWindow(signal: AbortSignal): Promise<AccessibleWindow> {
    const maxElements = this.#options.maxElements ?? DEFAULT_MAX_ACCESSIBLE_ELEMENTS;
    const maxValue = this.#options.maxValueCharacters ?? DEFAULT_MAX_VALUE_CHARACTERS;
    let stdout: Buffer;
    try {
      const output = await runProgram(
        ATSPI_PYTHON,
        ["-I", "-W", "ignore", "-c", ATSPI_READER_SCRIPT, String(maxElements), String(maxValue)],
        {
          environment: this.#options.environment,
          signal,
          timeoutMs: this.#options.timeoutMs,
          maxOutputBytes: 64 * 1024 + maxElements * (maxValue * 4 + 1_024),
        },
      );
      stdout = output.stdout;
    } catch (error) {
      if (error instanceof ToolFailureError && /exit 3\b/.test(error.message)) {
        throw new ToolFailureError("UNSUPPORTED", "The AT-SPI bindings are not installed.", {
          hint: `Debian: apt-get install ${ATSPI_PACKAGES}. Use screenshot and zoom meanwhile.`,
        });
      }
      throw error;
    }
    return parseReaderOutput(stdout.toString("utf8"));
  }
}

/**
 * Parses and checks what the reader script printed.
 *
 * @param text - its standard output
 * @returns the window
 * @throws ToolFailureError `UNSUPPORTED` when no app on the display speaks AT-SPI, `INTERNAL` for output that is not the reader's
 */
export function parseReaderOutput(text: string): AccessibleWindow {
  let parsed: z.infer<typeof outputSchema>;
  try {
    parsed = outputSchema.parse(JSON.parse(text));
  } catch (error) {
    throw new ToolFailureError(
      "INTERNAL",
      `The AT-SPI reader printed something unexpected: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`,
    );
  }
  if ("error" in parsed) {
    throw new ToolFailureError(
      "UNSUPPORTED",
      "No accessible window is shown on this display (no app registered with AT-SPI).",
      {
        hint: "Take a screenshot to see the screen: only apps that speak AT-SPI (GTK 3 apps do; Tk and plain X apps do not) are listed.",
      },
    );
  }
  const elements = parsed.elements.map(
    ([depth, role, name, value, valueTruncated, states, box]): AccessibleElement => {
      const element: AccessibleElement = { depth, role, name, states };
      if (value !== null) element.value = value;
      if (valueTruncated) element.valueTruncated = true;
      const where = region(box);
      if (where !== undefined) element.box = where;
      return element;
    },
  );
  const window: AccessibleWindow = {
    title: parsed.title,
    application: parsed.application,
    focused: parsed.focused,
    elements,
    incomplete: parsed.incomplete,
    otherWindows: parsed.others,
  };
  const box = region(parsed.box);
  if (box !== undefined) window.box = box;
  return window;
}
