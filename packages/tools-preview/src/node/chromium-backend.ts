import type { BrowserContext, CDPSession, LaunchOptions, Page } from "playwright-core";
import {
  type PreviewAction,
  type PreviewActOutcome,
  type PreviewBackend,
  type PreviewBackendSession,
  type PreviewConsoleEntry,
  PreviewError,
  type PreviewOpenRequest,
  raceSignal,
} from "../preview-backend.js";
import { leaseSharedBrowser } from "./shared-browser.js";

/** Debian's Chromium, the default `executablePath`. */
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Flags every browser of this package is launched with (preview and `web_fetch` renderer):
 * headless, no GPU, no background traffic, and every connection sent to a closed local port and
 * every host name unresolvable, so nothing can leave even if a request slipped past the
 * per-context interception.
 */
export const CHROMIUM_NO_EGRESS_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  "--host-resolver-rules=MAP * ~NOTFOUND",
];

/**
 * Flags of the preview's browser: {@link CHROMIUM_NO_EGRESS_ARGS} plus
 * `--disable-site-isolation-trials`. The artifact's document carries a `sandbox` CSP, and with
 * site isolation Chromium commits every such document in a second, freshly started renderer
 * process — twice the time of `goto` + `load` (measured 99 + 80 ms against 54 + 43 ms). Site
 * isolation has nothing to separate here: a preview context holds one document of one origin
 * with no network, and renderer processes are never shared between contexts (sessions). The
 * `web_fetch` renderer, which loads real sites, keeps site isolation.
 */
export const CHROMIUM_PREVIEW_ARGS: readonly string[] = [
  ...CHROMIUM_NO_EGRESS_ARGS,
  "--disable-site-isolation-trials",
];

/** Longest time `recover` takes (stop the running script, check the page answers). */
const RECOVERY_BUDGET_MS = 1_200;

/** Where the artifact's document is served from inside the browser (never resolved: `.invalid`). */
export const ARTIFACT_ORIGIN = "http://artifact.preview.invalid";

/** Options of the Chromium backend. */
export interface ChromiumBackendOptions {
  /** The Chromium binary. Default {@link DEFAULT_CHROMIUM_PATH}. */
  executablePath?: string;
  /** Extra playwright-core launch options (their `args` are added to {@link CHROMIUM_PREVIEW_ARGS}). */
  launchOptions?: LaunchOptions;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return raceSignal(
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
    }),
    signal,
  );
}

function settle<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([
    promise.catch(() => undefined),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref?.()),
  ]);
}

/**
 * The Node backend: one headless Chromium shared by every session of every tool with the same
 * launch settings, one browser context per session; every request other than the artifact's own
 * document is aborted at the network layer, WebSockets are refused, service workers blocked.
 *
 * @param options - executable and launch options
 * @returns the backend
 */
