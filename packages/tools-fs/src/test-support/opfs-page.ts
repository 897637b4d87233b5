import type { Page } from "playwright-core";
import {
  type DirectoryEntry,
  type FileReader,
  type FileStat,
  type FileSystem,
  FileSystemError,
} from "../file-system.js";
import { openBundledPage } from "./bundled-page.js";
import type { HostOutcome, OpfsHost, Wire } from "./opfs-host.js";
import type { SeamFiles } from "./seams.js";

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
  const { page, close } = await openBundledPage(
    new URL("./opfs-host.ts", import.meta.url),
    "opfsHost",
  );
  const host = ((name: string, ...args: unknown[]) =>
    page.evaluate(
      ([method, values]) =>
        (
          (globalThis as unknown as { opfsHost: Record<string, (...a: unknown[]) => unknown> })
            .opfsHost[method as string] as (...a: unknown[]) => unknown
        )(...(values as unknown[])),
      [name, args] as const,
    )) as OpfsPage["host"];
  return { page, host, seam: (id) => proxySeam(host, id), close };
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
