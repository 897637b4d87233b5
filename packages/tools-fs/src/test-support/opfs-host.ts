// The page script of the OPFS tests: the package's ROOT entry bundled for the browser and
// loaded in Chromium from 127.0.0.1 (a secure context, so OPFS is there). Exposes
// `globalThis.opfsHost`, driven from Node with page.evaluate: seams over real OPFS directories,
// their methods called one by one (bytes as base64), and the fs tools run inside the page.
import type { AnyTool } from "@agentool/contract";
import {
  createFsTools,
  createOpfsFileSystem,
  type FileReader,
  FileSystemError,
  type OpfsDirectoryHandleLike,
  type OpfsFileSystem,
} from "../index.js";

// The tsconfig has no DOM lib (the package must not depend on it): the page's globals, typed
// as far as the tests use them.
const opfsRoot = (): Promise<OpfsDirectoryHandleLike> =>
  (
    globalThis as unknown as {
      navigator: { storage: { getDirectory(): Promise<OpfsDirectoryHandleLike> } };
    }
  ).navigator.storage.getDirectory();

/** A seam call's outcome as it crosses to Node. */
export type HostOutcome =
  | { ok: unknown }
  | { error: { code: string; message: string; hint: string | undefined } }
  | { thrown: string };

/** A value that crosses to Node: bytes as base64. */
export type Wire = { bytes: string } | { value: unknown };

