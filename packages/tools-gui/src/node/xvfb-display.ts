import { type ChildProcess, spawn } from "node:child_process";
import { AgentoolError, sleep, ToolFailureError } from "@agentool/contract";
import { AtspiReader, missingAccessibility } from "./atspi-reader.js";
import { describeMissingX11Programs, missingX11Programs } from "./missing-x11-programs.js";
import { killGroup, stopGroup } from "./process-group.js";
import { runProgram } from "./run-program.js";
import { type SessionBus, startSessionBus, wakeAccessibility } from "./session-bus.js";
import { createXAuthority, type XAuthority } from "./x-authority.js";
import { DEFAULT_X11_COMMAND_TIMEOUT_MS, X11Display, x11Environment } from "./x11-display.js";

/** An app to launch into the display. */
export interface XvfbApp {
  /** The program, e.g. `"xterm"` (found on PATH). */
  command: string;
  /** Its arguments, passed as they are (no shell). */
  args?: readonly string[];
  /** Extra environment variables for it (besides DISPLAY, XAUTHORITY, PATH, HOME, LANG). */
  environment?: Readonly<Record<string, string>>;
  /** Whether to wait until a new window is shown. Default true. */
  waitForWindow?: boolean;
}

/** Options of {@link startXvfbDisplay}. */
export interface XvfbDisplayOptions {
  /** Width in pixels. Default 1280. */
  width?: number;
  /** Height in pixels. Default 800. */
  height?: number;
  /** An app to launch into the display once it is up. */
  app?: XvfbApp;
  /** Milliseconds to wait for Xvfb (and the app's window). Default 15,000. */
  startTimeoutMs?: number;
  /** Milliseconds one xdotool or xwd run may take. Default 10,000. */
  commandTimeoutMs?: number;
  /**
   * Accessibility text (AT-SPI): start a private D-Bus session bus with the display, give it to
   * the app, and let the `computer` tool read the focused window's tree (`read_window`). Needs
   * Debian's dbus-daemon, at-spi2-core, python3-gi and gir1.2-atspi-2.0. Default false.
   */
  accessibility?: boolean;
}

const live = new Set<XvfbDisplay>();
let exitHookInstalled = false;

/**
 * A display this process started: Xvfb and, optionally, one app in it, each in its own process
 * group. {@link XvfbDisplay.close} stops both groups; if this process exits without closing,
 * both are killed on the way out.
 */
export class XvfbDisplay extends X11Display {
  readonly #server: ChildProcess;
  readonly #authority: XAuthority;
  #app: ChildProcess | undefined;
  #bus: SessionBus | undefined;
  #closing: Promise<void> | undefined;

  /** @internal */
  constructor(
    name: string,
    width: number,
    height: number,
    server: ChildProcess,
    timeoutMs: number,
    authority: XAuthority,
  ) {
    super(name, width, height, timeoutMs, authority.file);
    this.#server = server;
    this.#authority = authority;
  }

  /** The process id of Xvfb (the leader of its process group). */
  get serverPid(): number | undefined {
    return this.#server.pid;
  }

  /** The process id of the launched app (the leader of its process group), when there is one. */
  get appPid(): number | undefined {
    return this.#app?.pid;
  }

  /** The process id of the private D-Bus session bus (the leader of its process group), when accessibility is on. */
  get busPid(): number | undefined {
    return this.#bus?.daemon.pid;
  }

  /** The address of the display's private D-Bus session bus (`DBUS_SESSION_BUS_ADDRESS`), when accessibility is on. */
  get sessionBusAddress(): string | undefined {
    return this.#bus?.address;
  }

  /** @internal */
  attachApp(app: ChildProcess): void {
    this.#app = app;
  }

  /** @internal Keeps the session bus (stopped by close()) and reads AT-SPI over it. */
  attachBus(bus: SessionBus, timeoutMs: number): void {
    this.#bus = bus;
    this.setAccessibility(new AtspiReader({ environment: this.busEnvironment(), timeoutMs }));
  }

  /** @internal The environment of a client of the display and its bus. */
  busEnvironment(): Record<string, string> {
    const environment = x11Environment(this.name, this.authorityFile);
    if (this.#bus !== undefined) {
      environment.DBUS_SESSION_BUS_ADDRESS = this.#bus.address;
      environment.XDG_RUNTIME_DIR = this.#authority.directory;
    }
    return environment;
  }

