import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryStore } from "@langchain/langgraph";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { createBaseStoreMemoryBackend } from "../memory/base-store-memory-backend.js";
import { createInMemoryMemoryBackend } from "../memory/in-memory-memory-backend.js";
import { describeMemoryBackend } from "../test-support/memory-backend-suite.js";
import { startPostgresServer } from "../test-support/postgres-server.js";
import { createFileMemoryBackend } from "./file-memory-backend.js";

// The one shared backend suite, on every backend: the file store, the in-process map, LangGraph's
// InMemoryStore and PostgresStore on a real PostgreSQL server started here (127.0.0.1, temporary
// data folder, stopped at the end).

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

describeMemoryBackend("LangGraph PostgresStore (real server)", async () => {
  const server = await startPostgresServer();
  const stores: PostgresStore[] = [];
  const open = async () => {
    const store = PostgresStore.fromConnString(server.connectionString);
    await store.setup();
    stores.push(store);
    return createBaseStoreMemoryBackend({ store, pageSize: 4 });
  };
  return {
    backend: await open(),
    reopen: open,
    cleanup: async () => {
      for (const store of stores) await store.stop();
      server.stop();
    },
  };
});
