import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { assertConformance } from "@agentool/contract/testing";
import { createGuardedTransport } from "@agentool/tools-web/node";
import { afterAll, expect, it } from "vitest";
import { createBrowserTool } from "./create-browser-tool.js";

const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "text/html" });
  response.end("<!doctype html><title>Hello</title><h1>Hello</h1><button>Go</button>");
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = createBrowserTool({
  transport: createGuardedTransport({ allowHosts: [new URL(origin).host] }),
});
afterAll(async () => {
  await browser.dispose();
  await new Promise((resolve) => server.close(resolve));
});

it("the browser tool passes the conformance kit with a real navigation", async () => {
  const report = await assertConformance([browser], {
    samples: { browser: { op: "navigate", url: `${origin}/` } },
  });
  expect(report.checkedTools).toEqual(["browser"]);
});

it("validates its options: a transport is required, origins are origins, unknown keys refused", () => {
  expect(() => createBrowserTool({} as never)).toThrow(/transport/);
  const transport = createGuardedTransport();
  expect(() =>
    createBrowserTool({ transport, allowOrigins: ["https://example.com/path"] }),
  ).toThrow(/origin/);
  expect(() => createBrowserTool({ transport, bogus: 1 } as never)).toThrow(/bogus/);
});

it("names web_fetch in its description only when it is mounted beside it", () => {
  const transport = createGuardedTransport();
  expect(createBrowserTool({ transport }).description).not.toContain("web_fetch");
  expect(createBrowserTool({ transport, mountedTools: ["web_fetch"] }).description).toContain(
    "use web_fetch instead",
  );
});
