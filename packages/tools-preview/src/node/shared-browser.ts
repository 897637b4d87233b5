import type { Browser, LaunchOptions } from "playwright-core";
import { PreviewError } from "../preview-backend.js";
import { settle } from "./internal/settle.js";

interface PooledBrowser {
  users: number;
  browser: Promise<Browser> | undefined;
}

const pool = new Map<string, PooledBrowser>();

/** The shared browsers currently launched (for tests and diagnostics). */
export function launchedPreviewBrowsers(): number {
  let count = 0;
  for (const entry of pool.values()) if (entry.browser !== undefined) count += 1;
  return count;
}

async function loadPlaywright(): Promise<typeof import("playwright-core")> {
  try {
    return await import("playwright-core");
  } catch {
    throw new PreviewError(
      "DEPENDENCY_MISSING",
      "The Chromium preview needs playwright-core, which is not installed.",
      "The host must install it: npm install playwright-core (and a Chromium, e.g. apt-get install -y chromium).",
    );
  }
}

/** What a user of the shared browser holds: the browser (launched on first use) and its release. */
export interface SharedBrowserLease {
  /** The shared browser, launched on first call (and again after it disconnected). */
  browser(): Promise<Browser>;
  /** Gives the lease back; the browser closes when its last user releases it. Idempotent. */
  release(): Promise<void>;
}

/**
 * Signals are the host's: playwright-core's own SIGINT / SIGTERM / SIGHUP handlers would close
 * the browsers and swallow the signal, so a host without handlers of its own would keep running.
 * Without them the signal does what it would without Chromium (the host's handlers run, or the
 * process ends); the browser goes with the process either way — playwright-core kills it on
 * `exit`, and a browser whose process died by a signal exits when its control pipe closes.
 * A host may pass `handleSIGTERM: true` (etc.) in its launch options to get playwright-core's
 * behaviour back.
 */
const HOST_KEEPS_SIGNALS = { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false };

/**
 * Takes a lease on the one headless Chromium shared by every user with the same executable,
 * launch options and flags (preview backends, page renderers). The browser is launched on first
 * use, closed when the last lease is released, and gone when the process ends (on `exit` or by
 * a signal); the host's signals stay the host's (playwright-core's signal handlers are off).
 *
 * @param settings - the executable, launch options and the full list of flags
 * @returns the lease
 */
export function leaseSharedBrowser(settings: {
  executablePath: string;
  launchOptions: LaunchOptions;
  args: readonly string[];
}): SharedBrowserLease {
  const { executablePath, launchOptions } = settings;
  const args = [...settings.args];
  const key = JSON.stringify({ executablePath, launchOptions, args });
  let entry = pool.get(key);
  if (entry === undefined) {
    entry = { users: 0, browser: undefined };
    pool.set(key, entry);
  }
  const shared = entry;
  shared.users += 1;
  let released = false;
  return {
    browser() {
      if (shared.browser === undefined) {
        const launching = (async () => {
          const playwright = await loadPlaywright();
          try {
            const launched = await playwright.chromium.launch({
              ...HOST_KEEPS_SIGNALS,
              ...launchOptions,
              executablePath,
              args,
            });
            launched.on("disconnected", () => {
              if (shared.browser === launching) shared.browser = undefined;
            });
            return launched;
          } catch (error) {
            throw new PreviewError(
              "DEPENDENCY_MISSING",
              `Chromium could not be started from ${executablePath}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
              "The host must install Chromium (apt-get install -y chromium) or pass executablePath.",
            );
          }
        })();
        shared.browser = launching;
        launching.catch(() => {
          if (shared.browser === launching) shared.browser = undefined;
        });
      }
      return shared.browser;
    },
    async release() {
      if (released) return;
      released = true;
      shared.users -= 1;
      if (shared.users === 0) {
        const launched = shared.browser;
        shared.browser = undefined;
        pool.delete(key);
        if (launched !== undefined)
          await settle(
            launched.then((instance) => instance.close()),
            10_000,
          );
      }
    },
  };
}
