import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLI_PATH,
  PACKAGE_DIRECTORY,
  requireBuiltCli,
  temporaryDirectory,
} from "./test-support/spawn-server.js";

/** A loader hook that appends every module URL the process resolves to a log file. */
const HOOKS = `import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + "\\n");
  return result;
}
`;

const BIN_DIRECTORY = join(PACKAGE_DIRECTORY, "dist", "bin");
/** rolldown heads each bundled module with its path: this one marks the browser family's code. */
const BROWSER_MODULE = "// ../../packages/tools-preview/dist/browser/create-browser-tool.js";
/** The same for the code family's code. */
const CODE_MODULE = "// ../../packages/tools-code/dist/create-code-tools.js";
/** What the code family loads from node_modules at run time: tree-sitter's runtime and grammars, ast-grep. */
const CODE_OUTSIDE = /\/(web-tree-sitter|@vscode\/tree-sitter-wasm|@ast-grep\/napi[^/]*)\//;
/** The same for the office family's code. */
const OFFICE_MODULE = "// ../../packages/tools-office/dist/create-office-tools.js";
/** What the office family loads from node_modules at run time: sharp, its platform binary, PDFium's wasm build. */
const OFFICE_OUTSIDE = /\/(sharp|@img\/[^/]+|@embedpdf\/pdfium)\//;
/** The same for the design family's code. */
const DESIGN_MODULE = "// ../../packages/tools-design/dist/svg-read.js";
/** The same for the gui family's tool, and for its X11 displays (loaded by the bin before serving). */
const GUI_MODULES = [
  "// ../../packages/tools-gui/dist/computer.js",
  "// ../../packages/tools-gui/dist/node/xvfb-display.js",
];
const binURL = pathToFileURL(`${BIN_DIRECTORY}/`).href;

let folder: ReturnType<typeof temporaryDirectory>;
let log: string;

beforeAll(() => {
  requireBuiltCli();
  folder = temporaryDirectory({ "notes.md": "# Notes\n\nThe staging password rotates monthly.\n" });
  log = join(folder.path, "resolved.log");
  writeFileSync(join(folder.path, "hooks.mjs"), HOOKS);
  writeFileSync(
    join(folder.path, "register.mjs"),
    `import { register } from "node:module";\nregister(new URL("./hooks.mjs", import.meta.url), { data: { log: ${JSON.stringify(log)} } });\n`,
  );
});

afterAll(() => folder?.cleanup());

