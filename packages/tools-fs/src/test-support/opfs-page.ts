import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { rolldown } from "rolldown";
import {
  type DirectoryEntry,
  type FileReader,
  type FileStat,
  type FileSystem,
  FileSystemError,
} from "../file-system.js";
import type { HostOutcome, OpfsHost, Wire } from "./opfs-host.js";
import type { SeamFiles } from "./seams.js";

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

/** A page in headless Chromium with the root entry loaded as `globalThis.opfsHost`. */
export interface OpfsPage {
  /** The page. */
  page: Page;
  /** Calls a method of the page's host. */
  host<Name extends keyof OpfsHost>(
    name: Name,
    ...args: Parameters<OpfsHost[Name]>
  ): Promise<Awaited<ReturnType<OpfsHost[Name]>>>;
  /** A {@link FileSystem} in Node whose every call runs on a seam in the page. */
  seam(id: number): FileSystem;
  /** Closes the browser and the server. */
  close(): Promise<void>;
}

/**
 * Bundles `opfs-host.ts` (the root entry, platform "browser"), serves it from 127.0.0.1 and
 * loads it in headless Chromium. Throws when Chromium is missing: these tests never skip.
 *
 * @returns the page and helpers
 */
export async function openOpfsPage(): Promise<OpfsPage> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The OPFS tests need Chromium at ${CHROMIUM_PATH}; install it with \`apt-get install -y chromium\` (the root test script does).`,
    );
  }
  const bundle = await rolldown({
    input: fileURLToPath(new URL("./opfs-host.ts", import.meta.url)),
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
      .waitForFunction(() => "opfsHost" in globalThis, undefined, { timeout: 15_000 })
      .catch((error: unknown) => {
        throw new Error(`the OPFS host did not load: ${errors.join("; ") || String(error)}`);
      });
    const opened = browser;
    const host = ((name: string, ...args: unknown[]) =>
      page.evaluate(
        ([method, values]) =>
          (
            (globalThis as unknown as { opfsHost: Record<string, (...a: unknown[]) => unknown> })
              .opfsHost[method as string] as (...a: unknown[]) => unknown
          )(...(values as unknown[])),
        [name, args] as const,
      )) as OpfsPage["host"];
    return {
      page,
      host,
      seam: (id) => proxySeam(host, id),
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

/** The page's outcome as a value, or the {@link FileSystemError} it carried, thrown again. */
function unwrap(outcome: HostOutcome): unknown {
  if ("ok" in outcome) return outcome.ok;
  if ("error" in outcome) {
    throw new FileSystemError(
      outcome.error.code as FileSystemError["code"],
      outcome.error.message,
      outcome.error.hint ?? undefined,
    );
  }
  throw new Error(`the page threw: ${outcome.thrown}`);
}

function toWire(value: unknown): Wire {
  return value instanceof Uint8Array ? { bytes: Buffer.from(value).toString("base64") } : { value };
}

function fromWire(wire: Wire): unknown {
  return "bytes" in wire ? new Uint8Array(Buffer.from(wire.bytes, "base64")) : wire.value;
}

/** A seam in Node that forwards every call to seam `id` in the page. */
function proxySeam(host: OpfsPage["host"], id: number): FileSystem {
  const call = async (method: string, ...args: unknown[]) =>
    fromWire(unwrap(await host("call", id, method, args.map(toWire))) as Wire);
  return {
    kind: "opfs",
    displayRoot: "/",
    realPath: async (path) => (await call("realPath", path)) as string,
    stat: async (path) => ((await call("stat", path)) ?? undefined) as FileStat | undefined,
    readFile: async (path) => (await call("readFile", path)) as Uint8Array,
    async openReader(path): Promise<FileReader> {
      const opened = unwrap(await host("call", id, "openReader", [{ value: path }])) as {
        reader: number;
        size: number;
      };
      return {
        size: opened.size,
        read: async (position, length) =>
          new Uint8Array(
            Buffer.from(
              unwrap(await host("read", opened.reader, position, length)) as string,
              "base64",
            ),
          ),
        close: async () => {
          unwrap(await host("closeReader", opened.reader));
        },
      };
    },
    writeFile: async (path, data) => {
      await call("writeFile", path, data);
    },
    createDirectory: async (path) => {
      await call("createDirectory", path);
    },
    readDirectory: async (path) => (await call("readDirectory", path)) as DirectoryEntry[],
    readDirectoryNames: async (path) =>
      (await call("readDirectoryNames", path)) as Array<Pick<DirectoryEntry, "name" | "type">>,
    remove: async (path, options) => {
      await call("remove", path, options);
    },
    rename: async (source, destination) => {
      await call("rename", source, destination);
    },
    copy: async (source, destination) => {
      await call("copy", source, destination);
    },
    digest: async (path) => (await call("digest", path)) as string,
  };
}

/**
 * Files for {@link OpfsHost.makeSeam}: text and bytes as base64.
 *
 * @param files - workspace path → content
 * @returns workspace path → base64
 */
export function encodeFiles(files: SeamFiles): Record<string, string> {
  return Object.fromEntries(
    Object.entries(files).map(([path, content]) => [
      path,
      Buffer.from(typeof content === "string" ? content : content).toString("base64"),
    ]),
  );
}
