import { fail, ok, type ToolResult } from "@agentool/contract";
import type { Locator, Page } from "playwright-core";
import { PreviewError } from "../preview-backend.js";
import type { BrowserToolData } from "./browser-data.js";
import { type BrowserAction, type BrowserInput, DEFAULT_SNAPSHOT_LINES } from "./browser-input.js";
import type { BrowserSession } from "./browser-session.js";
import { compactSnapshot, snapshotChanges } from "./compact-snapshot.js";

/** Time one action may take. */
const ACTION_TIMEOUT_MS = 8_000;

/** Time a snapshot may take (a page whose script never yields cannot give one). */
const SNAPSHOT_TIMEOUT_MS = 5_000;

/** How long an action's requests (a fetch that updates the page) are waited for. */
const REQUESTS_GRACE_MS = 1_000;

/** How long a settled page is given to reach its load event (images and the like). */
const LOAD_GRACE_MS = 250;

/** Longest a navigation waits for its page (and its redirects) to settle. */
const SETTLE_MS = 8_000;

/** Longest value of a read answer. */
const MAX_READ_CHARACTERS = 2_000;

/** Largest screenshot kept. */
const MAX_SHOT_BYTES = 8 * 1_048_576;

/** Converts a page's HTML to Markdown (web_fetch's converter: `htmlToMarkdown` of `@agentool/tools-web`). */
export type HtmlToMarkdown = (html: string, baseUrl: string) => string | Promise<string>;

/** What the ops need besides the session. */
export interface BrowserOpsSettings {
  toMarkdown: HtmlToMarkdown | undefined;
}

/** The page's URL, title and tab figures, shared by every answer. */
async function pageFacts(
  session: BrowserSession,
): Promise<Pick<BrowserToolData, "url" | "title" | "tab" | "tabs">> {
  const page = session.page();
  return {
    url: page.url(),
    title: (await page.title().catch(() => "")).slice(0, 200),
    tab: session.current + 1,
    tabs: session.tabs.filter((tab) => !tab.isClosed()).length,
  };
}

/**
 * Waits until the tab's redirect hops are done and its address stops changing, then for its load,
 * within a budget.
 */
async function settlePage(session: BrowserSession, page: Page): Promise<void> {
  const until = Date.now() + SETTLE_MS;
  // The network knows when a tab's navigation or a redirect hop it handed back is in flight.
  while (Date.now() < until) {
    if (session.network.navigating()) {
      await page.waitForTimeout(20).catch(() => {});
      continue;
    }
    await page
      .waitForLoadState("domcontentloaded", { timeout: Math.max(1, until - Date.now()) })
      .catch(() => {});
    if (!session.network.navigating()) break;
  }
  // The tree needs the document, not every image: a short grace for the load event, no more.
  await page
    .waitForLoadState("load", { timeout: Math.max(1, Math.min(LOAD_GRACE_MS, until - Date.now())) })
    .catch(() => {});
}

/** The compact snapshot of the current tab; it becomes the tab's last one. */
async function takeSnapshot(session: BrowserSession): Promise<string[]> {
  const page = session.page();
  const text = await page
    .locator("body")
    .ariaSnapshot({ mode: "ai", timeout: SNAPSHOT_TIMEOUT_MS } as never);
  return compactSnapshot(text);
}

/** The lines holding `find` (any letter case), or all of them. */
function found(lines: readonly string[], find: string | undefined): readonly string[] {
  if (find === undefined || find.length === 0) return lines;
  const wanted = find.toLowerCase();
  return lines.filter((line) => line.toLowerCase().includes(wanted));
}

/** A page of snapshot lines. */
function pageOf(lines: readonly string[], offset: number, limit: number): Partial<BrowserToolData> {
  const shown = lines.slice(offset - 1, offset - 1 + limit);
  const end = offset - 1 + shown.length;
  return {
    lines: shown,
    offset,
    total_lines: lines.length,
    truncated: end < lines.length,
    ...(end < lines.length ? { next_offset: end + 1 } : {}),
  };
}

/**
 * `navigate`: to a URL (http or https only) or back / forward / reload; answers with the first
 * page of the new snapshot.
 */
