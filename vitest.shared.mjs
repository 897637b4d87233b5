// The one vitest configuration of every workspace package (each package's `test` script runs
// `vitest run --config ../../vitest.shared.mjs` from its own folder, which stays the root).
//
// Lanes: heavy tests are named `*.int.test.ts` (1 GiB files, PostgreSQL/pgvector, Chromium,
// several processes, real MCP clients). `pnpm test:unit` sets AGENTOOL_TEST_LANE=unit and skips
// them; `pnpm test` (the README's command and CI) runs everything.
//
// A plain object, not `defineConfig(...)`: this file sits at the repository root, where vitest
// itself is not installed (each package has its own).
//
// Tests use the built `dist/` where they need it (never recompile with tsc): the global setup
// refuses a missing or stale `dist/` with the command that fixes it.
import { fileURLToPath } from "node:url";

const unitLane = process.env.AGENTOOL_TEST_LANE === "unit";

/** @type {import("vitest/config").UserConfig} */
export default {
  test: {
    include: ["src/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**", ...(unitLane ? ["src/**/*.int.test.ts"] : [])],
    // Generous: the suite runs on 2 cores beside Chromium and PostgreSQL; a hang still fails.
    globalSetup: [fileURLToPath(new URL("./vitest.dist-check.mjs", import.meta.url))],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ["default", ["json", { outputFile: "test-results.json" }]],
  },
};
