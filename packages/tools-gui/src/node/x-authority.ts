import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentoolError } from "@agentool/contract";
import { runProgram } from "./run-program.js";

/**
 * A private X authority: one random MIT-MAGIC-COOKIE-1 in a file (mode 0600) inside a folder of
 * its own (mode 0700). The X server reads it with `-auth <file>`; every client is given
 * `XAUTHORITY=<file>`. A client without the cookie is refused by the server.
 */
export class XAuthority {
  /** The private folder holding the file (removed by {@link XAuthority.remove}). */
  readonly directory: string;
  /** The authority file, for `-auth` and `XAUTHORITY`. */
  readonly file: string;
  readonly #cookie: string;
  readonly #timeoutMs: number;

  /** @internal */
  constructor(directory: string, timeoutMs: number) {
    this.directory = directory;
    this.file = join(directory, "Xauthority");
    this.#cookie = randomBytes(16).toString("hex");
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Writes the cookie for a display name with `xauth`. The commands go in on standard input, so
   * the cookie never appears on a command line another user could read in `ps`.
   *
   * @param display - the display name, e.g. `":7"`
   * @returns when the entry is written
   * @throws ToolFailureError `DEPENDENCY_MISSING` when xauth is not installed, `INTERNAL` when it fails
   */
  async add(display: string): Promise<void> {
    await runProgram("xauth", ["-q", "-f", this.file, "source", "-"], {
      environment: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      signal: new AbortController().signal,
      timeoutMs: this.#timeoutMs,
      input: `add ${display} MIT-MAGIC-COOKIE-1 ${this.#cookie}\n`,
    });
    chmodSync(this.file, 0o600);
  }

  /** Removes the folder and the cookie in it. Safe to call twice; never throws. */
  remove(): void {
    try {
      rmSync(this.directory, { recursive: true, force: true });
    } catch {
      // Nothing else can be done; the folder is private to this user.
    }
  }
}

/**
 * Creates a private X authority whose cookie the server will accept for any display number:
 * the X server loads every cookie in its `-auth` file whatever display it names, so a first
 * entry (for `:0`) is enough to start it; {@link XAuthority.add} then adds the real display name
 * for the clients.
 *
 * @param timeoutMs - milliseconds xauth may take
 * @returns the authority, its file written
 * @throws AgentoolError when xauth is missing or fails (the folder is removed)
 */
export async function createXAuthority(timeoutMs: number): Promise<XAuthority> {
  const authority = new XAuthority(mkdtempSync(join(tmpdir(), "agentool-x-")), timeoutMs);
  try {
    await authority.add(":0");
  } catch (error) {
    authority.remove();
    const message = error instanceof Error ? error.message : String(error);
    throw new AgentoolError(
      `startXvfbDisplay: cannot write the display's X authority with xauth: ${message}${
        /not installed/.test(message)
          ? " (Debian: apt-get install xauth; or node scripts/setup-system.mjs test)"
          : ""
      }`,
    );
  }
  return authority;
}
