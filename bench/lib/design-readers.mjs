// Both Figma readers of the design side-by-side, on the recorded-file server:
// - ours: @agentool/tools-design's design_read, run in this process through tools-web's guarded
//   transport (127.0.0.1 allowed), its result rendered as the model reads it (every page of a
//   cut result joined: a model reads them all);
// - theirs: Framelink's real MCP server (figma-developer-mcp, unchanged) spawned over stdio and
//   called through the MCP SDK client, its fetch redirected to the recorded server by
//   figma-api-redirect.mjs, telemetry off, in a chosen output format ("tree" is its default).
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createDesignReadTool, formatDesignRead } from "@agentool/tools-design";
import { createGuardedTransport } from "@agentool/tools-web/node";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { RECORDED_TOKEN } from "./figma-recorded-server.mjs";

const require = createRequire(import.meta.url);
const framelinkFolder = dirname(require.resolve("figma-developer-mcp/package.json"));

/** figma-developer-mcp's version, from its package.json. */
export const FRAMELINK_VERSION = require("figma-developer-mcp/package.json").version;

/**
 * design_read against the recorded server.
 *
 * @param origin - the recorded server's origin
 * @returns `{ read(fileKey, nodeId) → text, close() }`
 */
export function createOurReader(origin) {
  const transport = createGuardedTransport({ allowHosts: ["127.0.0.1"] });
  const tool = createDesignReadTool({ figmaToken: RECORDED_TOKEN, baseUrl: origin, transport });
  return {
    async read(fileKey, nodeId) {
      const pages = [];
      let offset = 1;
      for (;;) {
        const result = await tool.run({ file_key: fileKey, node_id: nodeId, offset });
        if (!result.success) throw new Error(`design_read ${nodeId}: ${result.error.message}`);
        pages.push(formatDesignRead(result.data));
        if (result.data.next_offset === undefined) return pages.join("\n");
        offset = result.data.next_offset;
      }
    },
    close: () => transport.close(),
  };
}

/** An MCP client of a server spawned over stdio; its stderr kept for errors. */
async function connectStdio(args, env) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    cwd: import.meta.dirname,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const client = new Client({ name: "agentool-bench", version: "0.0.0" });
  await client.connect(transport);
  return {
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const text = (result.content ?? []).map((block) => block.text ?? "").join("\n");
      if (result.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${text}\n${stderr}`);
      return text;
    },
    close: () => client.close(),
  };
}

/**
 * Framelink's MCP server over stdio against the recorded server.
 *
 * @param origin - the recorded server's origin
 * @param format - "tree" (their default), "yaml" or "json"
 * @returns `{ read(fileKey, nodeId) → text, close() }`
 */
export async function startTheirReader(origin, format = "tree") {
  const server = await connectStdio(
    [
      "--import",
      join(import.meta.dirname, "figma-api-redirect.mjs"),
      join(framelinkFolder, "dist", "bin.js"),
      "--stdio",
      `--format=${format}`,
      "--skip-image-downloads",
    ],
    {
      FIGMA_API_KEY: RECORDED_TOKEN,
      FIGMA_RECORDED_ORIGIN: origin,
      FRAMELINK_TELEMETRY: "off",
      DO_NOT_TRACK: "1",
    },
  );
  return {
    read: (fileKey, nodeId) => server.call("get_figma_data", { fileKey, nodeId }),
    close: () => server.close(),
  };
}

/**
 * design_read served over MCP stdio (design-read-stdio.mjs), for timing beside theirs.
 *
 * @param origin - the recorded server's origin
 * @returns `{ read(fileKey, nodeId) → text, close() }`
 */
export async function startOurStdioReader(origin) {
  const server = await connectStdio(
    [join(import.meta.dirname, "design-read-stdio.mjs"), origin],
    {},
  );
  return {
    read: (fileKey, nodeId) => server.call("design_read", { file_key: fileKey, node_id: nodeId }),
    close: () => server.close(),
  };
}
