import { AgentoolError, ToolFailureError } from "@agentool/contract";
import sharp from "sharp";
import type {
  AccessibilityReader,
  CaptureRequest,
  ComputerDisplay,
  MouseButton,
  ScrollDirection,
} from "../computer-display.js";
import { runProgram } from "./run-program.js";
import { decodeXwd } from "./xwd.js";

/** Milliseconds one xdotool or xwd run may take. */
export const DEFAULT_X11_COMMAND_TIMEOUT_MS = 10_000;

const BUTTONS: Readonly<Record<MouseButton, string>> = { left: "1", middle: "2", right: "3" };
const WHEEL: Readonly<Record<ScrollDirection, string>> = {
  up: "4",
  down: "5",
  left: "6",
  right: "7",
};
const DISPLAY_NAME = /^[A-Za-z0-9.-]*:\d{1,5}(\.\d{1,3})?$/;

/** Options of {@link connectX11Display}. */
export interface X11DisplayOptions {
  /** The X display, e.g. `":1"`. Default: the `DISPLAY` environment variable. */
  display?: string;
  /** Milliseconds one xdotool or xwd run may take. Default 10,000. */
  commandTimeoutMs?: number;
  /** The display's X authority file (its cookie). Default: the `XAUTHORITY` environment variable, else `~/.Xauthority`. */
  authorityFile?: string;
}

/**
 * The environment the X programs run with: the display, its authority and the basics, nothing
 * else of the host's. With `authorityFile` (a display this package started) HOME is left out
 * too: Xlib reads HOME only to find `~/.Xauthority`.
 *
 * @param display - the display name
 * @param authorityFile - the X authority file; default the host's `XAUTHORITY` (and HOME)
 * @returns DISPLAY, PATH, XAUTHORITY, LANG (and HOME without `authorityFile`) when set
 */
export function x11Environment(display: string, authorityFile?: string): Record<string, string> {
  const environment: Record<string, string> = {
    DISPLAY: display,
    PATH: process.env.PATH ?? "/usr/bin:/bin",
  };
  const names = authorityFile === undefined ? ["HOME", "XAUTHORITY", "LANG"] : ["LANG"];
  for (const name of names) {
    const value = process.env[name];
    if (value !== undefined) environment[name] = value;
  }
  if (authorityFile !== undefined) environment.XAUTHORITY = authorityFile;
  return environment;
}

/**
 * An X11 display driven with `xdotool` (input over XTEST) and `xwd` (screenshots, scaled to PNG
 * by sharp). Every program runs with an argv array and a scrubbed environment; text is typed
 * from standard input, so it is never read as an option or a command. Make one with
 * {@link connectX11Display} or `startXvfbDisplay`.
 */
export class X11Display implements ComputerDisplay {
  /** The X display name, e.g. `":99"`. */
  readonly name: string;
  readonly width: number;
  readonly height: number;
  /** The X authority file every client of this display is given (XAUTHORITY), when there is one of its own. */
  readonly authorityFile: string | undefined;
  readonly #environment: Record<string, string>;
  readonly #timeoutMs: number;
  #accessibility: AccessibilityReader | undefined;

  /**
   * @param name - the X display name
   * @param width - its width in pixels
   * @param height - its height in pixels
   * @param timeoutMs - milliseconds one X program may take
   * @param authorityFile - the display's X authority file; default the host's `XAUTHORITY`
   */
  constructor(
    name: string,
    width: number,
    height: number,
    timeoutMs = DEFAULT_X11_COMMAND_TIMEOUT_MS,
    authorityFile?: string,
  ) {
    this.name = name;
    this.width = width;
    this.height = height;
    this.authorityFile = authorityFile;
    this.#environment = x11Environment(name, authorityFile);
    this.#timeoutMs = timeoutMs;
  }

  /** Accessibility text of the display's windows (AT-SPI), when it was asked for. */
  get accessibility(): AccessibilityReader | undefined {
    return this.#accessibility;
  }

  /** @internal Gives the display its accessibility reader. */
  protected setAccessibility(reader: AccessibilityReader): void {
    this.#accessibility = reader;
  }

