import { describe, expect, it } from "vitest";
import { createFetchTransport } from "./internal/http-transport.js";
import { createNodeWebFetchTool } from "./node/create-node-web-tools.js";
import { type Handler, respond, startServer } from "./test-support/http-server.js";
import type { WebFetchToolOptions } from "./web-fetch.js";

const ROBOTS = [
  "# robots for the test site",
  "User-agent: *",
  "Disallow: /private/",
  "Allow: /private/press/",
  "",
  "User-agent: agentool-tools-web",
  "Disallow: /no-agents",
  "Disallow: /*.pdf$",
].join("\n");

const page: Handler = respond("text/plain; charset=utf-8", "page text");
const pages = {
  "/public": page,
  "/private/page": page,
  "/private/press/note": page,
  "/no-agents": page,
};

const site = await startServer({ "/robots.txt": respond("text/plain", ROBOTS), ...pages });
const missing = await startServer({ "/robots.txt": respond("text/plain", "nope", 404), ...pages });
const failing = await startServer({ "/robots.txt": respond("text/plain", "down", 503), ...pages });
const resetting = await startServer({
  "/robots.txt": (_request, response) => {
    response.destroy();
  },
  ...pages,
});

const robotsRequests = (server: { requests: { url: string }[] }) =>
  server.requests.filter((request) => request.url === "/robots.txt").length;

const tool = (options: WebFetchToolOptions = {}) =>
  createNodeWebFetchTool({ allowHosts: ["127.0.0.1"], robots: "obey", cacheTtlMs: 0, ...options });

describe('web_fetch robots: "obey"', () => {
  it("refuses a disallowed URL with BLOCKED naming the rule line and the user-agent group", async () => {
    const other = tool({ userAgent: "OtherBot/1.0 (+https://example.com/bot)" });
    const refused = await other.run({ url: `${site.origin}/private/page` });
    expect(refused).toMatchObject({
      success: false,
      error: {
        code: "BLOCKED",
        message: `${site.origin}/private/page is disallowed by ${site.origin}/robots.txt: line 3 "Disallow: /private/" in the group of line 2 "User-agent: *".`,
        retryable: false,
      },
    });
    expect(!refused.success && refused.error.hint).toMatch(/obey robots\.txt.*another source/);
    // The longer Allow wins; a URL no rule names is read.
    expect((await other.run({ url: `${site.origin}/private/press/note` })).success).toBe(true);
    expect((await other.run({ url: `${site.origin}/public` })).success).toBe(true);
    const seen = site.requests.filter((request) => request.url === "/robots.txt");
    expect(seen.at(-1)?.headers["user-agent"]).toMatch(/^OtherBot/);
  });

  it("the group naming the User-Agent's product token replaces *", async () => {
    const ours = tool();
    expect((await ours.run({ url: `${site.origin}/private/page` })).success).toBe(true);
    const refused = await ours.run({ url: `${site.origin}/no-agents` });
    expect(!refused.success && refused.error.message).toContain(
      'line 7 "Disallow: /no-agents" in the group of line 6 "User-agent: agentool-tools-web"',
    );
    const pdf = await ours.run({ url: `${site.origin}/files/report.pdf` });
    expect(!pdf.success && pdf.error.message).toContain('line 8 "Disallow: /*.pdf$"');
  });

  it("reads robots.txt once per origin and keeps it across calls", async () => {
    const ours = tool();
    const before = robotsRequests(site);
    await ours.run({ url: `${site.origin}/public` });
    await ours.run({ url: `${site.origin}/no-agents` });
    await ours.run({ url: `${site.origin}/private/page` });
    expect(robotsRequests(site) - before).toBe(1);
  });

  it("a 404 robots.txt allows everything, and is kept", async () => {
    const ours = tool();
    const before = robotsRequests(missing);
    expect((await ours.run({ url: `${missing.origin}/private/page` })).success).toBe(true);
    expect((await ours.run({ url: `${missing.origin}/no-agents` })).success).toBe(true);
    expect(robotsRequests(missing) - before).toBe(1);
  });

  it("a 5xx robots.txt disallows the whole site (RFC 9309), retryable and asked again next call", async () => {
    const ours = tool();
    const before = robotsRequests(failing);
    const refused = await ours.run({ url: `${failing.origin}/public` });
    expect(refused).toMatchObject({
      success: false,
      error: { code: "BLOCKED", retryable: true, hint: "Try again later, or use another source." },
    });
    expect(!refused.success && refused.error.message).toContain("answered HTTP 503");
    expect(!refused.success && refused.error.message).toContain("RFC 9309");
    await ours.run({ url: `${failing.origin}/public` });
    expect(robotsRequests(failing) - before).toBe(2);
    // The page itself was never requested.
    expect(failing.requests.some((request) => request.url === "/public")).toBe(false);
  });

  it("an unreachable robots.txt allows the fetch (the page's own request reports failures)", async () => {
    const result = await tool().run({ url: `${resetting.origin}/private/page` });
    expect(result.success && result.data.content).toBe("page text");
  });

  it("goes through the tool's own transport and address policy", async () => {
    const requested: string[] = [];
    const inner = createFetchTransport();
    const counting = tool({
      transport: (request) => {
        requested.push(request.url);
        return inner(request);
      },
    });
    await counting.run({ url: `${site.origin}/public` });
    expect(requested).toEqual([`${site.origin}/robots.txt`, `${site.origin}/public`]);
    // A refused address is refused before any robots.txt is asked for.
    const guarded = createNodeWebFetchTool({ robots: "obey", cacheTtlMs: 0 });
    const before = robotsRequests(site);
    const blocked = await guarded.run({ url: `${site.origin}/public` });
    expect(!blocked.success && blocked.error.code).toBe("BLOCKED");
    expect(!blocked.success && blocked.error.message).toContain("loopback");
    expect(robotsRequests(site)).toBe(before);
  });

  it("is off by default: robots.txt is never asked for", async () => {
    const before = robotsRequests(site);
    const plain = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"], cacheTtlMs: 0 });
    expect((await plain.run({ url: `${site.origin}/no-agents` })).success).toBe(true);
    expect(robotsRequests(site)).toBe(before);
    expect(() => tool({ robots: "respect" as never })).toThrow(/robots/);
  });
});