/** A one-page PDF showing `text` in Helvetica (offsets computed, so pdf.js reads it without repair). */
function onePagePdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** The module URLs resolved so far (the process's own loads; the hook file excluded). */
function resolvedSoFar(): string[] {
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((url) => url.length > 0 && !url.startsWith("node:") && !url.includes("hooks.mjs"));
}

describe("the published bin is one bundle with a chunk per family", () => {
  it("package.json's bin is the bundle the tests spawn", () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_DIRECTORY, "package.json"), "utf8"));
    expect(join(PACKAGE_DIRECTORY, manifest.bin["agentool-mcp"])).toBe(CLI_PATH);
    expect(readFileSync(CLI_PATH, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  it("answers a first call from bundled files only, and loads the other families' chunks when listed", async () => {
    writeFileSync(log, "");
    const client = new Client({ name: "bundle-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", join(folder.path, "register.mjs"), CLI_PATH, "--root", folder.path],
        cwd: folder.path,
        stderr: "ignore",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: folder.path },
      }),
    );
    try {
      const thought = await client.callTool({ name: "think", arguments: { thought: "first" } });
      expect(thought.isError).not.toBe(true);
      const atFirstAnswer = resolvedSoFar();
      expect(atFirstAnswer).toContain(pathToFileURL(CLI_PATH).href);
      // Nothing from node_modules: zod, the SDK and the families are inside the bundle.
      expect(atFirstAnswer.filter((url) => !url.startsWith(binURL))).toEqual([]);

      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["think", "read_file", "search_knowledge"]));
      const found = await client.callTool({
        name: "search_knowledge",
        arguments: { query: "staging password rotates" },
      });
      expect(found.isError).not.toBe(true);
      expect(JSON.stringify(found.content)).toContain("notes.md");
      const afterListing = resolvedSoFar();
      const chunks = (urls: string[]) => new Set(urls.filter((url) => url.startsWith(binURL)));
      // The families not called before the listing were not loaded before it.
      expect(chunks(afterListing).size).toBeGreaterThan(chunks(atFirstAnswer).size);
      // Outside the bundle only rg's binary package (a file on disk beside its module).
      const outside = afterListing.filter((url) => !url.startsWith(binURL));
      for (const url of outside) expect(url).toMatch(/\/@vscode\/ripgrep\//);
      // The opt-in browser, code, office, design and gui families are not served by default:
      // their chunks never load.
      for (const url of chunks(afterListing)) {
        const chunk = readFileSync(fileURLToPath(url), "utf8");
        expect(chunk, url).not.toContain(BROWSER_MODULE);
        expect(chunk, url).not.toContain(CODE_MODULE);
        expect(chunk, url).not.toContain(OFFICE_MODULE);
        expect(chunk, url).not.toContain(DESIGN_MODULE);
        for (const marker of GUI_MODULES) expect(chunk, url).not.toContain(marker);
      }
    } finally {
      await client.close();
    }
  });

  it("loads the browser family's chunk at its first call, with playwright-core from node_modules", async () => {
    const page = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end("<!doctype html><title>Chunk</title><h1>Loaded lazily</h1>");
    });
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    const host = `127.0.0.1:${(page.address() as AddressInfo).port}`;
    writeFileSync(log, "");
    const client = new Client({ name: "bundle-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          "--import",
          join(folder.path, "register.mjs"),
          CLI_PATH,
          "--families",
          "browser",
          "--mode",
          "read-write",
          "--allow-host",
          host,
        ],
        cwd: folder.path,
        stderr: "ignore",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: folder.path },
      }),
    );
    try {
      const browserChunks = () =>
        resolvedSoFar().filter(
          (url) =>
            url.startsWith(binURL) &&
            readFileSync(fileURLToPath(url), "utf8").includes(BROWSER_MODULE),
        );
      expect(browserChunks()).toEqual([]);
      const navigated = await client.callTool({
        name: "browser",
        arguments: { op: "navigate", url: `http://${host}/` },
      });
      expect(navigated.isError).not.toBe(true);
      expect(JSON.stringify(navigated.content)).toContain("Loaded lazily");
      expect(browserChunks()).toHaveLength(1);
      // playwright-core stays outside the bundle (an optional peer), and nothing else does.
      const outside = resolvedSoFar().filter((url) => !url.startsWith(binURL));
      expect(outside.some((url) => /\/playwright-core\//.test(url))).toBe(true);
      for (const url of outside) expect(url).toMatch(/\/playwright-core\//);
    } finally {
      await client.close();
      await new Promise<void>((resolve) => page.close(() => resolve()));
    }
  }, 60_000);

  it("loads the code family's chunk at its first call; tree-sitter and ast-grep stay outside the bundle", async () => {
    writeFileSync(log, "");
    writeFileSync(
      join(folder.path, "count.ts"),
      "export function count(items: string[]): number {\n  return items.length;\n}\n",
    );
    const client = new Client({ name: "bundle-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          "--import",
          join(folder.path, "register.mjs"),
          CLI_PATH,
          "--root",
          folder.path,
          "--families",
          "core,code",
        ],
        cwd: folder.path,
        stderr: "ignore",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: folder.path },
      }),
    );
    try {
      const codeChunks = () =>
        resolvedSoFar().filter(
          (url) =>
            url.startsWith(binURL) &&
            readFileSync(fileURLToPath(url), "utf8").includes(CODE_MODULE),
        );
      const thought = await client.callTool({ name: "think", arguments: { thought: "first" } });
      expect(thought.isError).not.toBe(true);
      expect(codeChunks()).toEqual([]);
      const found = await client.callTool({ name: "find_symbol", arguments: { name: "count" } });
      expect(found.isError).not.toBe(true);
      expect(JSON.stringify(found.content)).toContain("count.ts:1-3");
      const matched = await client.callTool({
        name: "ast_search",
        arguments: { pattern: "$X.length", language: "typescript" },
      });
      expect(matched.isError).not.toBe(true);
      expect(JSON.stringify(matched.content)).toContain("items.length");
      expect(codeChunks()).toHaveLength(1);
      // web-tree-sitter (with its own .wasm beside it) from node_modules, not from the bundle.
      const outside = resolvedSoFar().filter((url) => !url.startsWith(binURL));
      expect(outside.some((url) => /\/web-tree-sitter\//.test(url))).toBe(true);
      for (const url of outside)
        expect(url).toMatch(new RegExp(`${CODE_OUTSIDE.source}|/@vscode/ripgrep/`));
    } finally {
      await client.close();
    }
  }, 60_000);

  it("loads the office family's chunk at its first call; sharp and PDFium stay outside, PDFium runs in the PDF worker beside the chunks", async () => {
    writeFileSync(log, "");
    writeFileSync(join(folder.path, "notice.pdf"), onePagePdf("Office hours moved to Thursday."));
    writeFileSync(
      join(folder.path, "dot.svg"),
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#c00"/></svg>',
    );
    const client = new Client({ name: "bundle-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          "--import",
          join(folder.path, "register.mjs"),
          CLI_PATH,
          "--root",
          folder.path,
          "--families",
          "core,office",
        ],
        cwd: folder.path,
        stderr: "ignore",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: folder.path },
      }),
    );
    try {
      // Distinct chunks: the log holds every resolution, and office's lazily imported readers
      // (read-pdf, read-docx, …) import the office chunk back.
      const officeChunks = () => [
        ...new Set(
          resolvedSoFar().filter(
            (url) =>
              url.startsWith(binURL) &&
              readFileSync(fileURLToPath(url), "utf8").includes(OFFICE_MODULE),
          ),
        ),
      ];
      const thought = await client.callTool({ name: "think", arguments: { thought: "first" } });
      expect(thought.isError).not.toBe(true);
      expect(officeChunks()).toEqual([]);
      // PDFium runs in dist/bin/pdf-worker.js, started beside the chunk; its wasm from node_modules.
      expect(readdirSync(BIN_DIRECTORY)).toContain("pdf-worker.js");
      const pdf = await client.callTool({
        name: "read_document",
        arguments: { path: "notice.pdf" },
      });
      expect(pdf.isError, JSON.stringify(pdf.content)).not.toBe(true);
      expect(JSON.stringify(pdf.content)).toContain("Office hours moved to Thursday.");
      expect(officeChunks()).toHaveLength(1);
      // An SVG is rasterised by sharp: its native binary loads from node_modules.
      const image = await client.callTool({ name: "read_image", arguments: { path: "dot.svg" } });
      expect(image.isError, JSON.stringify(image.content)).not.toBe(true);
      expect(image.content).toEqual(
        expect.arrayContaining([expect.objectContaining({ type: "image", mimeType: "image/png" })]),
      );
      const outside = resolvedSoFar().filter((url) => !url.startsWith(binURL));
      expect(outside.some((url) => /\/sharp\//.test(url))).toBe(true);
      expect(outside.some((url) => /\/@embedpdf\/pdfium\//.test(url))).toBe(true);
      for (const url of outside)
        expect(url).toMatch(new RegExp(`${OFFICE_OUTSIDE.source}|/@vscode/ripgrep/`));
    } finally {
      await client.close();
    }
  }, 60_000);

  it("loads the design family's chunk at its first call, its own chunk with nothing new outside the bundle", async () => {
    writeFileSync(log, "");
    writeFileSync(
      join(folder.path, "badge.svg"),
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#c00"/></svg>',
    );
    const client = new Client({ name: "bundle-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          ...["--import", join(folder.path, "register.mjs"), CLI_PATH],
          ...["--root", folder.path, "--families", "core,design"],
        ],
        cwd: folder.path,
        stderr: "ignore",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: folder.path },
      }),
    );
    try {
      const designChunks = () =>
        resolvedSoFar().filter(
          (url) =>
            url.startsWith(binURL) &&
            readFileSync(fileURLToPath(url), "utf8").includes(DESIGN_MODULE),
        );
      const thought = await client.callTool({ name: "think", arguments: { thought: "first" } });
      expect(thought.isError).not.toBe(true);
      expect(designChunks()).toEqual([]);
      const read = await client.callTool({ name: "svg_read", arguments: { path: "badge.svg" } });
      expect(read.isError, JSON.stringify(read.content)).not.toBe(true);
      expect(JSON.stringify(read.content)).toContain("rect #1 @0,0 40×20 fill=c1");
      expect(designChunks()).toHaveLength(1);
      for (const url of resolvedSoFar().filter((url) => !url.startsWith(binURL))) {
        expect(url).toMatch(/\/@vscode\/ripgrep\//);
      }
      for (const url of resolvedSoFar()) {
        for (const marker of GUI_MODULES) {
          expect(
            url.startsWith(binURL) && readFileSync(fileURLToPath(url), "utf8").includes(marker),
          ).toBe(false);
        }
      }
    } finally {
      await client.close();
    }
  }, 60_000);

  it("THIRD-PARTY-NOTICES.md carries the licence of every package the bundle holds code of", () => {
    const notices = readFileSync(join(BIN_DIRECTORY, "THIRD-PARTY-NOTICES.md"), "utf8");
    const bundled = new Set<string>();
    for (const file of readdirSync(BIN_DIRECTORY).filter((name) => name.endsWith(".js"))) {
      const text = readFileSync(join(BIN_DIRECTORY, file), "utf8");
      // rolldown heads each module's code with a `// <path>` comment.
      for (const match of text.matchAll(/^\/\/ \S*node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) {
        bundled.add(match[1] as string);
      }
    }
    const theirs = [...bundled].filter((name) => !name.startsWith("@agentool/"));
    expect(theirs).toEqual(expect.arrayContaining(["zod", "@modelcontextprotocol/sdk"]));
    for (const name of theirs) expect(notices).toContain(`## ${name} `);
    expect(notices).toContain("MIT License");
  });
});
