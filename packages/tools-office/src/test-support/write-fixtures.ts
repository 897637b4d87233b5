import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createZip } from "../internal/container/zip.js";

/**
 * Test fixtures of the writing tools: a temporary workspace, minimal hand-written documents
 * whose XML the tests control run by run, and the real outside readers (LibreOffice, Debian's
 * python3-docx / python3-openpyxl) when they are installed.
 */

/** A temporary folder with the given files, removed by `remove()`. */
export function tempWorkspace(files: Record<string, string | Uint8Array> = {}): {
  root: string;
  remove: () => void;
} {
  const root = mkdtempSync(join(tmpdir(), "tools-office-write-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/**
 * A minimal .docx whose body is the given paragraphs' XML (`<w:p>…</w:p>` each).
 *
 * @param body - the body's XML
 * @param extra - more parts (name → XML)
 * @returns the file's bytes
 */
export function minimalDocx(body: string, extra: Record<string, string> = {}): Uint8Array {
  const overrides = Object.keys(extra)
    .filter((name) => /word\/(header|footer)\d*\.xml$/.test(name))
    .map(
      (name) =>
        `<Override PartName="/${name}" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.${name.includes("header") ? "header" : "footer"}+xml"/>`,
    )
    .join("");
  return createZip([
    {
      name: "[Content_Types].xml",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>${overrides}</Types>`,
    },
    {
      name: "_rels/.rels",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    },
    {
      name: "word/document.xml",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${W}><w:body>${body}<w:sectPr/></w:body></w:document>`,
    },
    ...Object.entries(extra).map(([name, data]) => ({ name, data })),
  ]);
}

/**
 * A minimal .odt whose office:text holds the given XML.
 *
 * @param text - paragraphs (`<text:p>…</text:p>`)
 * @returns the file's bytes
 */
export function minimalOdt(text: string): Uint8Array {
  return createZip([
    { name: "mimetype", data: "application/vnd.oasis.opendocument.text", store: true },
    {
      name: "META-INF/manifest.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    },
    {
      name: "content.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.2"><office:automatic-styles><style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style></office:automatic-styles><office:body><office:text>${text}</office:text></office:body></office:document-content>`,
    },
  ]);
}

/** Whether LibreOffice's `soffice` is on this machine. */
export const HAS_SOFFICE = existsSync("/usr/bin/soffice");

/** Whether Debian's python3-docx and python3-openpyxl import with /usr/bin/python3. */
export const HAS_PYTHON_OFFICE =
  existsSync("/usr/bin/python3") &&
  spawnSync("/usr/bin/python3", ["-c", "import docx, openpyxl"], { stdio: "ignore" }).status === 0;

/**
 * Runs a Python snippet with Debian's python3 (argv after the script: the given arguments).
 *
 * @param script - the program
 * @param args - its arguments
 * @returns its standard output
 */
export function python(script: string, ...args: string[]): string {
  return execFileSync("/usr/bin/python3", ["-c", script, ...args], {
    encoding: "utf8",
    timeout: 60_000,
  });
}

/**
 * Converts a document with LibreOffice headless (its own profile, so runs never share one).
 *
 * @param file - the document's absolute path
 * @param to - the target format (`pdf`, `csv`, `txt:Text`)
 * @param outDir - where the result goes
 * @returns the exit status and the output
 */
export function sofficeConvert(
  file: string,
  to: string,
  outDir: string,
): { status: number | null; output: string } {
  const profile = mkdtempSync(join(tmpdir(), "soffice-profile-"));
  try {
    const result = spawnSync(
      "/usr/bin/soffice",
      [
        `-env:UserInstallation=file://${profile}`,
        "--headless",
        "--norestore",
        "--convert-to",
        to,
        "--outdir",
        outDir,
        file,
      ],
      { encoding: "utf8", timeout: 120_000 },
    );
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
