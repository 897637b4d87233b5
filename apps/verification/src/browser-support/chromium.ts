import { existsSync } from "node:fs";
import { CHROMIUM_NO_EGRESS_ARGS, DEFAULT_CHROMIUM_PATH } from "@agentool/tools-preview/node";
import { type Browser, chromium } from "playwright-core";

const LOOPBACK_BYPASS_REMOVAL = "--proxy-bypass-list=<-loopback>";
const HOST_RESOLVER_RULES = "--host-resolver-rules=";

/**
 * The launch flags of tools-preview's browsers ({@link CHROMIUM_NO_EGRESS_ARGS}: headless, no GPU,
 * no background traffic, every connection sent to a closed proxy and every name unresolvable)
 * with 127.0.0.1 let through — the one host the pages here talk to. Throws when those flags
 * changed shape, so a change upstream is noticed here rather than silently loosened.
 *
 * @returns the flags
 */
export function loopbackOnlyChromiumArgs(): string[] {
  const resolverRules = CHROMIUM_NO_EGRESS_ARGS.filter((flag) =>
    flag.startsWith(HOST_RESOLVER_RULES),
  );
  if (!CHROMIUM_NO_EGRESS_ARGS.includes(LOOPBACK_BYPASS_REMOVAL) || resolverRules.length !== 1) {
    throw new Error(
      `CHROMIUM_NO_EGRESS_ARGS changed (${CHROMIUM_NO_EGRESS_ARGS.join(" ")}); update loopbackOnlyChromiumArgs.`,
    );
  }
  return CHROMIUM_NO_EGRESS_ARGS.filter((flag) => flag !== LOOPBACK_BYPASS_REMOVAL).map((flag) =>
    flag.startsWith(HOST_RESOLVER_RULES) ? `${flag}, EXCLUDE 127.0.0.1` : flag,
  );
}

/**
 * Launches Debian's Chromium headless with {@link loopbackOnlyChromiumArgs}. Throws with the
 * install line when it is missing: the browser tests never skip.
 *
 * @returns the browser
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(DEFAULT_CHROMIUM_PATH)) {
    throw new Error(
      `The browser-bundle test needs Chromium at ${DEFAULT_CHROMIUM_PATH}; install it with \`apt-get install -y chromium\` (the test command's setup step does).`,
    );
  }
  return chromium.launch({
    executablePath: DEFAULT_CHROMIUM_PATH,
    args: loopbackOnlyChromiumArgs(),
  });
}

/** What one entry's script gave back in the page, and what went wrong around it. */
export interface EntryRun {
  /** The resolved value of the script's default export (JSON-cloned by the browser). */
  value: unknown;
  /** Uncaught errors and unhandled rejections of the page. */
  pageErrors: string[];
  /** `console.error` lines of the page. */
  consoleErrors: string[];
}

/**
 * Opens a fresh context and page at `origin`, imports `/entries/<name>.js` there and awaits its
 * default export (`() => Promise<JSON value>`), collecting page errors and console errors.
 *
 * @param browser - the browser
 * @param origin - the entry server's origin
 * @param name - the bundle's name
 * @returns the value and the errors seen
 */
export async function runEntryInPage(
  browser: Browser,
  origin: string,
  name: string,
): Promise<EntryRun> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(`${error.name}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  try {
    await page.goto(`${origin}/`);
    // A string, not a function: vitest would rewrite `import()` inside a function it transforms.
    const url = JSON.stringify(`${origin}/entries/${name}.js`);
    const value: unknown = await page.evaluate(`import(${url}).then((entry) => entry.default())`);
    return { value, pageErrors, consoleErrors };
  } finally {
    await context.close();
  }
}
