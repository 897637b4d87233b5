import { describe, expect, it } from "vitest";
import { ARTIFACT_ORIGIN, FileInliner } from "./inline-files.js";

const encoder = new TextEncoder();
const decodeDataUrl = (url: string) => {
  const [, body] = url.split(";base64,");
  return Buffer.from(body ?? "", "base64").toString("utf8");
};

function reader(files: Record<string, string>) {
  const asked: string[] = [];
  const read = async (path: string) => {
    asked.push(path);
    const text = files[path];
    if (text === undefined)
      throw Object.assign(new Error(`${path} does not exist in the workspace.`), {
        code: "FILE_NOT_FOUND",
      });
    return encoder.encode(text);
  };
  return { read, asked };
}

describe("FileInliner", () => {
  it("inlines scripts, stylesheets (with their url()s) and images in place, keeping every line", async () => {
    const html = [
      "<!doctype html>",
      '<link rel="stylesheet" href="css/site.css">',
      "<script src='lib.js'></script>",
      "<img src=logo.svg alt=x>",
      '<a href="other.html">a link is not a file the page loads</a>',
      '<img src="https://example.com/x.png"><img src="data:image/png;base64,AA==">',
      "<style>body { background: url(bg.svg) }</style>",
      "<div style=\"background: url('bg.svg')\"></div>",
    ].join("\n");
    const { read, asked } = reader({
      "app/css/site.css": "@import 'more.css';\nh1 { background: url(../logo.svg); }",
      "app/css/more.css": "p { color: red }",
      "app/lib.js": "window.lib = 1;",
      "app/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
      "app/bg.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    });
    const result = await new FileInliner(read).inline(html, "app/index.html");
    const lines = result.html.split("\n");
    expect(lines).toHaveLength(8);
    expect(result.problems).toEqual([]);
    expect(result.importMap).toBe("");
    const stylesheet = /href="([^"]+)"/.exec(lines[1] ?? "")?.[1] ?? "";
    expect(stylesheet.startsWith("data:text/css")).toBe(true);
    const css = decodeDataUrl(stylesheet);
    expect(css).toMatch(/^@import 'data:text\/css[^']+';/);
    expect(css).toContain('url("data:image/svg+xml;base64,');
    expect(decodeDataUrl(/src="([^"]+)"/.exec(lines[2] ?? "")?.[1] ?? "")).toBe(
      `window.lib = 1;\n//# sourceURL=${ARTIFACT_ORIGIN}/app/lib.js`,
    );
    expect(lines[3]).toMatch(/^<img src="data:image\/svg\+xml;base64,[^"]+" alt=x>$/);
    expect(lines[4]).toBe('<a href="other.html">a link is not a file the page loads</a>');
    expect(lines[5]).toBe(
      '<img src="https://example.com/x.png"><img src="data:image/png;base64,AA==">',
    );
    expect(lines[6]).toContain('url("data:image/svg+xml;base64,');
    expect(lines[7]).toContain("url(&quot;data:image/svg+xml;base64,");
    // Each file read once, however often it is named.
    expect(asked.filter((path) => path === "app/logo.svg")).toHaveLength(1);
    expect(asked.filter((path) => path === "app/bg.svg")).toHaveLength(1);
  });

  it("maps a module graph through an import map: relative specifiers made absolute, every module read once", async () => {
    const { read, asked } = reader({
      "app/main.js": "import { a } from './a.js';\nimport('./b.js');\nexport const main = a;",
      "app/a.js": "import { b } from './b.js';\nimport x from 'bare-package';\nexport const a = b;",
      "app/b.js": "import { a } from './a.js';\nexport const b = 2;",
      "app/inline-dep.js": "export const d = 1;",
    });
    const html =
      '<script type="module" src="main.js"></script>\n<script type="module">\nimport { d } from "./inline-dep.js";\n</script>';
    const result = await new FileInliner(read).inline(html, "app/index.html");
    expect(result.problems).toEqual([]);
    expect(result.html.split("\n")).toHaveLength(4);
    expect(result.html.split("\n")[2]).toBe(
      `import { d } from "${ARTIFACT_ORIGIN}/app/inline-dep.js";`,
    );
    const map = JSON.parse(
      /<script type="importmap">(.*)<\/script>/.exec(result.importMap)?.[1] ?? "{}",
    ).imports as Record<string, string>;
    expect(Object.keys(map).sort()).toEqual(
      ["a.js", "b.js", "inline-dep.js", "main.js"].map((file) => `${ARTIFACT_ORIGIN}/app/${file}`),
    );
    const main = decodeDataUrl(map[`${ARTIFACT_ORIGIN}/app/main.js`] ?? "");
    expect(main).toContain(`import { a } from '${ARTIFACT_ORIGIN}/app/a.js';`);
    expect(main).toContain(`import("${ARTIFACT_ORIGIN}/app/b.js");`);
    // A bare specifier stays as written (the browser reports it).
    expect(decodeDataUrl(map[`${ARTIFACT_ORIGIN}/app/a.js`] ?? "")).toContain(
      "from 'bare-package'",
    );
    expect(result.html).toContain(`src="${map[`${ARTIFACT_ORIGIN}/app/main.js`]}"`);
    expect(asked.filter((path) => path === "app/a.js")).toHaveLength(1);
  });

  it("reports what it could not read and leaves that reference as written", async () => {
    const { read } = reader({});
    const result = await new FileInliner(read).inline(
      '<script src="gone.js"></script>',
      "index.html",
    );
    expect(result.html).toBe('<script src="gone.js"></script>');
    expect(result.problems).toEqual([
      "preview could not serve gone.js: gone.js does not exist in the workspace.",
    ]);
  });
});