export async function navigate(
  session: BrowserSession,
  input: BrowserInput,
): Promise<ToolResult<BrowserToolData>> {
  const page = await session.openPage();
  session.network.newNavigation();
  if (input.url !== undefined) {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      return fail("INVALID_INPUT", `${input.url} is not a URL.`, {
        hint: "Give an absolute http(s) URL, e.g. https://example.com/.",
      });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      return fail(
        "BLOCKED",
        `Only http(s) pages are opened, not ${url.protocol} (file:, chrome: and others are refused).`,
        { hint: "Give an http(s) URL." },
      );
    await page.goto(url.href, { waitUntil: "commit", timeout: ACTION_TIMEOUT_MS * 2 });
  } else if (input.go === "back")
    await page.goBack({ waitUntil: "commit", timeout: ACTION_TIMEOUT_MS });
  else if (input.go === "forward")
    await page.goForward({ waitUntil: "commit", timeout: ACTION_TIMEOUT_MS });
  else if (input.go === "reload")
    await page.reload({ waitUntil: "commit", timeout: ACTION_TIMEOUT_MS });
  else
    return fail("INVALID_INPUT", "navigate needs url or go.", {
      hint: 'Send { op: "navigate", url: "https://…" } or go: "back".',
    });
  await settlePage(session, page);
  const refused = session.network.takePageRefusal();
  if (refused !== undefined)
    return fail(refused.code, `The page was not loaded: ${refused.text}`, {
      hint:
        refused.code === "BLOCKED"
          ? "The address is refused by the network policy (a private or metadata address, a blocked origin, a scheme other than http(s)); use another URL."
          : refused.code === "TOO_LARGE"
            ? "The page is larger than the browser's budget; read it with web_fetch, or another page."
            : "The site did not answer as expected; retry, or try another URL.",
      retryable: refused.code !== "BLOCKED",
    });
  const lines = await takeSnapshot(session);
  session.snapshots.set(page, lines);
  return ok({
    ...(input.find === undefined ? {} : { find: input.find }),
    op: "navigate",
    ...(await pageFacts(session)),
    ...pageOf(found(lines, input.find), 1, DEFAULT_SNAPSHOT_LINES),
    events: [],
    events_omitted: 0,
  });
}

/** `snapshot`: the current tab as a compact accessibility tree (or Markdown), paged; or its changes. */
export async function snapshot(
  session: BrowserSession,
  input: BrowserInput,
  settings: BrowserOpsSettings,
): Promise<ToolResult<BrowserToolData>> {
  const page = session.page();
  const offset = input.offset ?? 1;
  const limit = input.limit ?? DEFAULT_SNAPSHOT_LINES;
  if (input.markdown === true) {
    if (settings.toMarkdown === undefined)
      return fail("NOT_CONFIGURED", "This browser tool has no Markdown converter.", {
        hint: "The host passes toMarkdown: htmlToMarkdown from @agentool/tools-web; meanwhile use the tree (markdown: false).",
      });
    const markdown = await settings.toMarkdown(await page.content(), page.url());
    return ok({
      op: "snapshot",
      ...(await pageFacts(session)),
      ...pageOf(found(markdown.split("\n"), input.find), offset, limit),
      ...(input.find === undefined ? {} : { find: input.find }),
      format: "markdown",
      events: [],
      events_omitted: 0,
    });
  }
  const lines = await takeSnapshot(session);
  const previous = session.snapshots.get(page);
  session.snapshots.set(page, lines);
  if (input.changes === true && previous !== undefined) {
    const { added, removed } = snapshotChanges(previous, lines);
    return ok({
      op: "snapshot",
      ...(await pageFacts(session)),
      ...pageOf(found(added, input.find), offset, limit),
      ...(input.find === undefined ? {} : { find: input.find }),
      changes: { added: added.length, removed },
      events: [],
      events_omitted: 0,
    });
  }
  return ok({
    op: "snapshot",
    ...(await pageFacts(session)),
    ...pageOf(found(lines, input.find), offset, limit),
    ...(input.find === undefined ? {} : { find: input.find }),
    events: [],
    events_omitted: 0,
  });
}

/** The element an action targets: by ref from the last snapshot, or by CSS selector. */
function locate(
  page: Page,
  action: { ref?: string | undefined; selector?: string | undefined },
): Locator | undefined {
  if (action.ref !== undefined) return page.locator(`aria-ref=${action.ref}`);
  if (action.selector !== undefined) return page.locator(action.selector).first();
  return undefined;
}

