import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { rolldown } from "rolldown";

/** Where the Chromium the tests drive lives (Debian's package; the root test script installs it). */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** The launch flags from CONVENTIONS.md. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A page in headless Chromium with a bundled test script loaded. */
export interface BundledPage {
  /** The page. */
  page: Page;
  /** Closes the browser and the server. */
  close(): Promise<void>;
}

/**
 * Bundles a page script (platform "browser", so the package's root entry is bundled as an app
 * would bundle it; a `node:` import fails), serves it from 127.0.0.1 (a secure context) and
 * loads it in headless Chromium, waiting until the script has set `globalThis[globalName]`.
 * Throws when Chromium is missing: these tests never skip.
 *
 * @param script - the page script's URL (a `.ts` file beside the tests)
 * @param globalName - the global the script sets once it is ready
 * @returns the page and a close function
 */
export async function openBundledPage(script: URL, globalName: string): Promise<BundledPage> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM_PATH}; install it with \`apt-get install -y chromium\` (the root test script does).`,
    );
  }
  const bundle = await rolldown({
    input: fileURLToPath(script),
    platform: "browser",
    logLevel: "silent",
  });
  const { output } = await bundle.generate({ format: "esm" });
  await bundle.close();
  const code = (output[0] as { code: string }).code;
  if (/from\s*["']node:/.test(code)) throw new Error("the browser bundle imports node: modules");
  const server: Server = createServer((request, response) => {
    if (request.url === "/bundle.js") {
      response.writeHead(200, { "content-type": "text/javascript" });
      response.end(code);
      return;
    }
    response.writeHead(200, { "content-type": "text/html" });
    response.end(
      '<!doctype html><html><body><script type="module" src="/bundle.js"></script></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page
      .waitForFunction((name) => name in globalThis, globalName, { timeout: 15_000 })
      .catch((error: unknown) => {
        throw new Error(`the page script did not load: ${errors.join("; ") || String(error)}`);
      });
    const opened = browser;
    return {
      page,
      async close() {
        await opened.close();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  } catch (error) {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }
}
