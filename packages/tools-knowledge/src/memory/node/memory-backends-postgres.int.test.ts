import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { startPostgresServer } from "../../test-support/postgres-server.js";
import { createBaseStoreMemoryBackend } from "../base-store-memory-backend.js";
import { describeMemoryBackend } from "../test-support/memory-backend-suite.js";

// The one shared backend suite on LangGraph's PostgresStore over a real PostgreSQL server started
// here (127.0.0.1, temporary data folder, stopped at the end).

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