async function perform(page: Page, action: BrowserAction): Promise<string | undefined> {
  const target = locate(page, action);
  const options = { timeout: ACTION_TIMEOUT_MS };
  const needTarget = () => `${action.type} needs ref (from the snapshot) or selector`;
  switch (action.type) {
    case "click":
      if (target === undefined) return needTarget();
      await target.click(options);
      return undefined;
    case "hover":
      if (target === undefined) return needTarget();
      await target.hover(options);
      return undefined;
    case "fill":
      if (target === undefined) return needTarget();
      await target.fill(action.value ?? "", options);
      return undefined;
    case "select":
      if (target === undefined) return needTarget();
      await target.selectOption(action.value ?? "", options);
      return undefined;
    case "type":
      if (target !== undefined) await target.pressSequentially(action.text ?? "", options);
      else await page.keyboard.type(action.text ?? "");
      return undefined;
    case "key":
      if (target !== undefined) await target.press(action.key ?? "", options);
      else await page.keyboard.press(action.key ?? "");
      return undefined;
    case "scroll":
      if (target !== undefined) await target.scrollIntoViewIfNeeded(options);
      else await page.mouse.wheel(action.dx ?? 0, action.dy ?? 0);
      return undefined;
    case "wait":
      await page.waitForTimeout(action.ms ?? 0);
      return undefined;
  }
}

/** `act`: the actions in order, stopping at the first that fails; answers with what changed. */
export async function act(
  session: BrowserSession,
  input: BrowserInput,
): Promise<ToolResult<BrowserToolData>> {
  const actions = input.actions;
  if (actions === undefined)
    return fail("INVALID_INPUT", "act needs actions.", {
      hint: 'Send { op: "act", actions: [{ type: "click", ref: "e12" }] }.',
    });
  const page = session.page();
  const before = page.url();
  // Each call has its own request and byte budget (a click may navigate).
  session.network.newNavigation();
  let completed = 0;
  let failed: BrowserToolData["failed"];
  for (const action of actions) {
    try {
      const refused = await perform(page, action);
      if (refused !== undefined) {
        failed = { index: completed, type: action.type, message: refused };
        break;
      }
      completed += 1;
    } catch (error) {
      if (PreviewError.isInstance(error)) throw error;
      failed = {
        index: completed,
        type: action.type,
        message:
          String((error as Error).message ?? error)
            .split("\n")[0]
            ?.slice(0, 300) ?? "failed",
      };
      break;
    }
  }
  // A click may start a navigation a moment later (a form's submit): give it that moment.
  await page.waitForTimeout(30).catch(() => {});
  if (page.url() !== before || session.network.navigating()) await settlePage(session, page);
  else {
    // Requests the actions started (a fetch that updates the page): let them land, briefly.
    const until = Date.now() + REQUESTS_GRACE_MS;
    let waited = false;
    while (session.network.busy() && Date.now() < until) {
      waited = true;
      await page.waitForTimeout(20).catch(() => {});
    }
    // The page's own code runs once an answer lands (a promise's then): a moment for it.
    if (waited) await page.waitForTimeout(50).catch(() => {});
  }
  const current = session.page();
  const lines = await takeSnapshot(session);
  const previous = session.snapshots.get(current);
  session.snapshots.set(current, lines);
  const changed = previous !== undefined && current.url() === before;
  const shown = changed ? snapshotChanges(previous, lines) : undefined;
  return ok({
    op: "act",
    ...(await pageFacts(session)),
    requested: actions.length,
    completed,
    ...(failed === undefined ? {} : { failed }),
    ...(current.url() === before ? {} : { navigated: true }),
    ...(shown === undefined
      ? pageOf(lines, 1, DEFAULT_SNAPSHOT_LINES)
      : {
          ...pageOf(shown.added, 1, DEFAULT_SNAPSHOT_LINES),
          changes: { added: shown.added.length, removed: shown.removed },
        }),
    events: [],
    events_omitted: 0,
  });
}

