// What web_fetch's description says it can reach must be true for the configuration: only public
// URLs by default, the allowed hosts named when allowHosts is set, private networks when
// allowPrivate is — on the root entry (no transport) and on Node (the guarded transport).
import { describe, expect, it } from "vitest";
import { createNodeWebFetchTool } from "./node/create-node-web-tools.js";
import { createWebFetchTool } from "./web-fetch.js";

const quiet = { onWarn: () => {} };

describe("web_fetch's description of what it reaches", () => {
  it("says only public URLs work when nothing else is allowed", () => {
    expect(createWebFetchTool(quiet).description).toContain("Only public http(s) URLs work.");
    expect(createNodeWebFetchTool().description).toContain("Only public http(s) URLs work.");
  });

  it("names the allowed hosts when allowHosts is set, on the root entry and on Node", () => {
    const allowHosts = ["127.0.0.1:8080", "*.corp.example"];
    for (const tool of [
      createWebFetchTool({ ...quiet, allowHosts }),
      createNodeWebFetchTool({ allowHosts }),
    ]) {
      expect(tool.description).not.toContain("Only public");
      expect(tool.description).toContain(
        "Public http(s) URLs work, and these hosts too: 127.0.0.1:8080 and *.corp.example.",
      );
    }
  });

  it("names at most eight hosts and counts the rest", () => {
    const allowHosts = Array.from({ length: 11 }, (_, index) => `host${index + 1}.example`);
    const description = createNodeWebFetchTool({ allowHosts }).description;
    expect(description).toContain("host8.example and 3 more.");
    expect(description).not.toContain("host9.example");
  });

  it("says private-network addresses work with allowPrivate", () => {
    for (const tool of [
      createWebFetchTool({ ...quiet, allowPrivate: true }),
      createNodeWebFetchTool({ allowPrivate: true, allowHosts: ["intranet.example"] }),
    ]) {
      expect(tool.description).not.toContain("Only public");
      expect(tool.description).toMatch(
        /Public and private-network \(localhost, LAN\) http\(s\) URLs work(\.|, and these hosts too: intranet\.example\.)/,
      );
    }
  });
});