  async #xdotool(args: readonly string[], signal: AbortSignal, input?: string): Promise<string> {
    const output = await runProgram("xdotool", args, {
      environment: this.#environment,
      signal,
      timeoutMs: this.#timeoutMs,
      ...(input === undefined ? {} : { input }),
    });
    return `${output.stdout.toString("utf8")}\n${output.stderr}`;
  }

  async capture(request: CaptureRequest, signal: AbortSignal): Promise<string> {
    const dump = await runProgram("xwd", ["-root", "-silent"], {
      environment: this.#environment,
      signal,
      timeoutMs: this.#timeoutMs,
      maxOutputBytes: this.width * this.height * 4 + 65_536,
    });
    const image = decodeXwd(dump.stdout);
    let pipeline = sharp(image.pixels, {
      raw: { width: image.width, height: image.height, channels: 3 },
    });
    if (request.region !== undefined) {
      const { x, y, width, height } = request.region;
      pipeline = pipeline.extract({ left: x, top: y, width, height });
    }
    const sourceWidth = request.region?.width ?? image.width;
    const sourceHeight = request.region?.height ?? image.height;
    if (request.width !== sourceWidth || request.height !== sourceHeight) {
      const enlarging = request.width > sourceWidth;
      pipeline = pipeline.resize(request.width, request.height, {
        fit: "fill",
        kernel: enlarging ? "nearest" : "lanczos3",
      });
    }
    const png = await pipeline.png({ compressionLevel: 6 }).toBuffer();
    return png.toString("base64");
  }

  async movePointer(x: number, y: number, signal: AbortSignal): Promise<void> {
    await this.#xdotool(["mousemove", String(x), String(y)], signal);
  }

  async click(button: MouseButton, count: number, signal: AbortSignal): Promise<void> {
    await this.#xdotool(
      // xdotool sleeps --delay after the last click too: a pause only between repeated clicks
      ["click", "--repeat", String(count), "--delay", count > 1 ? "80" : "0", BUTTONS[button]],
      signal,
    );
  }

  async pressButton(button: MouseButton, state: "down" | "up", signal: AbortSignal): Promise<void> {
    await this.#xdotool([state === "down" ? "mousedown" : "mouseup", BUTTONS[button]], signal);
  }

  async scroll(direction: ScrollDirection, amount: number, signal: AbortSignal): Promise<void> {
    await this.#xdotool(
      ["click", "--repeat", String(amount), "--delay", amount > 1 ? "40" : "0", WHEEL[direction]],
      signal,
    );
  }

  async keys(
    chords: readonly (readonly string[])[],
    state: "press" | "down" | "up",
    signal: AbortSignal,
  ): Promise<void> {
    const command = state === "press" ? "key" : state === "down" ? "keydown" : "keyup";
    const names = chords.map((chord) => chord.join("+"));
    // Key names are checked by parseKeys (letters, digits, _ only); "--" ends the options anyway.
    const output = await this.#xdotool([command, "--delay", "40", "--", ...names], signal);
    const unknown = /No such key name '([^']*)'/.exec(output);
    if (unknown !== null) {
      throw new ToolFailureError(
        "INVALID_INPUT",
        `key has ${JSON.stringify(unknown[1])}, which is not an X key name.`,
        {
          hint: 'Use X keysym names: "Return", "Escape", "BackSpace", "Page_Down", "F5", "a", "ctrl+shift+t".',
        },
      );
    }
  }

  async type(text: string, signal: AbortSignal): Promise<void> {
    // From standard input: the text is never an argument, so never an option or a command.
    await this.#xdotool(["type", "--delay", "12", "--file", "-"], signal, text);
  }

  async pointerPosition(signal: AbortSignal): Promise<{ x: number; y: number }> {
    const output = await this.#xdotool(["getmouselocation", "--shell"], signal);
    const x = /^X=(\d+)$/m.exec(output)?.[1];
    const y = /^Y=(\d+)$/m.exec(output)?.[1];
    if (x === undefined || y === undefined) {
      throw new ToolFailureError(
        "INTERNAL",
        `xdotool getmouselocation printed no position: ${output.slice(0, 200)}`,
      );
    }
    return { x: Number(x), y: Number(y) };
  }
}

/**
 * Connects to an X display that is already running (the host's desktop, or an Xvfb started by
 * someone else), reading its size with `xdotool getdisplaygeometry`.
 *
 * @param options - the display name (default `DISPLAY`), its authority file and the per-program timeout
 * @returns the display
 * @throws AgentoolError when no display is named or it cannot be reached
 * @example
 * const display = await connectX11Display({ display: ":1" });
 * const computer = createComputerTool({ display });
 */
export async function connectX11Display(options: X11DisplayOptions = {}): Promise<X11Display> {
  const name = options.display ?? process.env.DISPLAY;
  if (name === undefined || !DISPLAY_NAME.test(name)) {
    throw new AgentoolError(
      `connectX11Display: ${name === undefined ? "no display given and DISPLAY is not set" : `${JSON.stringify(name)} is not an X display name`}; pass { display: ":1" }, or start one with startXvfbDisplay().`,
    );
  }
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_X11_COMMAND_TIMEOUT_MS;
  let output: string;
  try {
    const result = await runProgram("xdotool", ["getdisplaygeometry"], {
      environment: x11Environment(name, options.authorityFile),
      signal: new AbortController().signal,
      timeoutMs,
    });
    output = result.stdout.toString("utf8");
  } catch (error) {
    throw new AgentoolError(
      `connectX11Display: cannot reach display ${name}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const match = /^(\d+) (\d+)/.exec(output.trim());
  if (match === null) {
    throw new AgentoolError(
      `connectX11Display: xdotool printed no size for ${name}: ${output.slice(0, 200)}`,
    );
  }
  return new X11Display(name, Number(match[1]), Number(match[2]), timeoutMs, options.authorityFile);
}