/** `read`: DOM queries (text or an attribute of the first five matches), capped. */
export async function read(
  session: BrowserSession,
  input: BrowserInput,
): Promise<ToolResult<BrowserToolData>> {
  const queries = input.queries;
  if (queries === undefined)
    return fail("INVALID_INPUT", "read needs queries.", {
      hint: 'Send { op: "read", queries: [{ css: "h1" }] }.',
    });
  const page = session.page();
  const answers: NonNullable<BrowserToolData["answers"]> = [];
  for (const query of queries) {
    try {
      const found = await page.locator(query.css).evaluateAll(
        (elements, [attr, cap]) => ({
          count: elements.length,
          // Cut in the page (a huge text never crosses over), its whole length kept.
          values: elements.slice(0, 5).map((element) => {
            const value =
              attr === undefined
                ? // biome-ignore lint/performance/useDomNodeTextContent: the text as the page shows it (no script or hidden text), as a reader sees it
                  ((element as HTMLElement).innerText ?? element.textContent)
                : element.getAttribute(attr);
            if (value === null) return null;
            const text = String(value);
            return { text: text.slice(0, cap as number), length: text.length };
          }),
        }),
        [query.attr, MAX_READ_CHARACTERS] as const,
      );
      // The answer says when a value was cut, and how much was left out.
      let omitted = 0;
      const values = found.values.map((value) => {
        if (value === null) return null;
        omitted += value.length - value.text.length;
        return value.text;
      });
      answers.push({
        css: query.css,
        attr: query.attr ?? "text",
        count: found.count,
        values,
        truncated: omitted > 0,
        ...(omitted > 0 ? { omitted_characters: omitted } : {}),
      });
    } catch (error) {
      answers.push({
        css: query.css,
        attr: query.attr ?? "text",
        count: 0,
        values: [],
        truncated: false,
        error: String((error as Error).message).split("\n")[0] ?? "failed",
      });
    }
  }
  return ok({ op: "read", ...(await pageFacts(session)), answers, events: [], events_omitted: 0 });
}

/** `shot`: a PNG of the viewport, the whole page or one element. */
export async function shot(
  session: BrowserSession,
  input: BrowserInput,
): Promise<ToolResult<BrowserToolData>> {
  const page = session.page();
  const target = locate(page, input);
  const bytes =
    target !== undefined
      ? await target.screenshot({ type: "png", timeout: ACTION_TIMEOUT_MS })
      : await page.screenshot({
          type: "png",
          fullPage: input.full_page === true,
          timeout: ACTION_TIMEOUT_MS,
        });
  if (bytes.byteLength > MAX_SHOT_BYTES)
    return fail(
      "TOO_LARGE",
      `The screenshot is ${bytes.byteLength} bytes (at most ${MAX_SHOT_BYTES}).`,
      { hint: "Shoot the viewport or one element instead of the whole page." },
    );
  return ok({
    op: "shot",
    ...(await pageFacts(session)),
    image_base64: bytes.toString("base64"),
    mime_type: "image/png",
    events: [],
    events_omitted: 0,
  });
}

/** `tabs`: list them, switch to one or close one (1-based). */
export async function tabs(
  session: BrowserSession,
  input: BrowserInput,
): Promise<ToolResult<BrowserToolData>> {
  const action = input.tab_action ?? "list";
  if (action !== "list") {
    const index = (input.tab ?? 0) - 1;
    const page = session.tabs[index];
    if (page === undefined || page.isClosed())
      return fail("INVALID_INPUT", `There is no open tab ${input.tab ?? "(none given)"}.`, {
        hint: 'List the tabs with { op: "tabs" }.',
      });
    if (action === "switch") {
      session.current = index;
      await page.bringToFront().catch(() => {});
    } else {
      await page.close().catch(() => {});
      if (session.current === index) {
        const open = session.tabs.findIndex((tab) => !tab.isClosed());
        session.current = open === -1 ? 0 : open;
      }
    }
  }
  const open = session.tabs.filter((tab) => !tab.isClosed());
  if (open.length === 0)
    return fail("INVALID_INPUT", "Every tab is closed.", {
      hint: 'Navigate again: { op: "navigate", url: "https://…" } opens a new session.',
    });
  const tabList = await Promise.all(
    session.tabs.map(async (tab, index) =>
      tab.isClosed()
        ? undefined
        : {
            tab: index + 1,
            url: tab.url(),
            title: await tab.title().catch(() => ""),
            current: index === session.current,
          },
    ),
  );
  return ok({
    op: "tabs",
    ...(await pageFacts(session)),
    tab_list: tabList.filter((entry) => entry !== undefined),
    events: [],
    events_omitted: 0,
  });
}