export function createChromiumBackend(options: ChromiumBackendOptions = {}): PreviewBackend {
  const executablePath = options.executablePath ?? DEFAULT_CHROMIUM_PATH;
  const launchOptions = options.launchOptions ?? {};
  const args = [...CHROMIUM_PREVIEW_ARGS, ...(launchOptions.args ?? [])];
  const lease = leaseSharedBrowser({ executablePath, launchOptions, args });
  let released = false;
  const open = new Set<PreviewBackendSession>();
  const browser = () => lease.browser();

  return {
    kind: "chromium",
    unavailable() {
      return released
        ? {
            code: "NOT_CONFIGURED",
            message: "The preview backend was disposed.",
            hint: "The host must create the preview tool again.",
          }
        : undefined;
    },
    async open(request: PreviewOpenRequest): Promise<PreviewBackendSession> {
      const instance = await raceSignal(browser(), request.signal);
      const context: BrowserContext = await instance.newContext({
        viewport: request.viewport,
        serviceWorkers: "block",
        acceptDownloads: false,
      });
      const documentUrl = `${ARTIFACT_ORIGIN}/${request.path.split("/").map(encodeURIComponent).join("/")}`;
      const blocked: PreviewConsoleEntry[] = [];
      const block = (text: string) => {
        const last = blocked[blocked.length - 1];
        if (last !== undefined && last.text === text) last.count += 1;
        else if (blocked.length < 200) blocked.push({ level: "blocked", text, count: 1 });
      };
      let page: Page | undefined;
      let cdp: Promise<CDPSession> | undefined;
      let closed = false;
      try {
        const routing = context.route("**/*", async (route) => {
          const routed = route.request();
          if (
            routed.url() === documentUrl &&
            routed.isNavigationRequest() &&
            routed.frame() === page?.mainFrame()
          ) {
            await route
              .fulfill({
                status: 200,
                contentType: "text/html; charset=utf-8",
                headers: {
                  "content-security-policy": `sandbox allow-scripts; ${request.contentSecurityPolicy}`,
                  "cache-control": "no-store",
                },
                body: request.document,
              })
              .catch(() => {});
            return;
          }
          block(
            `no network in preview: ${routed.method()} ${routed.url().slice(0, 300)} refused — inline the content or use a data: URL`,
          );
          if (routed.isNavigationRequest() && routed.frame() === page?.mainFrame()) {
            // A 204 answer to a navigation leaves the page where it is: the artifact stays loaded.
            await route.fulfill({ status: 204, body: "" }).catch(() => {});
            return;
          }
          await route.abort("blockedbyclient").catch(() => {});
        });
        const routingSockets = context.routeWebSocket(/.*/, (socket) => {
          block(`no network in preview: WebSocket ${socket.url().slice(0, 300)} refused`);
          void socket.close({ code: 1008, reason: "no network in preview" }).catch(() => {});
        });
        await Promise.all([routing, routingSockets]);
        context.on("page", (popup) => {
          if (page !== undefined && popup !== page) void popup.close().catch(() => {});
        });
        page = await context.newPage();
        // Only needed to stop a runaway script; attached alongside the load rather than before it.
        cdp = context.newCDPSession(page);
        cdp.catch(() => {});
      } catch (error) {
        await context.close().catch(() => {});
        throw error;
      }
      const thePage = page;
      const theCdp = cdp;
      thePage.on("crash", () => {
        block("the artifact's page crashed (out of memory?)");
      });

      async function call(
        method: string,
        callArgs: readonly unknown[],
        signal: AbortSignal,
      ): Promise<unknown> {
        const result = await raceSignal(
          thePage.evaluate(
            ([name, values]) => {
              const driver = (
                globalThis as Record<
                  symbol,
                  Record<string, (...items: unknown[]) => unknown> | undefined
                >
              )[Symbol.for("agentool.preview.driver")];
              if (driver === undefined)
                return { agentool_driver_missing: true, url: String(globalThis.location) };
              return driver[name as string]?.(...(values as unknown[]));
            },
            [method, callArgs] as const,
          ),
          signal,
        );
        if (typeof result === "object" && result !== null && "agentool_driver_missing" in result) {
          throw new PreviewError(
            "UNSUPPORTED",
            "The artifact's document is gone: it navigated away or reloaded into something else.",
            'Call preview with op "open" again; keep the artifact on one page (use in-page state, not links).',
          );
        }
        return result;
      }

      async function act(
        actions: readonly PreviewAction[],
        signal: AbortSignal,
      ): Promise<PreviewActOutcome> {
        for (let index = 0; index < actions.length; index++) {
          const action = actions[index] as PreviewAction;
          try {
            switch (action.type) {
              case "click": {
                let x = action.x ?? 0;
                let y = action.y ?? 0;
                if (action.selector !== undefined) {
                  const found = (await call("locate", [action.selector], signal)) as {
                    x?: number;
                    y?: number;
                    error?: string;
                  };
                  if (found.error !== undefined)
                    return { completed: index, failed: { index, message: found.error } };
                  x = found.x ?? 0;
                  y = found.y ?? 0;
                }
                await raceSignal(thePage.mouse.click(x, y), signal);
                break;
              }
              case "key":
                await raceSignal(thePage.keyboard.press(action.key ?? ""), signal);
                break;
              case "type":
                await raceSignal(thePage.keyboard.type(action.text ?? ""), signal);
                break;
              case "scroll": {
                const size = thePage.viewportSize() ?? request.viewport;
                await raceSignal(thePage.mouse.move(size.width / 2, size.height / 2), signal);
                await raceSignal(thePage.mouse.wheel(action.dx ?? 0, action.dy ?? 0), signal);
                break;
              }
              case "wait":
                await sleep(action.ms ?? 0, signal);
                break;
            }
          } catch (error) {
            if (signal.aborted || PreviewError.isInstance(error)) throw error;
            const message =
              error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
            return {
              completed: index,
              failed: { index, message: message.replace(/^\w+\.\w+: /, "") },
            };
          }
        }
        return { completed: actions.length };
      }

      const session: PreviewBackendSession = {
        async load(signal) {
          await raceSignal(thePage.goto(documentUrl, { waitUntil: "commit", timeout: 0 }), signal);
        },
        call: (method, callArgs, signal) => call(method, callArgs, signal),
        act,
        async screenshotViewport(signal) {
          const buffer = await raceSignal(
            thePage.screenshot({ type: "png", timeout: 0, caret: "initial" }),
            signal,
          );
          const size = thePage.viewportSize() ?? request.viewport;
          return { data: buffer.toString("base64"), width: size.width, height: size.height };
        },
        takeBlocked() {
          return blocked.splice(0, blocked.length);
        },
        async recover() {
          // At most RECOVERY_BUDGET_MS in all, so the preview's own error still comes before the
          // tool's timeout (PREVIEW_DEADLINE_MARGIN_MS later than the internal deadline).
          if (closed || thePage.isClosed()) return "closed";
          const started = Date.now();
          const left = () => Math.max(50, RECOVERY_BUDGET_MS - (Date.now() - started));
          if (
            (await settle(
              thePage.evaluate(() => true),
              200,
            )) === true
          )
            return "usable";
          await settle(
            theCdp.then((session) => session.send("Runtime.terminateExecution")),
            Math.min(300, left()),
          );
          return (await settle(
            thePage.evaluate(() => true),
            left(),
          )) === true
            ? "usable"
            : "closed";
        },
        async close() {
          if (closed) return;
          closed = true;
          open.delete(session);
          await settle(context.close(), 5_000);
        },
      };
      open.add(session);
      if (released) {
        await session.close();
        throw new PreviewError(
          "NOT_CONFIGURED",
          "The preview backend was disposed.",
          "The host must create the preview tool again.",
        );
      }
      return session;
    },
    async dispose() {
      if (released) return;
      released = true;
      await Promise.all([...open].map((session) => session.close()));
      await lease.release();
    },
  };
}