  /**
   * Stops the app's process group, then the session bus's (with AT-SPI's processes), then
   * Xvfb's, and removes the display's private folder (the cookie, the bus sockets). Safe to call
   * twice.
   *
   * @returns when both are gone
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await stopGroup(this.#app, 2_000);
      await stopGroup(this.#bus?.daemon, 2_000);
      await stopGroup(this.#server, 2_000);
      this.#authority.remove();
      live.delete(this);
    })();
    return this.#closing;
  }

  /** `await using display = await startXvfbDisplay()` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** @internal Kills both groups at once and removes the cookie (the process is exiting). */
  killNow(): void {
    killGroup(this.#app, "SIGKILL");
    killGroup(this.#bus?.daemon, "SIGKILL");
    killGroup(this.#server, "SIGKILL");
    this.#authority.remove();
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const display of live) display.killNow();
  });
}

/**
 * Starts Xvfb on the first free display number (`-displayfd`), accepting only clients with the
 * cookie in `authorityFile`, and resolves with that number.
 */
function startServer(
  width: number,
  height: number,
  authorityFile: string,
  timeoutMs: number,
): Promise<{ server: ChildProcess; name: string }> {
  return new Promise((resolve, reject) => {
    const server = spawn(
      "Xvfb",
      [
        "-displayfd",
        "3",
        "-screen",
        "0",
        `${width}x${height}x24`,
        "-auth",
        authorityFile,
        "-nolisten",
        "tcp",
        // Not "-nolisten local": with -displayfd Xvfb takes no lock file, and only its abstract
        // socket (which cannot be bound twice) keeps two servers off the same display number.
      ],
      {
        detached: true,
        stdio: ["ignore", "ignore", "pipe", "pipe"],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      },
    );
    let errors = "";
    let number = "";
    const fail = (message: string) => {
      clearTimeout(timer);
      killGroup(server, "SIGKILL");
      reject(new AgentoolError(`startXvfbDisplay: ${message}`));
    };
    const timer = setTimeout(
      () => fail(`Xvfb did not start within ${timeoutMs} ms. ${errors.trim().slice(0, 300)}`),
      timeoutMs,
    );
    server.stderr?.on("data", (chunk: Buffer) => {
      if (errors.length < 4_096) errors += chunk.toString("utf8");
    });
    server.on("error", (error: NodeJS.ErrnoException) =>
      fail(
        error.code === "ENOENT"
          ? "Xvfb is not installed (Debian: apt-get install xvfb; or node scripts/setup-system.mjs test)."
          : error.message,
      ),
    );
    server.on("exit", (code) =>
      fail(`Xvfb exited (${code}) before it was ready: ${errors.trim().slice(0, 300)}`),
    );
    const pipe = server.stdio[3] as NodeJS.ReadableStream | null;
    pipe?.on("data", (chunk: Buffer) => {
      number += chunk.toString("utf8");
      if (!number.includes("\n")) return;
      clearTimeout(timer);
      server.removeAllListeners("exit");
      server.stderr?.removeAllListeners("data");
      server.stderr?.resume();
      pipe.removeAllListeners("data");
      pipe.resume();
      resolve({ server, name: `:${number.trim()}` });
    });
  });
}

async function visibleWindows(display: X11Display, timeoutMs: number): Promise<Set<string>> {
  const output = await runProgram(
    "xdotool",
    ["search", "--onlyvisible", "--maxdepth", "1", "--name", ""],
    {
      environment: x11Environment(display.name, display.authorityFile),
      signal: new AbortController().signal,
      timeoutMs,
    },
  ).catch(() => undefined); // exit 1: nothing found
  return new Set(
    (output?.stdout.toString("utf8") ?? "").split("\n").filter((line) => line.length > 0),
  );
}

/**
 * The app's environment: its display and cookie, PATH, LANG and HOME (apps keep settings there);
 * with accessibility, the display's session bus and its private XDG_RUNTIME_DIR.
 */
function appEnvironment(display: XvfbDisplay): Record<string, string> {
  const environment = display.busEnvironment();
  if (process.env.HOME !== undefined) environment.HOME = process.env.HOME;
  return environment;
}

async function launchApp(display: XvfbDisplay, app: XvfbApp, timeoutMs: number): Promise<void> {
  const before = await visibleWindows(display, timeoutMs);
  const child = spawn(app.command, [...(app.args ?? [])], {
    detached: true,
    stdio: "ignore",
    env: { ...appEnvironment(display), ...app.environment },
  });
  display.attachApp(child);
  const started = await new Promise<Error | undefined>((resolve) => {
    child.once("spawn", () => resolve(undefined));
    child.once("error", resolve);
  });
  if (started !== undefined)
    throw new AgentoolError(`startXvfbDisplay: cannot launch ${app.command}: ${started.message}`);
  if (app.waitForWindow === false) return;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new AgentoolError(
        `startXvfbDisplay: ${app.command} exited (${child.exitCode}) before showing a window.`,
      );
    }
    const now = await visibleWindows(display, timeoutMs);
    if ([...now].some((window) => !before.has(window))) return;
    await sleep(50);
  }
  throw new AgentoolError(
    `startXvfbDisplay: ${app.command} showed no window within ${timeoutMs} ms.`,
  );
}