/** What the page exposes. */
export interface OpfsHost {
  /** A fresh seam scoped to a new OPFS directory, holding `files` (path → base64). */
  makeSeam(files: Record<string, string>): Promise<number>;
  /** Calls `method` of seam `id`; arguments and the result as {@link Wire}. */
  call(id: number, method: string, args: Wire[]): Promise<HostOutcome>;
  /** Reads from a reader opened with `call(id, "openReader", …)`. */
  read(reader: number, position: number, length: number): Promise<HostOutcome>;
  /** Closes a reader. */
  closeReader(reader: number): Promise<HostOutcome>;
  /** `scope(path, options)` of seam `id`: the new seam's id. */
  scope(id: number, path: string, options?: { create?: boolean }): Promise<HostOutcome>;
  /** Runs a fs tool from `createFsTools({ fileSystem: seam, mode: "read-write" })` in the page. */
  runTool(id: number, name: string, input: unknown): Promise<unknown>;
  /** `createOpfsFileSystem(options)` as a host would call it; the error code when it fails. */
  create(options: unknown): Promise<HostOutcome>;
  /** Runs one of the page-only scenarios (fault injection on real handles). */
  scenario(name: string): Promise<unknown>;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

async function outcome(work: () => Promise<unknown>): Promise<HostOutcome> {
  try {
    return { ok: await work() };
  } catch (error) {
    if (FileSystemError.isInstance(error)) {
      return { error: { code: error.code, message: error.message, hint: error.hint } };
    }
    return { thrown: `${(error as Error)?.name}: ${(error as Error)?.message ?? String(error)}` };
  }
}

const seams = new Map<number, OpfsFileSystem>();
const readers = new Map<number, FileReader>();
const tools = new Map<number, Map<string, AnyTool>>();
let nextId = 0;
let base: Promise<OpfsFileSystem> | undefined;

function seamOf(id: number): OpfsFileSystem {
  const seam = seams.get(id);
  if (seam === undefined) throw new Error(`no seam ${id}`);
  return seam;
}

function register(seam: OpfsFileSystem): number {
  nextId += 1;
  seams.set(nextId, seam);
  return nextId;
}

const host: OpfsHost = {
  async makeSeam(files) {
    base ??= createOpfsFileSystem();
    const root = await base;
    const seam = await root.scope(`seams/seam-${nextId + 1}-${Date.now()}`);
    for (const [path, content] of Object.entries(files)) {
      await seam.writeFile(path, fromBase64(content));
    }
    return register(seam);
  },
  call(id, method, args) {
    return outcome(async () => {
      const seam = seamOf(id) as unknown as Record<string, (...values: unknown[]) => unknown>;
      const values = args.map((arg) => ("bytes" in arg ? fromBase64(arg.bytes) : arg.value));
      const result = await (seam[method] as (...values: unknown[]) => Promise<unknown>).apply(
        seam,
        values,
      );
      if (method === "openReader") {
        const reader = result as FileReader;
        nextId += 1;
        readers.set(nextId, reader);
        return { reader: nextId, size: reader.size };
      }
      return result instanceof Uint8Array ? { bytes: toBase64(result) } : { value: result };
    });
  },
  read(reader, position, length) {
    return outcome(async () => {
      const handle = readers.get(reader);
      if (handle === undefined) throw new Error(`no reader ${reader}`);
      return toBase64(await handle.read(position, length));
    });
  },
  closeReader(reader) {
    return outcome(async () => {
      await readers.get(reader)?.close();
    });
  },
  scope(id, path, options) {
    return outcome(async () => register(await seamOf(id).scope(path, options)));
  },
  async runTool(id, name, input) {
    let mounted = tools.get(id);
    if (mounted === undefined) {
      mounted = new Map(
        createFsTools({ fileSystem: seamOf(id), mode: "read-write" }).map((tool) => [
          tool.name,
          tool,
        ]),
      );
      tools.set(id, mounted);
    }
    const tool = mounted.get(name);
    if (tool === undefined) throw new Error(`no tool ${name}`);
    return tool.run(input);
  },
  create(options) {
    return outcome(async () => {
      const seam = await createOpfsFileSystem(options as never);
      return { kind: seam.kind, displayRoot: seam.displayRoot, id: register(seam) };
    });
  },
  async scenario(name) {
    return scenarios[name]?.();
  },
};

/** Wraps a real directory handle so that writables of `failing` fail when they close. */
function failingOnClose(directory: OpfsDirectoryHandleLike, failing: string): unknown {
  return new Proxy(directory, {
    get(target, property) {
      if (property === "getFileHandle") {
        return async (name: string, options?: { create?: boolean }) => {
          const file = await target.getFileHandle(name, options);
          if (name !== failing) return file;
          return new Proxy(file, {
            get(inner, key) {
              if (key === "createWritable") {
                return async (writableOptions?: { keepExistingData?: boolean }) => {
                  const writable = await inner.createWritable(writableOptions);
                  return {
                    write: (data: Uint8Array<ArrayBuffer>) => writable.write(data),
                    close: async () => {
                      throw new DOMException("disk on fire", "QuotaExceededError");
                    },
                    abort: (reason?: unknown) => writable.abort(reason),
                  };
                };
              }
              const value = Reflect.get(inner, key, inner);
              return typeof value === "function" ? value.bind(inner) : value;
            },
          });
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const scenarios: Record<string, () => Promise<unknown>> = {
  /** A write whose stream fails at close: aborted, the old content kept, no new empty file. */
  async failedWrite() {
    const opfs = await opfsRoot();
    const directory = await opfs.getDirectoryHandle(`failed-write-${Date.now()}`, {
      create: true,
    });
    const plain = await createOpfsFileSystem({ root: directory });
    await plain.writeFile("old.txt", new TextEncoder().encode("old content"));
    const failingOld = await createOpfsFileSystem({
      root: failingOnClose(directory, "old.txt") as never,
    });
    const failingNew = await createOpfsFileSystem({
      root: failingOnClose(directory, "new.txt") as never,
    });
    const overwrite = await outcome(() =>
      failingOld.writeFile("old.txt", new TextEncoder().encode("NEW")),
    );
    const create = await outcome(() =>
      failingNew.writeFile("new.txt", new TextEncoder().encode("NEW")),
    );
    return {
      overwrite,
      create,
      old: new TextDecoder().decode(await plain.readFile("old.txt")),
      names: (await plain.readDirectoryNames?.(""))?.map((entry) => entry.name).sort(),
    };
  },
  /** The file changes only when the writable closes (Chromium's swap file), seen from the seam. */
  async swapFile() {
    const opfs = await opfsRoot();
    const directory = await opfs.getDirectoryHandle(`swap-${Date.now()}`, { create: true });
    const seam = await createOpfsFileSystem({ root: directory });
    await seam.writeFile("a.txt", new TextEncoder().encode("before"));
    const writable = await (await directory.getFileHandle("a.txt")).createWritable();
    await writable.write(new TextEncoder().encode("after, longer"));
    const during = new TextDecoder().decode(await seam.readFile("a.txt"));
    await writable.close();
    const after = new TextDecoder().decode(await seam.readFile("a.txt"));
    return { during, after };
  },
  /** A reader over a snapshot: the file replaced under it gives CONFLICT, not mixed bytes. */
  async staleReader() {
    const root = await createOpfsFileSystem();
    const seam = await root.scope(`stale-${Date.now()}`);
    await seam.writeFile("a.txt", new TextEncoder().encode("0123456789"));
    const reader = await seam.openReader("a.txt");
    const first = new TextDecoder().decode(await reader.read(0, 4));
    await seam.writeFile("a.txt", new TextEncoder().encode("abcdefghij"));
    const second = await outcome(() => reader.read(4, 4));
    await reader.close();
    return { first, second };
  },
};

(globalThis as unknown as { opfsHost: OpfsHost }).opfsHost = host;
