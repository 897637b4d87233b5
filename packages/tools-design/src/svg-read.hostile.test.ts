import { afterAll, describe, expect, it } from "vitest";
import { createSvgReadTool } from "./svg-read.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

const laughs = [
  '<?xml version="1.0"?>',
  '<!DOCTYPE svg [<!ENTITY lol "lol">',
  ...Array.from({ length: 9 }, (_, level) => {
    const previous = level === 0 ? "lol" : `lol${level}`;
    return `<!ENTITY lol${level + 1} "${`&${previous};`.repeat(10)}">`;
  }),
  "]>",
  '<svg xmlns="http://www.w3.org/2000/svg"><text>&lol9;</text></svg>',
].join("\n");

const folder = workspaceFolder({
  "laughs.svg": laughs,
  "external.svg": `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY secret SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&secret;</text></svg>`,
  "public-dtd.svg": `<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>`,
  "undeclared.svg": `<svg xmlns="http://www.w3.org/2000/svg"><text>a&nbsp;b</text></svg>`,
  "million.svg": `<svg xmlns="http://www.w3.org/2000/svg">${"<g/>".repeat(1_000_000)}</svg>`,
  // Under every cap (190,000 elements, ~15 MB) and slow to parse: ~3 s on a loaded 2-core
  // machine, so a parser that stopped yielding would hold the event loop for seconds.
  "heavy.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">${Array.from(
    { length: 190_000 },
    (_, index) =>
      `<rect x="${index % 100}" y="${index % 50}" width="10" height="10" data-note="slow to parse"/>`,
  ).join("\n")}</svg>`,
  "deep.svg": `<svg xmlns="http://www.w3.org/2000/svg">${"<g>".repeat(20_000)}${"</g>".repeat(20_000)}</svg>`,
  "not-svg.svg": "<html><body/></html>",
  "broken.svg": "<svg><g></svg>",
});
afterAll(() => folder.remove());
const svgRead = createSvgReadTool({ root: folder.root });

async function failure(path: string) {
  const result = await svgRead.run({ path });
  if (result.success) throw new Error(`${path} was read`);
  return result.error;
}

describe("svg_read on hostile files", () => {
  it("refuses a billion-laughs document without expanding anything", async () => {
    const started = performance.now();
    const error = await failure("laughs.svg");
    expect(error.code).toBe("BLOCKED");
    expect(error.message).toContain("<!ENTITY");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("refuses an external entity and never reads the file it names", async () => {
    const result = await svgRead.run({ path: "external.svg" });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.code).toBe("BLOCKED");
    expect(JSON.stringify(result)).not.toContain("root:");
  });

  it("reads a file with the standard public DOCTYPE (nothing fetched)", async () => {
    const result = await svgRead.run({ path: "public-dtd.svg" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.layers).toMatchObject([{ role: "rect", width: 4, height: 4 }]);
  });

  it("answers an undeclared entity, a non-SVG root and broken XML with INVALID_INPUT", async () => {
    for (const path of ["undeclared.svg", "not-svg.svg", "broken.svg"]) {
      expect((await failure(path)).code).toBe("INVALID_INPUT");
    }
  });

  it("stops a million elements at the element cap", async () => {
    const error = await failure("million.svg");
    expect(error.code).toBe("TOO_LARGE");
    expect(error.message).toContain("200000 elements");
  });

  it("reads a large file under the caps without holding the event loop past 250 ms", async () => {
    let worstLag = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstLag = Math.max(worstLag, now - last - 5);
      last = now;
    }, 5);
    const started = performance.now();
    try {
      const result = await svgRead.run({ path: "heavy.svg", limit: 1 });
      if (!result.success) throw new Error(result.error.message);
      expect(result.data.total).toBe(190_000);
    } finally {
      // The stretch since the last tick counts too: a read that never yields ends before the
      // timer can fire again, and clearing it right away would hide the whole block.
      worstLag = Math.max(worstLag, performance.now() - last - 5);
      clearInterval(timer);
    }
    const elapsed = performance.now() - started;
    // The file must be slow enough that an unyielding parse would break the bound below.
    expect(elapsed, `the read took ${Math.round(elapsed)} ms`).toBeGreaterThan(500);
    expect(worstLag, `worst event-loop lag ${Math.round(worstLag)} ms`).toBeLessThan(250);
  }, 60_000);

  it("stops deep nesting at the depth cap", async () => {
    const error = await failure("deep.svg");
    expect(error.code).toBe("TOO_LARGE");
    expect(error.message).toContain("256 deep");
  });
});
