import { ToolFailureError } from "@agentool/contract";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { containerKind, oleFailure } from "./detect.js";
import { childElements, parseXml, textContent } from "./xml.js";
import { createYielder } from "./yielder.js";
import { createZip, openZip } from "./zip.js";

async function failure(promise: Promise<unknown> | (() => unknown)): Promise<ToolFailureError> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    if (error instanceof ToolFailureError) return error;
    throw error;
  }
  throw new Error("expected a ToolFailureError");
}

/** Rewrites the first central-directory name of a one-entry archive (same length). */
function renameEntry(bytes: Uint8Array, from: string, to: string): Uint8Array {
  const out = bytes.slice();
  const encoded = new TextEncoder().encode(from);
  const replacement = new TextEncoder().encode(to);
  for (let at = 0; at < out.length - encoded.length; at += 1) {
    if (encoded.every((byte, index) => out[at + index] === byte)) out.set(replacement, at);
  }
  return out;
}

describe("openZip", () => {
  it("reads stored and deflated entries in order", async () => {
    const bytes = createZip([
      { name: "mimetype", data: "application/vnd.oasis.opendocument.text", store: true },
      { name: "content.xml", data: "<a>hello</a>" },
    ]);
    const archive = openZip(bytes, { label: "x.odt" });
    expect(archive.entries.map((entry) => entry.name)).toEqual(["mimetype", "content.xml"]);
    expect(await archive.readText("mimetype")).toBe("application/vnd.oasis.opendocument.text");
    expect(await archive.readText("content.xml")).toBe("<a>hello</a>");
    expect(archive.has("nope")).toBe(false);
  });

  it("inflates a big part under backpressure without leaving listeners behind", async () => {
    // 12 MB that does not compress: ~190 writes into the inflater, many of them waiting for drain.
    const random = new Uint8Array(12 * 1024 * 1024);
    for (let at = 0; at < random.length; at += 65_536)
      crypto.getRandomValues(random.subarray(at, at + 65_536));
    const archive = openZip(zipSync({ "big.bin": [random, { level: 1 }] }), { label: "big.zip" });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      let total = 0;
      await archive.stream("big.bin", (chunk) => {
        total += chunk.length;
      });
      expect(total).toBe(random.length);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("refuses a zip bomb with TOO_LARGE after bounded work", async () => {
    const zeros = new Uint8Array(20_000_000);
    const bytes = zipSync({ "word/document.xml": [zeros, { level: 9 }] });
    expect(bytes.length).toBeLessThan(100_000);
    const archive = openZip(bytes, { label: "bomb.docx" });
    const started = performance.now();
    const error = await failure(archive.read("word/document.xml", createYielder()));
    expect(error.code).toBe("TOO_LARGE");
    expect(error.message).toMatch(/zip bomb/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("refuses an entry inflating past its declared size", async () => {
    const bytes = zipSync({ "a.xml": [new Uint8Array(200_000), { level: 9 }] }).slice();
    // patch the central directory's declared size to 1,000 bytes
    const view = new DataView(bytes.buffer);
    for (let at = bytes.length - 22; at > 0; at -= 1) {
      if (view.getUint32(at, true) === 0x02014b50) {
        view.setUint32(at + 24, 1_000, true);
        break;
      }
    }
    const error = await failure(openZip(bytes).read("a.xml"));
    expect(error.code).toBe("TOO_LARGE");
  });

  it("says a small part whose deflate stream is broken is damaged", async () => {
    const text = "<a>".repeat(2_000);
    const bytes = zipSync({ "b.xml": [new TextEncoder().encode(text), { level: 9 }] }).slice();
    const whole = await openZip(bytes).readText("b.xml");
    expect(whole).toBe(text);
    // the data starts after the 30-byte local header and the name; break its first block
    bytes[30 + "b.xml".length] = 0xff;
    const error = await failure(openZip(bytes, { label: "b.docx" }).read("b.xml"));
    expect(error.code).toBe("UNSUPPORTED");
    expect(error.message).toMatch(/^b\.docx: part b\.xml is damaged/);
  });

  it("refuses path-traversal names with BLOCKED", async () => {
    const bytes = renameEntry(zipSync({ "xx/evil.xml": new Uint8Array(3) }), "xx/evil", "../evil");
    const error = await failure(() => openZip(bytes, { label: "t.docx" }));
    expect(error.code).toBe("BLOCKED");
    expect(error.message).toContain("../evil.xml");
  });

  it("refuses encrypted entries and too many entries", async () => {
    const bytes = zipSync({ "a.xml": new Uint8Array(3) }).slice();
    const view = new DataView(bytes.buffer);
    for (let at = bytes.length - 22; at > 0; at -= 1) {
      if (view.getUint32(at, true) === 0x02014b50) view.setUint16(at + 8, 1, true);
    }
    expect((await failure(() => openZip(bytes))).code).toBe("UNSUPPORTED");
    const many = zipSync(
      Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, new Uint8Array(1)])),
    );
    const error = await failure(() => openZip(many, { limits: { maxEntries: 10 } }));
    expect(error.code).toBe("TOO_LARGE");
  });

  it("says what a non-zip is", async () => {
    expect((await failure(() => openZip(new TextEncoder().encode("hello")))).code).toBe(
      "UNSUPPORTED",
    );
  });
});

describe("parseXml", () => {
  it("builds a tree with local names and text", async () => {
    const root = await parseXml(
      '<?xml version="1.0"?><w:document xmlns:w="u"><w:p><w:t xml:space="preserve"> a &amp; b </w:t></w:p></w:document>',
      "document.xml",
    );
    expect(root.local).toBe("document");
    const [paragraph] = childElements(root, "p");
    expect(paragraph && textContent(paragraph)).toBe(" a & b ");
  });

  it("never expands entities: billion laughs and XXE are refused", async () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><r>&lol2;</r>`;
    expect((await failure(parseXml(laughs, "word/document.xml"))).code).toBe("BLOCKED");
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`;
    const error = await failure(parseXml(xxe, "word/document.xml"));
    expect(error.code).toBe("BLOCKED");
    expect(error.message).not.toContain("root:");
    const undeclared = "<r>&x;</r>";
    expect((await failure(parseXml(undeclared, "a.xml"))).code).toBe("UNSUPPORTED");
  });

  it("accepts an XHTML doctype and its common entities in html mode", async () => {
    const root = await parseXml(
      '<!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><p>a&nbsp;b&mdash;c</p></html>',
      "ch1.xhtml",
      { html: true },
    );
    expect(textContent(root)).toBe("a\u00a0b—c");
  });

  it("refuses malformed XML and absurd nesting", async () => {
    expect((await failure(parseXml("<a><b></a>", "x.xml"))).code).toBe("UNSUPPORTED");
    const deep = `${"<a>".repeat(2_000)}${"</a>".repeat(2_000)}`;
    expect((await failure(parseXml(deep, "x.xml"))).code).toBe("UNSUPPORTED");
  });
});

describe("containerKind", () => {
  it("tells zip, OLE, PDF and others; names an encrypted Office file", () => {
    expect(containerKind(createZip([{ name: "a", data: "b" }]))).toBe("zip");
    expect(containerKind(new TextEncoder().encode("%PDF-1.7\n"))).toBe("pdf");
    const ole = new Uint8Array(600);
    ole.set([0xd0, 0xcf, 0x11, 0xe0]);
    expect(containerKind(ole)).toBe("ole");
    expect(oleFailure(ole, "a.doc").message).toMatch(/legacy/);
    const name = Array.from("EncryptedPackage").flatMap((c) => [c.charCodeAt(0), 0]);
    ole.set(name, 100);
    expect(oleFailure(ole, "a.docx").message).toMatch(/encrypted/);
  });
});
