import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { prepareArtifactDocument } from "./artifact-document.js";
import { DRIVER_SOURCE } from "./driver-source.generated.js";

const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("the embedded page driver", () => {
  it("is fresh: driver-source.generated.ts is what scripts/embed-driver.mjs makes of page-driver.ts", () => {
    const check = spawnSync(process.execPath, ["scripts/embed-driver.mjs", "--check"], {
      cwd: PACKAGE_ROOT,
      encoding: "utf8",
    });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it("is one self-contained strict script with one __CONFIG__ and no helper", () => {
    expect(DRIVER_SOURCE.startsWith('(function () {\n  "use strict";')).toBe(true);
    expect(DRIVER_SOURCE.endsWith("  installPreviewDriver(__CONFIG__);\n})();")).toBe(true);
    expect(DRIVER_SOURCE.split("__CONFIG__")).toHaveLength(2);
    expect(DRIVER_SOURCE).not.toMatch(/^\s*(import|export)\b/m);
    expect(DRIVER_SOURCE).not.toMatch(/\b__[a-z]\w*\(/);
    // Parsed, not run: a syntax error would throw here.
    expect(() => new Function(DRIVER_SOURCE.replace("__CONFIG__", "{}"))).not.toThrow();
  });

  it("goes into the document after the doctype as one data: URL script with its config and the CSP", () => {
    const html = "<!doctype html><title>t</title><p>x</p>";
    const prepared = prepareArtifactDocument(html, {
      channel: "c1",
      maxEntries: 200,
      maxEntryCharacters: 500,
    });
    expect(prepared.startsWith('<!doctype html><meta http-equiv="Content-Security-Policy"')).toBe(
      true,
    );
    const source = /<script src="data:text\/javascript;charset=utf-8,([^"]*)"><\/script>/.exec(
      prepared,
    )?.[1];
    expect(source).toBeDefined();
    // URL-encoded: no quote, angle bracket or line break can leave the attribute.
    expect(source).not.toMatch(/["<>\n]/);
    expect(decodeURIComponent(source as string)).toContain(
      'installPreviewDriver({"channel":"c1","maxEntries":200,"maxEntryCharacters":500,',
    );
    expect(prepared.endsWith("</script><title>t</title><p>x</p>")).toBe(true);
  });

  it("keeps the artifact's line numbers, and marks classic scripts crossorigin when files are served", () => {
    const html =
      '<!doctype html>\n<html>\n<script src="a.js"></script>\n<script>\n  boom();\n</script>\n<script crossorigin="use-credentials" src="b.js"></script>\n<script type="module" src="c.js"></script>';
    const alone = prepareArtifactDocument(html, {
      channel: "",
      maxEntries: 200,
      maxEntryCharacters: 500,
    });
    const served = prepareArtifactDocument(html, {
      channel: "",
      maxEntries: 200,
      maxEntryCharacters: 500,
      path: "app/index.html",
      assetBase: "http://artifact.preview.invalid/",
    });
    for (const prepared of [alone, served]) {
      expect(prepared.split("\n")).toHaveLength(html.split("\n").length);
      expect(prepared.split("\n")[4]).toBe("  boom();");
    }
    expect(alone).toContain('<script src="a.js">');
    expect(served).toContain('<script crossorigin src="a.js">');
    expect(served).toContain('<script crossorigin="use-credentials" src="b.js">');
    expect(served).toContain('<script crossorigin type="module" src="c.js">');
    expect(decodeURIComponent(served)).toContain(
      '"path":"app/index.html","assetBase":"http://artifact.preview.invalid/"',
    );
    // The driver knows where it was inserted and how long the insertion is, to give columns of
    // the artifact's own first line back.
    for (const prepared of [alone, served]) {
      const config = decodeURIComponent(prepared);
      const inserted = JSON.parse(/"inserted":(\{[^}]*\})/.exec(config)?.[1] ?? "{}");
      expect(inserted).toMatchObject({ line: 1, column: "<!doctype html>".length });
      const insertion = prepared.slice(15, 15 + Number(inserted.length));
      expect(insertion).toMatch(/^<meta http-equiv="Content-Security-Policy"[\s\S]*<\/script>$/);
      expect(prepared.slice(15 + Number(inserted.length), 15 + Number(inserted.length) + 8)).toBe(
        "\n<html>\n",
      );
    }
  });
});
