import { describe, expect, it } from "vitest";
import { simplePdf } from "../../../test-support/pdf-fixture.js";
import { extractPdf } from "./pdf-extract.js";
import { openPdfium, PdfiumPasswordError } from "./pdf-pdfium.js";

/** simplePdf with one text replaced in its bytes (the fixture's lengths and offsets kept). */
function edited(bytes: Uint8Array, from: string, to: string): Uint8Array {
  return new TextEncoder().encode(new TextDecoder().decode(bytes).replace(from, to));
}

/** A PDF whose Standard security handler the empty user password does not open. */
function lockedPdf(): Uint8Array {
  const hex = (seed: number) =>
    Array.from({ length: 32 }, (_, index) =>
      ((index * 37 + seed) % 256).toString(16).padStart(2, "0"),
    ).join("");
  return edited(
    simplePdf([["Secret minutes."]]),
    "/Root 1 0 R",
    `/Root 1 0 R /Encrypt << /Filter /Standard /V 1 /R 2 /O <${hex(11)}> /U <${hex(29)}> /P -4 >> /ID [<${hex(5).slice(0, 32)}> <${hex(5).slice(0, 32)}>]`,
  );
}

describe("openPdfium", () => {
  it("groups a page's characters into runs of one font and size, placed on their baselines", async () => {
    const document = await openPdfium(
      simplePdf([["# Results", "The yield rose.", "Costs fell."], ["Second page."]], "Trial"),
    );
    try {
      expect(document.pageCount).toBe(2);
      expect(document.title()).toBe("Trial");
      const { items, monospace } = document.page(1);
      const shown = items.map((item) => ({
        text: item.str?.trim(),
        size: Math.round(item.height ?? 0),
        font: item.fontName,
      }));
      expect(shown).toEqual([
        { text: "Results", size: 18, font: "Helvetica" },
        { text: "The yield rose.", size: 12, font: "Helvetica" },
        { text: "Costs fell.", size: 12, font: "Helvetica" },
      ]);
      const baselines = items.map((item) => Math.round(item.transform?.[5] ?? 0));
      expect(baselines).toEqual([720, 692, 678]);
      expect(items.every((item) => Math.round(item.transform?.[4] ?? 0) === 72)).toBe(true);
      expect(monospace.size).toBe(0);
      expect(document.page(2).items.map((item) => item.str?.trim())).toEqual(["Second page."]);
    } finally {
      document.close();
    }
  });

  it("names a fixed-pitch font as monospace", async () => {
    const document = await openPdfium(
      edited(simplePdf([["let total = 0;"]]), "/Helvetica", "/Courier"),
    );
    try {
      const { items, monospace } = document.page(1);
      expect(items[0]?.fontName).toBe("Courier");
      expect([...monospace]).toEqual(["Courier"]);
    } finally {
      document.close();
    }
  });

  it("refuses a PDF that needs a password, and read_document says it is encrypted", async () => {
    await expect(openPdfium(lockedPdf())).rejects.toBeInstanceOf(PdfiumPasswordError);
    const refused = extractPdf({
      bytes: lockedPdf(),
      label: "locked.pdf",
      request: {},
      defaultLimit: 10,
      maxPageChars: 10_000,
      maxMemoryBytes: 512_000_000,
    });
    await expect(refused).rejects.toMatchObject({
      code: "UNSUPPORTED",
      message: expect.stringMatching(/locked\.pdf is encrypted/),
    });
    // the same file without its Encrypt entry reads: the refusal is the password's
    const open = await openPdfium(simplePdf([["Secret minutes."]]));
    expect(open.page(1).items[0]?.str?.trim()).toBe("Secret minutes.");
    open.close();
  });
});
