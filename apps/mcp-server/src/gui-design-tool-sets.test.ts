import {
  AGENTOOL_TOOL_NAMES,
  checkConformance,
  findAbsentToolNames,
} from "@agentool/contract/testing";
import { sizedTestDisplay } from "@agentool/tools-gui/testing";
import type { InteractionHandler } from "@agentool/tools-interact";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentoolMcpServer } from "./create-agentool-mcp-server.js";
import { temporaryDirectory } from "./test-support/spawn-server.js";
import { buildToolSet, disposeDesignTransport, type ToolSetConfiguration } from "./tool-sets.js";

const handler: InteractionHandler = { ask: () => "yes", notify: () => {} };
let project: ReturnType<typeof temporaryDirectory>;

beforeAll(() => {
  project = temporaryDirectory({ "card.svg": '<svg xmlns="http://www.w3.org/2000/svg"/>' });
});
afterAll(() => project?.cleanup());

const base = (overrides: Partial<ToolSetConfiguration>): ToolSetConfiguration => ({
  families: [],
  mode: "read-only",
  allowCommands: [],
  searxng: undefined,
  allowHosts: [],
  ...overrides,
});

/**
 * A display of a size, for planning and building only: the X11 display itself is exercised on a
 * real Xvfb in gui.int.test.ts and in tools-gui; here nothing is run on it.
 */
const plannedDisplay = sizedTestDisplay({ width: 1920, height: 1080 });

describe("buildToolSet: the design family", () => {
  const DESIGN_READ = ["svg_read", "design_read", "design_tokens"];

  it("without a token: svg_read only, with a note naming the environment variables", async () => {
    const set = buildToolSet(base({ families: ["design"] }), {
      root: project.path,
      elicitation: false,
      handler,
    });
    expect(set.tools.map((tool) => tool.name)).toEqual(["svg_read"]);
    expect(set.notes).toEqual([
      "design_read, design_tokens and design_export left out: no Figma token (set FIGMA_API_KEY or FIGMA_ACCESS_TOKEN in the server's environment); svg_read reads SVG exports offline.",
    ]);
    expect((await checkConformance(set.tools)).violations).toEqual([]);
  });

  it("with the host's token: read-only serves the readers, read-write adds design_export; no root leaves the file tools out", async () => {
    const readOnly = base({ families: ["design"], figmaToken: "figd_host" });
    const set = buildToolSet(readOnly, { root: project.path, elicitation: false, handler });
    expect(set.families.get("design")).toEqual(DESIGN_READ);
    expect(set.tools.map((tool) => tool.name)).toEqual(DESIGN_READ);
    for (const tool of set.tools) expect(tool.annotations?.readOnly, tool.name).toBe(true);
    expect(set.notes).toEqual([
      "design_export left out: it saves images under the root, which only read-write mode allows.",
    ]);
    const mounted = new Set(set.tools.map((tool) => tool.name));
    for (const tool of set.tools) {
      expect(
        findAbsentToolNames(tool.description, mounted, AGENTOOL_TOOL_NAMES),
        tool.name,
      ).toEqual([]);
    }
    const readWrite = base({ families: ["design"], figmaToken: "figd_host", mode: "read-write" });
    const written = buildToolSet(readWrite, { root: project.path, elicitation: false, handler });
    expect(written.tools.map((tool) => tool.name)).toEqual([...DESIGN_READ, "design_export"]);
    const rootless = buildToolSet(readWrite, { root: undefined, elicitation: false, handler });
    expect(rootless.tools.map((tool) => tool.name)).toEqual(["design_read", "design_tokens"]);
    expect(rootless.notes).toEqual([
      "svg_read and design_export left out: no root (pass --root <dir>, or use a client that sends MCP roots); they read and save files under the root.",
    ]);
    await Promise.all([readOnly, readWrite].map(disposeDesignTransport));
  });
});

describe("buildToolSet: the gui family", () => {
  it("read-write: computer on the given display, destructive, its description at the screenshot size", () => {
    const configuration = base({
      families: ["gui"],
      mode: "read-write",
      guiDisplay: plannedDisplay,
    });
    const set = buildToolSet(configuration, { root: undefined, elicitation: false, handler });
    expect(set.families.get("gui")).toEqual(["computer"]);
    const [computer] = set.tools;
    expect(computer?.name).toBe("computer");
    expect(computer?.annotations?.destructive).toBe(true);
    expect(computer?.description).toContain("Screenshots are 1280×720 (the screen scaled by");
    expect(set.notes).toEqual([]);
  });

  it("is left out with a note in read-only mode; the library refuses gui without read-write or a display", () => {
    const set = buildToolSet(base({ families: ["core", "gui"], guiDisplay: plannedDisplay }), {
      root: undefined,
      elicitation: false,
      handler,
    });
    expect(set.tools.map((tool) => tool.name)).toEqual(["think", "update_plan"]);
    expect(set.notes).toEqual([
      "computer left out: it drives a desktop with the mouse and keyboard (anything its user can do), which only read-write mode allows; use --mode read-write.",
    ]);
    expect(() =>
      createAgentoolMcpServer({ families: ["gui"], guiDisplay: plannedDisplay }),
    ).toThrow(/the gui family drives a desktop .* it needs mode: "read-write"/);
    expect(() => createAgentoolMcpServer({ families: ["gui"], mode: "read-write" })).toThrow(
      /the gui family drives a display: pass guiDisplay/,
    );
    expect(() => createAgentoolMcpServer({ guiDisplay: plannedDisplay })).toThrow(
      /guiDisplay configures the gui family/,
    );
    expect(() => createAgentoolMcpServer({ figmaToken: "figd_host" })).toThrow(
      /figmaToken configures the design family/,
    );
  });
});
