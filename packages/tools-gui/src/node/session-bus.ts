import { type ChildProcess, spawn } from "node:child_process";
import { AgentoolError } from "@agentool/contract";
import { ATSPI_PYTHON } from "./atspi-reader.js";
import { killGroup } from "./process-group.js";
import { runProgram } from "./run-program.js";

/** A private D-Bus session bus: its daemon (leading a process group) and its address. */
export interface SessionBus {
  /** The daemon; the services D-Bus starts for it (AT-SPI's bus launcher, its bus and registry) join its process group. */
  daemon: ChildProcess;
  /** The bus address for `DBUS_SESSION_BUS_ADDRESS`. */
  address: string;
}

/** Wakes AT-SPI (the bus launcher, the accessibility bus, the registry) and checks it answers. */
const WAKE_SCRIPT = [
  "import gi",
  'gi.require_version("Atspi", "2.0")',
  "from gi.repository import Atspi",
  "Atspi.get_desktop(0).get_child_count()",
].join("\n");

/**
 * Starts `dbus-daemon --session` in its own process group, listening in `directory` (a private
 * folder: the socket goes with it), with an environment of the display and the folder as
 * XDG_RUNTIME_DIR, so the services it starts (AT-SPI's bus launcher) reach the display and keep
 * their sockets there too. Resolves with the address the daemon prints.
 *
 * @param environment - DISPLAY, XAUTHORITY, PATH, LANG of the display
 * @param directory - the private folder (mode 0700) the sockets go into
 * @param timeoutMs - milliseconds to wait for the address
 * @returns the bus
 * @throws AgentoolError when dbus-daemon cannot start
 */
export function startSessionBus(
  environment: Record<string, string>,
  directory: string,
  timeoutMs: number,
): Promise<SessionBus> {
  return new Promise((resolve, reject) => {
    const daemon = spawn(
      "dbus-daemon",
      ["--session", "--nofork", "--print-address", `--address=unix:dir=${directory}`],
      {
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...environment, XDG_RUNTIME_DIR: directory, GSETTINGS_BACKEND: "memory" },
      },
    );
    let errors = "";
    let printed = "";
    const fail = (message: string) => {
      clearTimeout(timer);
      killGroup(daemon, "SIGKILL");
      reject(new AgentoolError(`startXvfbDisplay: ${message}`));
    };
    const timer = setTimeout(
      () => fail(`dbus-daemon printed no address within ${timeoutMs} ms. ${errors.slice(0, 300)}`),
      timeoutMs,
    );
    daemon.stderr?.on("data", (chunk: Buffer) => {
      if (errors.length < 4_096) errors += chunk.toString("utf8");
    });
    daemon.on("error", (error) => fail(`dbus-daemon could not start: ${error.message}`));
    daemon.on("exit", (code) => fail(`dbus-daemon exited (${code}): ${errors.slice(0, 300)}`));
    daemon.stdout?.on("data", (chunk: Buffer) => {
      printed += chunk.toString("utf8");
      if (!printed.includes("\n")) return;
      clearTimeout(timer);
      daemon.removeAllListeners("exit");
      daemon.removeAllListeners("error");
      daemon.stdout?.removeAllListeners("data");
      daemon.stdout?.resume();
      daemon.stderr?.removeAllListeners("data");
      daemon.stderr?.resume();
      resolve({ daemon, address: printed.split("\n")[0]?.trim() ?? "" });
    });
  });
}

/**
 * Starts AT-SPI on a session bus (D-Bus starts the bus launcher, which starts the accessibility
 * bus and its registry) and waits until the registry answers, so apps launched next register
 * with it at once.
 *
 * @param environment - the display's environment with DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR
 * @param timeoutMs - milliseconds it may take
 * @returns when the registry answered
 * @throws AgentoolError when it does not
 */
export async function wakeAccessibility(
  environment: Record<string, string>,
  timeoutMs: number,
): Promise<void> {
  try {
    await runProgram(ATSPI_PYTHON, ["-I", "-W", "ignore", "-c", WAKE_SCRIPT], {
      environment,
      signal: new AbortController().signal,
      timeoutMs,
    });
  } catch (error) {
    throw new AgentoolError(
      `startXvfbDisplay: AT-SPI did not start on the display's bus: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
