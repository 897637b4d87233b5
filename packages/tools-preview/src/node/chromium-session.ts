import { raceSignal, sleep } from "@agentool/contract";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { checkLocation } from "../engine/driver-answers.js";
import {
  type PreviewAction,
  type PreviewActOutcome,
  type PreviewBackendSession,
  type PreviewConsoleEntry,
  type PreviewDriverMethod,
  PreviewError,
  type PreviewViewportImage,
} from "../preview-backend.js";
import { firstLine } from "./internal/first-line.js";
import { settle } from "./internal/settle.js";

/** Longest time `recover` takes (stop the running script, check the page answers). */
const RECOVERY_BUDGET_MS = 1_200;

/** What a Chromium session is made of: its context, page, CDP session and refused requests. */
export interface ChromiumSessionParts {
  /** The session's own browser context. */
  context: BrowserContext;
  /** The artifact's page. */
  page: Page;
  /** A CDP session on the page (to stop a runaway script). */
  cdp: Promise<CDPSession>;
  /** Where the artifact's document is served. */
  documentUrl: string;
  /** The viewport asked for. */
  viewport: { width: number; height: number };
  /** Requests refused since the last call (filled by the routes). */
  blocked: PreviewConsoleEntry[];
  /** Called once the session is closed. */
  onClose: () => void;
}

/** One artifact in its own Chromium context: the driver over `page.evaluate`, trusted input. */
export class ChromiumSession implements PreviewBackendSession {
  readonly #parts: ChromiumSessionParts;
  #closed = false;

  /** @param parts - the context, page and routes' state */
  constructor(parts: ChromiumSessionParts) {
    this.#parts = parts;
  }

  async load(signal: AbortSignal): Promise<void> {
    await raceSignal(
      this.#parts.page.goto(this.#parts.documentUrl, { waitUntil: "commit", timeout: 0 }),
      signal,
    );
  }

  async call(
    method: PreviewDriverMethod | string,
    args: readonly unknown[],
    signal: AbortSignal,
  ): Promise<unknown> {
    const result = await raceSignal(
      this.#parts.page.evaluate(
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
        [method, args] as const,
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

  async act(actions: readonly PreviewAction[], signal: AbortSignal): Promise<PreviewActOutcome> {
    for (let index = 0; index < actions.length; index++) {
      try {
        const refused = await this.#perform(actions[index] as PreviewAction, signal);
        if (refused !== undefined) return { completed: index, failed: { index, message: refused } };
      } catch (error) {
        if (signal.aborted || PreviewError.isInstance(error)) throw error;
        return { completed: index, failed: { index, message: firstLine(error) } };
      }
    }
    return { completed: actions.length };
  }

  async screenshotViewport(signal: AbortSignal): Promise<PreviewViewportImage> {
    const page = this.#parts.page;
    const buffer = await raceSignal(
      page.screenshot({ type: "png", timeout: 0, caret: "initial" }),
      signal,
    );
    const size = page.viewportSize() ?? this.#parts.viewport;
    return { data: buffer.toString("base64"), width: size.width, height: size.height };
  }

  takeBlocked(): PreviewConsoleEntry[] {
    return this.#parts.blocked.splice(0, this.#parts.blocked.length);
  }

  async recover(): Promise<"usable" | "closed"> {
    // At most RECOVERY_BUDGET_MS in all, so the preview's own error still comes before the
    // tool's timeout (PREVIEW_DEADLINE_MARGIN_MS later than the internal deadline).
    const page = this.#parts.page;
    if (this.#closed || page.isClosed()) return "closed";
    const started = Date.now();
    const left = () => Math.max(50, RECOVERY_BUDGET_MS - (Date.now() - started));
    if (
      (await settle(
        page.evaluate(() => true),
        200,
      )) === true
    )
      return "usable";
    await settle(
      this.#parts.cdp.then((session) => session.send("Runtime.terminateExecution")),
      Math.min(300, left()),
    );
    return (await settle(
      page.evaluate(() => true),
      left(),
    )) === true
      ? "usable"
      : "closed";
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#parts.onClose();
    await settle(this.#parts.context.close(), 5_000);
  }

  /** One action; a message when the page refuses it (no element to click). */
  async #perform(action: PreviewAction, signal: AbortSignal): Promise<string | undefined> {
    const page = this.#parts.page;
    switch (action.type) {
      case "click": {
        let x = action.x ?? 0;
        let y = action.y ?? 0;
        if (action.selector !== undefined) {
          const found = checkLocation(await this.call("locate", [action.selector], signal));
          if (found.error !== undefined) return found.error;
          x = found.x ?? 0;
          y = found.y ?? 0;
        }
        await raceSignal(page.mouse.click(x, y), signal);
        return undefined;
      }
      case "key":
        await raceSignal(page.keyboard.press(action.key ?? ""), signal);
        return undefined;
      case "type":
        await raceSignal(page.keyboard.type(action.text ?? ""), signal);
        return undefined;
      case "scroll": {
        const size = page.viewportSize() ?? this.#parts.viewport;
        await raceSignal(page.mouse.move(size.width / 2, size.height / 2), signal);
        await raceSignal(page.mouse.wheel(action.dx ?? 0, action.dy ?? 0), signal);
        return undefined;
      }
      case "wait":
        await sleep(action.ms ?? 0, signal);
        return undefined;
    }
  }
}
