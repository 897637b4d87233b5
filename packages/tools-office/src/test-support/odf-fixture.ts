import { createZip } from "../internal/container/zip.js";

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';

/**
 * An OpenDocument package around a body, laid out as LibreOffice and pandoc write it (stored
 * `mimetype` first, manifest, content.xml with automatic styles).
 *
 * @internal
 */
export function odfPackage(mime: string, automaticStyles: string, body: string): Uint8Array {
  return createZip([
    { name: "mimetype", data: mime, store: true },
    {
      name: "META-INF/manifest.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mime}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    },
    {
      name: "content.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS} office:version="1.3"><office:automatic-styles>${automaticStyles}</office:automatic-styles><office:body>${body}</office:body></office:document-content>`,
    },
  ]);
}

/** An .odt with headings, a nested numbered/bulleted list, a table, a link, a footnote, a comment, code and a tracked insertion. */
export function sampleOdt(): Uint8Array {
  const styles =
    '<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>' +
    '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Preformatted_20_Text"/>' +
    '<text:list-style style:name="L1"><text:list-level-style-number text:level="1"/><text:list-level-style-bullet text:level="2" text:bullet-char="•"/></text:list-style>';
  const body =
    "<office:text>" +
    '<text:tracked-changes><text:changed-region text:id="ct1"><text:insertion><office:change-info><dc:creator>Bo</dc:creator></office:change-info></text:insertion></text:changed-region></text:tracked-changes>' +
    '<text:h text:outline-level="1">Project plan</text:h>' +
    '<text:p>We ship <text:span text:style-name="T1">on Friday</text:span>, see <text:a xlink:href="https://example.org/plan">the plan</text:a>.<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>Weather permitting.</text:p></text:note-body></text:note></text:p>' +
    '<text:h text:outline-level="2">Steps</text:h>' +
    '<text:list text:style-name="L1"><text:list-item><text:p>Build</text:p><text:list><text:list-item><text:p>Compile</text:p></text:list-item></text:list></text:list-item><text:list-item><text:p>Test<office:annotation><dc:creator>Ada</dc:creator><text:p>Add more tests</text:p></office:annotation></text:p></text:list-item></text:list>' +
    '<table:table table:name="T"><table:table-column table:number-columns-repeated="2"/><table:table-row><table:table-cell><text:p>Name</text:p></table:table-cell><table:table-cell><text:p>Owner</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell><text:p>Docs</text:p></table:table-cell><table:table-cell><text:p>Kim</text:p></table:table-cell></table:table-row></table:table>' +
    '<text:p text:style-name="P1">let x = 1;</text:p><text:p text:style-name="P1">x += 1;</text:p>' +
    '<text:p>Added <text:change-start text:change-id="ct1"/>new words<text:change-end text:change-id="ct1"/> here.</text:p>' +
    "</office:text>";
  return odfPackage("application/vnd.oasis.opendocument.text", styles, body);
}

/** An .ods with a formula, a date, a merged cell and a million repeated empty rows. */
export function sampleOds(): Uint8Array {
  const cell = (value: string, attributes = "") =>
    `<table:table-cell ${attributes}><text:p>${value}</text:p></table:table-cell>`;
  const body =
    "<office:spreadsheet>" +
    '<table:table table:name="Budget">' +
    `<table:table-row>${cell("Budget", 'table:number-columns-spanned="2"')}<table:covered-table-cell/></table:table-row>` +
    `<table:table-row>${cell("Rent", 'office:value-type="string"')}${cell("1200", 'office:value-type="float" office:value="1200"')}</table:table-row>` +
    `<table:table-row>${cell("Food", 'office:value-type="string"')}${cell("300", 'office:value-type="float" office:value="300"')}</table:table-row>` +
    `<table:table-row>${cell("Total")}${cell("1500", 'table:formula="of:=SUM([.B2:.B3])" office:value-type="float" office:value="1500"')}${cell("2024-03-01", 'office:value-type="date" office:date-value="2024-03-01"')}</table:table-row>` +
    '<table:table-row table:number-rows-repeated="1048572"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>' +
    "</table:table>" +
    `<table:table table:name="Other"><table:table-row>${cell("x")}</table:table-row></table:table>` +
    "</office:spreadsheet>";
  return odfPackage("application/vnd.oasis.opendocument.spreadsheet", "", body);
}

/** An .odp with a title, nested outline bullets and speaker notes. */
export function sampleOdp(): Uint8Array {
  const body =
    "<office:presentation>" +
    '<draw:page draw:name="page1"><draw:frame presentation:class="title"><draw:text-box><text:p>Launch</text:p></draw:text-box></draw:frame>' +
    '<draw:frame presentation:class="outline"><draw:text-box><text:list><text:list-item><text:p>Goals</text:p><text:list><text:list-item><text:p>Grow</text:p></text:list-item></text:list></text:list-item></text:list></draw:text-box></draw:frame>' +
    '<presentation:notes><draw:frame presentation:class="notes"><draw:text-box><text:p>Smile.</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>' +
    '<draw:page draw:name="page2"><draw:frame presentation:class="title"><draw:text-box><text:p>Next</text:p></draw:text-box></draw:frame></draw:page>' +
    "</office:presentation>";
  return odfPackage("application/vnd.oasis.opendocument.presentation", "", body);
}

/** A small EPUB 3: two chapters in spine order, a title, a nested list and a table. */
export function sampleEpub(): Uint8Array {
  const chapter = (title: string, body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body>${body}</body></html>`;
  return createZip([
    { name: "mimetype", data: "application/epub+zip", store: true },
    {
      name: "META-INF/container.xml",
      data: '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="EPUB/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    },
    {
      name: "EPUB/content.opf",
      data: '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The Book</dc:title></metadata><manifest><item id="c2" href="text/ch2.xhtml" media-type="application/xhtml+xml"/><item id="c1" href="text/ch1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>',
    },
    {
      name: "EPUB/text/ch1.xhtml",
      data: chapter(
        "One",
        '<h1>Chapter One</h1><p>It begins <a href="https://example.com">here</a>.</p><ul><li>Alpha<ul><li>Beta</li></ul></li></ul>',
      ),
    },
    {
      name: "EPUB/text/ch2.xhtml",
      data: chapter(
        "Two",
        "<h2>Chapter Two</h2><table><tr><th>K</th><th>V</th></tr><tr><td>a</td><td>1</td></tr></table>",
      ),
    },
  ]);
}
