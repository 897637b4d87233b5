// The page script of the handler seam's browser test: the package's ROOT entry bundled for the
// browser and loaded in Chromium, with a host's storage the way a browser app keeps one — an
// IndexedDB object store from path to content — handed to createHandlerFileSystem as read /
// write (and list / remove when asked). Exposes `globalThis.indexedDbHost`, driven from Node
// with page.evaluate; the fs tools run inside the page.
import type { AnyTool, ToolResult } from "@agentool/contract";
import { createFsTools, createHandlerFileSystem, type FileSystemHandler } from "../index.js";

// The tsconfig has no DOM lib (the package must not depend on it): IndexedDB typed as far as
// this script uses it.
interface Request<Result> {
  readonly result: Result;
  readonly error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface ObjectStore {
  get(key: string): Request<unknown>;
  put(value: unknown, key: string): Request<unknown>;
  delete(key: string): Request<unknown>;
  getAllKeys(range?: unknown): Request<string[]>;
}
interface Transaction {
  readonly error: unknown;
  objectStore(name: string): ObjectStore;
  abort(): void;
  oncomplete: (() => void) | null;
  onabort: (() => void) | null;
}
interface Database {
  transaction(store: string, mode: "readonly" | "readwrite"): Transaction;
  createObjectStore(name: string): ObjectStore;
}
interface BrowserGlobals {
  indexedDB: {
    open(
      name: string,
      version: number,
    ): Request<Database> & { onupgradeneeded: (() => void) | null };
  };
  IDBKeyRange: { bound(lower: string, upper: string): unknown };
}

const browser = globalThis as unknown as BrowserGlobals;
const STORE = "files";

/** How a test wants the host's handler: which functions it gives, and how writes fail. */
export interface HandlerShape {
  /** Give `list`. */
  list: boolean;
  /** Give `remove`. */
  remove: boolean;
  /** Make every write fail: a real aborted transaction, or a quota error. */
  failWrites?: "abort" | "quota";
}

/** What the page exposes. */
export interface IndexedDbHost {
  /** Opens (or creates) a database and a seam over it; the seam's id. */
  open(database: string, shape: HandlerShape): Promise<number>;
  /** Runs a fs tool from `createFsTools({ fileSystem: seam, mode: "read-write" })`. */
  runTool(id: number, name: string, input: unknown): Promise<ToolResult<unknown>>;
  /** What the object store holds at `path`, straight from IndexedDB. */
  stored(id: number, path: string): Promise<{ form: string; text?: string; bytes?: number[] }>;
  /** Puts a value into the store behind the tools' back (a user editing the file). */
  put(id: number, path: string, text: string): Promise<void>;
  /** Writes bytes through the seam itself (the tools write text only). */
  writeBytes(id: number, path: string, bytes: number[]): Promise<void>;
}

function settle<Result>(request: Request<Result>): Promise<Result> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Resolves when the transaction commits; rejects with its error when it aborts. */
function committed(transaction: Transaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () =>
      reject(transaction.error ?? new DOMException("The transaction was aborted.", "AbortError"));
  });
}

async function openDatabase(name: string): Promise<Database> {
  const request = browser.indexedDB.open(name, 1);
  request.onupgradeneeded = () => {
    request.result.createObjectStore(STORE);
  };
  return settle(request);
}

/** The handler a host writes over one object store. */
function handlerOver(database: Database, shape: HandlerShape): FileSystemHandler {
  const store = (mode: "readonly" | "readwrite") => {
    const transaction = database.transaction(STORE, mode);
    return { transaction, files: transaction.objectStore(STORE) };
  };
  const handler: FileSystemHandler = {
    read: (path) => settle(store("readonly").files.get(path)) as Promise<string | undefined>,
    async write(path, content) {
      if (shape.failWrites === "quota") {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      }
      const { transaction, files } = store("readwrite");
      const request = files.put(content, path);
      if (shape.failWrites === "abort") {
        transaction.abort();
        await settle(request); // rejects with the request's real AbortError
      }
      await committed(transaction);
    },
  };
  if (shape.list) {
    handler.list = async (directory) => {
      const prefix = directory.length === 0 ? "" : `${directory}/`;
      const range =
        prefix.length === 0 ? undefined : browser.IDBKeyRange.bound(prefix, `${prefix}\uffff`);
      const keys = await settle(store("readonly").files.getAllKeys(range));
      return keys.map((key) => key.slice(prefix.length));
    };
  }
  if (shape.remove) {
    handler.remove = async (path) => {
      const { transaction, files } = store("readwrite");
      files.delete(path);
      await committed(transaction);
    };
  }
  return handler;
}

const seams = new Map<
  number,
  {
    database: Database;
    tools: Map<string, AnyTool>;
    write: (path: string, bytes: Uint8Array) => Promise<void>;
  }
>();

function seamOf(id: number) {
  const seam = seams.get(id);
  if (seam === undefined) throw new Error(`no seam ${id}`);
  return seam;
}

const host: IndexedDbHost = {
  async open(name, shape) {
    const database = await openDatabase(name);
    const fileSystem = createHandlerFileSystem(handlerOver(database, shape));
    const tools = createFsTools({ fileSystem, mode: "read-write" });
    const id = seams.size + 1;
    seams.set(id, {
      database,
      tools: new Map(tools.map((tool) => [tool.name, tool])),
      write: (path, bytes) => fileSystem.writeFile(path, bytes),
    });
    return id;
  },
  async runTool(id, name, input) {
    const tool = seamOf(id).tools.get(name);
    if (tool === undefined) throw new Error(`no tool ${name}`);
    return tool.run(input);
  },
  async stored(id, path) {
    const transaction = seamOf(id).database.transaction(STORE, "readonly");
    const value = await settle(transaction.objectStore(STORE).get(path));
    if (value === undefined) return { form: "missing" };
    if (typeof value === "string") return { form: "string", text: value };
    if (value instanceof Uint8Array) return { form: "Uint8Array", bytes: [...value] };
    return { form: Object.prototype.toString.call(value) };
  },
  async put(id, path, text) {
    const transaction = seamOf(id).database.transaction(STORE, "readwrite");
    transaction.objectStore(STORE).put(text, path);
    await committed(transaction);
  },
  async writeBytes(id, path, bytes) {
    await seamOf(id).write(path, new Uint8Array(bytes));
  },
};

(globalThis as unknown as { indexedDbHost: IndexedDbHost }).indexedDbHost = host;
