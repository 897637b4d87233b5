import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryStore } from "@langchain/langgraph";
import { createBaseStoreMemoryBackend } from "../base-store-memory-backend.js";
import { createInMemoryMemoryBackend } from "../in-memory-memory-backend.js";
import { describeMemoryBackend } from "../test-support/memory-backend-suite.js";
import { createFileMemoryBackend } from "./file-memory-backend.js";

// The one shared backend suite, on every backend: the file store, the in-process map and
// LangGraph's InMemoryStore (PostgresStore on a real server: memory-backends-postgres.int.test.ts).

describeMemoryBackend("file store", () => {
  const directory = mkdtempSync(join(tmpdir(), "agentool-memory-suite-"));
  return {
    backend: createFileMemoryBackend({ directory }),
    reopen: () => createFileMemoryBackend({ directory }),
    cleanup: () => rmSync(directory, { recursive: true, force: true }),
  };
});

describeMemoryBackend("in-process map", () => {
  const backend = createInMemoryMemoryBackend();
  return { backend, reopen: () => backend, cleanup: () => undefined };
});

describeMemoryBackend("LangGraph InMemoryStore", () => {
  const store = new InMemoryStore();
  return {
    backend: createBaseStoreMemoryBackend({ store }),
    reopen: () => createBaseStoreMemoryBackend({ store }),
    cleanup: () => undefined,
  };
});
