/// <reference lib="dom" />
// Seed 000's artifact workspace in a browser (issue 31 A.6): a host that keeps files in IndexedDB
// gives two functions, read and write, to createHandlerFileSystem; the fs family's write_file /
// read_file / edit_file and the preview (iframe backend) share that one namespace. The agent
// writes a three-file app, previews it, edits a file and previews again.
import { createFsTools, createHandlerFileSystem } from "@agentool/tools-fs";
import { createPreviewTool } from "@agentool/tools-preview";

/** IndexedDB as a path → content store (string or bytes). */
async function openStore(): Promise<{
  read(path: string): Promise<string | Uint8Array | undefined>;
  write(path: string, content: string | Uint8Array): Promise<void>;
}> {
  const database = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(`artifact-workspace-${Date.now()}`, 1);
    request.onupgradeneeded = () => request.result.createObjectStore("files");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const run = <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      const request = work(database.transaction("files", mode).objectStore("files"));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  return {
    read: (path) => run("readonly", (store) => store.get(path)) as Promise<string | undefined>,
    write: async (path, content) => {
      await run("readwrite", (store) => store.put(content, path));
    },
  };
}

const INDEX = `<!doctype html>
<html><head><title>Todo</title><link rel="stylesheet" href="style.css">
<script type="module" src="app.js"></script></head>
<body><ul id="list"></ul></body></html>`;
const APP = `const items = await (await fetch("items.json")).json();
document.querySelector("#list").innerHTML = items.map((item) => "<li>" + item + "</li>").join("");
window.ready = true;`;

/**
 * Writes the app with the fs tools, previews it, edits it and previews again.
 *
 * @returns what each step answered
 */
export default async function run(): Promise<Record<string, unknown>> {
  const store = await openStore();
  const fileSystem = createHandlerFileSystem({ read: store.read, write: store.write });
  const tools = new Map(
    createFsTools({ fileSystem, mode: "read-write" }).map((tool) => [tool.name, tool]),
  );
  const preview = createPreviewTool({ fileSystem, timeoutMs: 8_000 });
  const call = (name: string, input: unknown) =>
    (tools.get(name) as { run(input: unknown): Promise<unknown> }).run(input);
  const thread = { threadId: "artifact-workspace" };
  const written = [
    await call("write_file", { path: "todo/index.html", content: INDEX }),
    await call("write_file", { path: "todo/app.js", content: APP }),
    await call("write_file", { path: "todo/style.css", content: "li { color: rgb(0, 0, 255); }" }),
    await call("write_file", { path: "todo/items.json", content: '["milk", "eggs"]' }),
  ];
  const state = `(async () => {
    for (let tries = 0; tries < 100 && !window.ready; tries++) await new Promise((done) => setTimeout(done, 20));
    const items = [...document.querySelectorAll("li")];
    return { items: items.map((item) => item.textContent), color: items[0] && getComputedStyle(items[0]).color };
  })()`;
  const opened = await preview.run({ op: "open", path: "todo/index.html" }, thread);
  const first = await preview.run({ op: "eval", code: state }, thread);
  const edited = await call("edit_file", {
    path: "todo/items.json",
    old_text: '"eggs"',
    new_text: '"eggs", "bread"',
  });
  const stored = await store.read("todo/items.json");
  const reopened = await preview.run({ op: "open", path: "todo/index.html" }, thread);
  const second = await preview.run({ op: "eval", code: state }, thread);
  const read = await call("read_file", { path: "todo/items.json" });
  await preview.dispose();
  return { written, opened, first, edited, stored, reopened, second, read };
}