/** Starts the display's session bus and AT-SPI on it, and gives the display its reader. */
async function startAccessibility(
  display: XvfbDisplay,
  authority: XAuthority,
  timeouts: { startMs: number; readMs: number },
): Promise<void> {
  const environment = x11Environment(display.name, display.authorityFile);
  const bus = await startSessionBus(environment, authority.directory, timeouts.startMs);
  display.attachBus(bus, timeouts.readMs);
  await wakeAccessibility(display.busEnvironment(), timeouts.startMs);
}

/**
 * Starts a virtual X display (Xvfb, 24-bit, no TCP) at the given size on the
 * first free display number, and optionally launches an app into it, waiting for its window.
 * Only clients holding its random MIT-MAGIC-COOKIE-1 may connect: the cookie is written with
 * `xauth` to a private file (0600 in a 0700 temporary folder) that Xvfb, the tool's X programs
 * and the app are given (`-auth`, `XAUTHORITY`). Close it with `close()` (or `await using`): the
 * app's process group and Xvfb are stopped and the cookie's folder removed.
 *
 * @param options - size, app, timeouts
 * @returns the display
 * @throws AgentoolError when Xvfb, xauth, xdotool or xwd is not installed (naming the Debian
 *   packages, see {@link missingX11Programs}), or when Xvfb, xauth or the app cannot start
 * @example
 * const display = await startXvfbDisplay({ width: 1024, height: 768, app: { command: "xterm" } });
 * try {
 *   const computer = createComputerTool({ display });
 *   await computer.run({ action: "type", text: "ls\n" });
 * } finally {
 *   await display.close();
 * }
 */
export async function startXvfbDisplay(options: XvfbDisplayOptions = {}): Promise<XvfbDisplay> {
  const missing = missingX11Programs();
  if (missing.length > 0) {
    const sentence = describeMissingX11Programs(missing);
    throw new AgentoolError(`startXvfbDisplay: DEPENDENCY_MISSING: ${sentence}`, {
      cause: new ToolFailureError("DEPENDENCY_MISSING", sentence),
    });
  }
  if (options.accessibility === true) {
    const missing = missingAccessibility();
    if (missing !== undefined) {
      throw new AgentoolError(
        `startXvfbDisplay: UNSUPPORTED: accessibility: true, but ${missing}`,
        {
          cause: new ToolFailureError("UNSUPPORTED", missing),
        },
      );
    }
  }
  const width = options.width ?? 1280;
  const height = options.height ?? 800;
  for (const [label, value] of [
    ["width", width],
    ["height", height],
  ] as const) {
    if (!Number.isInteger(value) || value < 64 || value > 8192) {
      throw new AgentoolError(
        `startXvfbDisplay: ${label} must be an integer from 64 to 8192, got ${value}.`,
      );
    }
  }
  const timeoutMs = options.startTimeoutMs ?? 15_000;
  const authority = await createXAuthority(timeoutMs);
  let started: { server: ChildProcess; name: string };
  try {
    started = await startServer(width, height, authority.file, timeoutMs);
  } catch (error) {
    authority.remove();
    throw error;
  }
  const display = new XvfbDisplay(
    started.name,
    width,
    height,
    started.server,
    options.commandTimeoutMs ?? DEFAULT_X11_COMMAND_TIMEOUT_MS,
    authority,
  );
  live.add(display);
  installExitHook();
  try {
    await authority.add(started.name);
    if (options.accessibility === true) {
      await startAccessibility(display, authority, {
        startMs: timeoutMs,
        readMs: options.commandTimeoutMs ?? DEFAULT_X11_COMMAND_TIMEOUT_MS,
      });
    }
    if (options.app !== undefined) await launchApp(display, options.app, timeoutMs);
  } catch (error) {
    await display.close();
    throw error;
  }
  return display;
}
