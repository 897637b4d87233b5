import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDesignReadTool, formatDesignRead } from "./design-read.js";
import { type FigmaServer, startFigmaServer } from "./test-support/figma-server.js";
import { CHECKOUT_FRAME_ID, SHOP_FILE_KEY, shopNodes } from "./test-support/figma-shop-file.js";

let figma: FigmaServer;
let designRead: ReturnType<typeof createDesignReadTool>;
beforeAll(async () => {
  figma = await startFigmaServer();
  designRead = createDesignReadTool({
    figmaToken: "figd_test-token",
    baseUrl: figma.origin,
    transport: figma.transport,
  });
});
afterAll(() => figma.close());

async function read(input: Record<string, unknown>) {
  const result = await designRead.run(input);
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

describe("design_read against a local Figma API", () => {
  it("lists pages and top-level frames without node_id, sending the token as X-Figma-Token", async () => {
    const data = await read({ file_key: SHOP_FILE_KEY });
    expect(data.layers.map((layer) => [layer.depth, layer.role, layer.name])).toEqual([
      [0, "page", "Checkout"],
      [1, "frame", "Checkout / Desktop"],
      [0, "page", "Components"],
      [1, "component_set", "Button"],
    ]);
    const request = figma.requests.at(-1);
    expect(request?.path).toBe(`/v1/files/${SHOP_FILE_KEY}?depth=2`);
    expect(request?.headers["x-figma-token"]).toBe("figd_test-token");
  });

  it("reads a frame from a Figma URL: auto-layout, sizes, styles by name, variants", async () => {
    const data = await read({
      url: `https://www.figma.com/design/${SHOP_FILE_KEY}/Shop?node-id=1-2&t=abc`,
    });
    expect(data.node_id).toBe(CHECKOUT_FRAME_ID);
    const byName = (name: string) => data.layers.find((layer) => layer.name === name);
    expect(byName("Checkout / Desktop")).toMatchObject({
      depth: 0,
      x: 0,
      y: 0,
      width: 1440,
      height: 1024,
      layout: { direction: "column", gap: 32, padding: [48, 120, 48, 120] },
    });
    expect(byName("Header")?.layout).toEqual({
      direction: "row",
      justify: "space-between",
      align: "center",
    });
    expect(byName("Body")?.layout).toEqual({ direction: "row", gap: 32, wrap: true, wrap_gap: 24 });
    // Every child fills the cross axis (Header and Body, the product rows): CSS align-items: stretch.
    expect(byName("Checkout / Desktop")?.layout?.align).toBe("stretch");
    expect(byName("Product list")?.layout).toEqual({
      direction: "column",
      gap: 8,
      align: "stretch",
    });
    const card = byName("Summary card");
    expect(card).toMatchObject({
      x: 872,
      y: 128,
      width: 448,
      height: 320,
      radius: 12,
      fills: ["Surface/Default"],
      effects: ["Elevation/1"],
    });
    expect(data.tokens.colors).toContainEqual({ name: "Surface/Default", value: "#ffffff" });
    expect(data.tokens.effects).toEqual([
      { name: "Elevation/1", value: "0px 4px 12px 0px #0000001a, 0px 1px 2px 0px #0000000f" },
    ]);
    const title = byName("Title");
    expect(title).toMatchObject({ text: "Checkout", text_style: "Heading/H1" });
    expect(data.tokens.text_styles.find((style) => style.name === "Heading/H1")).toEqual({
      name: "Heading/H1",
      font_family: "Inter",
      font_size: 32,
      font_weight: 600,
      font_style: "Semi Bold",
      line_height: 40,
      letter_spacing: -0.64,
      color: "Text/Primary",
    });
    const buttons = data.layers.filter((layer) => layer.role === "instance");
    const asObject = (properties: Array<{ name: string; value: string | boolean }> = []) =>
      Object.fromEntries(properties.map(({ name, value }) => [name, value]));
    expect(buttons.map((layer) => [layer.component, asObject(layer.properties)])).toEqual([
      ["Button", { State: "Default", Size: "Large", Label: "Pay now", "Show icon": false }],
      ["Button", { State: "Hover", Size: "Large", Label: "Pay later", "Show icon": false }],
    ]);
    expect(buttons[0]?.sizing).toEqual({ horizontal: "hug", vertical: "hug" });
    expect(data.layers.some((layer) => layer.name === "Promo (hidden)")).toBe(false);
    expect(data.notes).toContain("1 hidden layer left out with their contents");
    expect(data.layers.filter((layer) => layer.name === "Thumbnail")[0]?.fills?.[0]).toMatch(
      /^c\d+$/,
    );
    const text = formatDesignRead(data);
    expect(text).toContain(
      'frame "Summary card" #1:8 @872,128 448×320 size=fixed/hug column gap=16 pad=24,24,24,24 fill=Surface/Default',
    );
    expect(text).toContain('text "Title" #1:4 @120,52 200×40 style=Heading/H1 : "Checkout"');
  });

  it("pages the layers with the contract's marker and a depth limit counts what it leaves out", async () => {
    const first = await designRead.run({ file_key: SHOP_FILE_KEY, node_id: "1:2", limit: 10 });
    if (!first.success) throw new Error(first.error.message);
    expect(first.data).toMatchObject({ truncated: true, next_offset: 11 });
    expect(formatDesignRead(first.data)).toContain(
      `call design_read again with file_key="${SHOP_FILE_KEY}", node_id="1:2", limit=10, offset=11`,
    );
    const shallow = await read({ file_key: SHOP_FILE_KEY, node_id: "1:2", depth: 1 });
    expect(shallow.layers.map((layer) => layer.name)).toEqual([
      "Checkout / Desktop",
      "Header",
      "Body",
    ]);
    expect(shallow.notes.join(" ")).toMatch(/at least \d+ layers deeper than depth=1 left out/);
    // Figma is asked for one level more than listed, not the whole subtree.
    expect(figma.requests.at(-1)?.path).toBe(`/v1/files/${SHOP_FILE_KEY}/nodes?ids=1%3A2&depth=2`);
  });

  it("maps 404, 403 and 429 to the contract's codes with the next step", async () => {
    const missing = await designRead.run({ file_key: "AAAAAAAAAAAAAAAAAAAAAA" });
    expect(missing.success === false && missing.error.code).toBe("FILE_NOT_FOUND");
    const wrongToken = createDesignReadTool({
      figmaToken: "figd_other",
      baseUrl: figma.origin,
      transport: figma.transport,
    });
    const denied = await wrongToken.run({ file_key: SHOP_FILE_KEY });
    expect(denied.success === false && denied.error).toMatchObject({
      code: "PERMISSION_DENIED",
      retryable: false,
    });
    figma.override(
      "/v1/files/",
      429,
      { status: 429, err: "Rate limit exceeded" },
      { "retry-after": "17" },
    );
    const limited = await designRead.run({ file_key: SHOP_FILE_KEY });
    expect(limited.success === false && limited.error).toMatchObject({
      code: "NETWORK_ERROR",
      retryable: true,
    });
    expect(limited.success === false && limited.error.hint).toContain("Wait 17 seconds");
  });

  it("never sends the token to another origin after a redirect", async () => {
    const seen: Array<string | undefined> = [];
    const other = createServer((request, response) => {
      seen.push(request.headers["x-figma-token"] as string | undefined);
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    const redirecting = await startFigmaServer();
    redirecting.override(
      "/v1/files/",
      302,
      {},
      { location: `${otherOrigin}/v1/files/${SHOP_FILE_KEY}` },
    );
    const tool = createDesignReadTool({
      figmaToken: "figd_test-token",
      baseUrl: redirecting.origin,
      transport: redirecting.transport,
    });
    await tool.run({ file_key: SHOP_FILE_KEY });
    expect(redirecting.requests[0]?.headers["x-figma-token"]).toBe("figd_test-token");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeUndefined();
    await redirecting.close();
    other.closeAllConnections();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  });

  it("refuses an answer over 8 MB (parsing it would hold the event loop) naming depth and node_id", async () => {
    const large = await startFigmaServer();
    const { nodes } = shopNodes(["1:2"]);
    const entry = nodes["1:2"];
    if (entry === null || entry === undefined) throw new Error("fixture");
    // A page of 9 MB: the checkout frame with a long description, as a frame of many layers weighs.
    large.override("/v1/files/", 200, {
      ...shopNodes(["1:2"]),
      nodes: { "1:2": { ...entry, document: { ...entry.document, name: "x".repeat(9_000_000) } } },
    });
    const tool = createDesignReadTool({
      figmaToken: "figd_test-token",
      baseUrl: large.origin,
      transport: large.transport,
    });
    const result = await tool.run({ file_key: SHOP_FILE_KEY, node_id: "1:2" });
    await large.close();
    expect(result.success === false && result.error.code).toBe("TOO_LARGE");
    expect(result.success === false && result.error.hint).toMatch(/depth=1.*node_id/);
  });

  it("refuses a URL that is not Figma and a malformed node id", async () => {
    const notFigma = await designRead.run({
      url: "https://evil.example/design/AbCdEf1234567890/x",
    });
    expect(notFigma.success === false && notFigma.error.code).toBe("INVALID_INPUT");
    const badNode = await designRead.run({ file_key: SHOP_FILE_KEY, node_id: "../etc" });
    expect(badNode.success === false && badNode.error.code).toBe("INVALID_INPUT");
  });
});
