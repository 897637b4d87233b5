import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * Generators of hostile documents for the safety tests: zip bombs (42.zip-style nesting, a
 * single 10 GB entry, a high-ratio entry whose size is a lie), billion laughs and XML external
 * entities in each format's main part, path traversal inside the archive, a macro-enabled .docm,
 * a password-protected OOXML file (an OLE compound file holding `EncryptionInfo` and
 * `EncryptedPackage`), a 100,000-row sheet, and a PDF whose content stream inflates to 1 GB.
 *
 * Everything is written here byte by byte — the zip and compound-file writers are deliberately
 * not the package's own (`internal/container`), so a file can lie in ways a correct writer never
 * would (declared sizes, names, ratios). Huge contents are never built in memory: a deflate
 * stream of N identical chunks is one chunk compressed after a full flush, repeated N times, so a
 * 10 GB entry costs about 10 MB and a few milliseconds.
 */

/** One entry of {@link buildZip}. */
export interface HostileZipEntry {
  /** The name as stored, whatever it is (`../../evil` included). */
  name: string;
  /** Uncompressed bytes (deflated here unless `stored`), or a prepared deflate stream. */
  data?: Uint8Array | string;
  /** A raw deflate stream already made (see {@link repeatedDeflate}); `data` is then ignored. */
  deflated?: Uint8Array;
  /** Stored instead of deflated (method 0). */
  stored?: boolean;
  /** Deflate level (1 for big generated parts: fast). */
  level?: number;
  /** The uncompressed size written in the headers (a lie when it differs from the content). */
  declaredSize?: number;
  /** The CRC-32 written in the headers (computed from `data` when absent, else 0). */
  crc?: number;
}

const encoder = new TextEncoder();
const bytesOf = (data: Uint8Array | string): Uint8Array =>
  typeof data === "string" ? encoder.encode(data) : data;
const MAX_32 = 0xffff_ffff;

/** A little-endian byte writer. */
class Bytes {
  readonly parts: Uint8Array[] = [];
  length = 0;
  push(part: Uint8Array): void {
    this.parts.push(part);
    this.length += part.length;
  }
  u16(value: number): void {
    const part = new Uint8Array(2);
    new DataView(part.buffer).setUint16(0, value, true);
    this.push(part);
  }
  u32(value: number): void {
    const part = new Uint8Array(4);
    new DataView(part.buffer).setUint32(0, value >>> 0, true);
    this.push(part);
  }
  u64(value: number): void {
    const part = new Uint8Array(8);
    new DataView(part.buffer).setBigUint64(0, BigInt(value), true);
    this.push(part);
  }
  concat(): Uint8Array {
    return Buffer.concat(this.parts);
  }
}

/**
 * Writes a zip archive exactly as told: sizes over 4 GiB get a zip64 extra field (0x0001) in
 * the local and central headers, names are written as given.
 *
 * @param entries - the entries, in order
 * @returns the archive's bytes
 */
export function buildZip(entries: HostileZipEntry[]): Uint8Array {
  const body = new Bytes();
  const central = new Bytes();
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const raw = entry.data === undefined ? undefined : bytesOf(entry.data);
    const stored = entry.stored === true && entry.deflated === undefined;
    const payload =
      entry.deflated ??
      (stored
        ? (raw ?? new Uint8Array())
        : deflateRawSync(raw ?? new Uint8Array(), { level: entry.level ?? 6 }));
    const size = entry.declaredSize ?? raw?.length ?? 0;
    const crc = entry.crc ?? (raw === undefined ? 0 : crc32(raw));
    const zip64 = size >= MAX_32 || payload.length >= MAX_32;
    const extra = new Bytes();
    if (zip64) {
      extra.u16(0x0001);
      extra.u16(16);
      extra.u64(size);
      extra.u64(payload.length);
    }
    const extraBytes = extra.concat();
    const offset = body.length;
    const header = (target: Bytes, centralHeader: boolean): void => {
      target.u32(centralHeader ? 0x02014b50 : 0x04034b50);
      if (centralHeader) target.u16(zip64 ? 45 : 20); // version made by
      target.u16(zip64 ? 45 : 20); // version needed
      target.u16(0x0800); // UTF-8 names
      target.u16(stored ? 0 : 8);
      target.u16(0); // time
      target.u16(0x21); // date: 1980-01-01
      target.u32(crc);
      target.u32(zip64 ? MAX_32 : payload.length);
      target.u32(zip64 ? MAX_32 : size);
      target.u16(name.length);
      target.u16(extraBytes.length);
      if (centralHeader) {
        target.u16(0); // comment
        target.u16(0); // disk
        target.u16(0); // internal attributes
        target.u32(0); // external attributes
        target.u32(offset);
      }
      target.push(name);
      target.push(extraBytes);
    };
    header(body, false);
    body.push(payload);
    header(central, true);
  }
  const centralOffset = body.length;
  const centralBytes = central.concat();
  body.push(centralBytes);
  body.u32(0x06054b50);
  body.u16(0);
  body.u16(0);
  body.u16(entries.length);
  body.u16(entries.length);
  body.u32(centralBytes.length);
  body.u32(centralOffset);
  body.u16(0);
  return body.concat();
}

/**
 * A raw deflate stream of `chunk` repeated `times` times (+ optional head and tail), made without
 * ever holding the inflated bytes: each piece is compressed after a full flush, which resets the
 * compressor, so every repetition compresses to the same bytes.
 *
 * @param chunk - the repeated bytes (1 MiB is a good size)
 * @param times - how many times
 * @param edges - bytes before and after the repetitions
 * @returns the stream and its inflated size
 */
export function repeatedDeflate(
  chunk: Uint8Array | string,
  times: number,
  edges: { head?: string; tail?: string } = {},
): { deflated: Uint8Array; size: number } {
  const flush = { finishFlush: constants.Z_FULL_FLUSH };
  const piece = deflateRawSync(bytesOf(chunk), flush);
  const head = deflateRawSync(bytesOf(edges.head ?? ""), flush);
  const tail = deflateRawSync(bytesOf(edges.tail ?? "")); // the final block
  const parts: Uint8Array[] = [head];
  for (let index = 0; index < times; index += 1) parts.push(piece);
  parts.push(tail);
  return {
    deflated: Buffer.concat(parts),
    size:
      bytesOf(edges.head ?? "").length +
      bytesOf(chunk).length * times +
      bytesOf(edges.tail ?? "").length,
  };
}

const MEBIBYTE = 1 << 20;
const W_NAMESPACE = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** The parts of a minimal Word document around a given `word/document.xml`. */
function wordParts(mainContentType: string): HostileZipEntry[] {
  return [
    {
      name: "[Content_Types].xml",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/><Override PartName="/word/document.xml" ContentType="${mainContentType}"/></Types>`,
    },
    {
      name: "_rels/.rels",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    },
  ];
}

const DOCX_MAIN =
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml";

/** A `word/document.xml` with the given paragraphs' text. */
export function documentXml(paragraphs: string[], prolog = ""): string {
  const body = paragraphs.map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`).join("");
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${prolog}<w:document ${W_NAMESPACE}><w:body>${body}</w:body></w:document>`;
}

/** A well-formed .docx holding `document` as its main part, plus any extra entries. */
export function docxWith(document: HostileZipEntry, extra: HostileZipEntry[] = []): Uint8Array {
  return buildZip([...wordParts(DOCX_MAIN), document, ...extra]);
}

/**
 * 42.zip's idea inside a Word document: a valid `word/document.xml` beside
 * `word/embeddings/42.zip`, nested `layers` deep with 16 archives per layer and, at the bottom,
 * 16 entries of 256 MiB of zeros — 16^(layers+1) × 256 MiB declared (4 TiB at 3 layers), about
 * 1 MB on disk. A reader must never open an embedded archive.
 *
 * @param layers - nesting depth under the embedded archive (3 by default)
 * @returns the .docx bytes and the total the nesting declares
 */
export function nestedZipBomb(layers = 3): { bytes: Uint8Array; declaredBytes: number } {
  const zeros = repeatedDeflate(new Uint8Array(MEBIBYTE), 256);
  let archive = buildZip(
    Array.from({ length: 16 }, (_, index) => ({
      name: `${index}.bin`,
      deflated: zeros.deflated,
      declaredSize: zeros.size,
      crc: 0,
    })),
  );
  let declaredBytes = 16 * zeros.size;
  for (let layer = 0; layer < layers; layer += 1) {
    // the 16 copies are the same bytes: deflated once
    const deflated = deflateRawSync(archive);
    const declaredSize = archive.length;
    const crc = crc32(archive);
    archive = buildZip(
      Array.from({ length: 16 }, (_, index) => ({
        name: `${index}.zip`,
        deflated,
        declaredSize,
        crc,
      })),
    );
    declaredBytes *= 16;
  }
  const bytes = docxWith(
    { name: "word/document.xml", data: documentXml(["A document carrying 42.zip."]) },
    [{ name: "word/embeddings/42.zip", data: archive, stored: true }],
  );
  return { bytes, declaredBytes };
}

/**
 * A .docx whose `word/document.xml` is one real 10 GiB entry — well-formed XML: a paragraph,
 * then 10 GiB of white space between elements — its size declared truthfully with zip64, about
 * 10 MB on disk. CRC not computed (0).
 */
export function tenGigabyteEntry(): Uint8Array {
  const stream = repeatedDeflate(" ".repeat(MEBIBYTE), 10_240, {
    head: `<?xml version="1.0" encoding="UTF-8"?><w:document ${W_NAMESPACE}><w:body><w:p><w:r><w:t>bomb</w:t></w:r></w:p>`,
    tail: "</w:body></w:document>",
  });
  return docxWith({
    name: "word/document.xml",
    deflated: stream.deflated,
    declaredSize: stream.size,
    crc: 0,
  });
}

/**
 * A .docx whose `word/document.xml` declares 100 KB but inflates to 1 GiB (ratio ~1,000): a
 * reader that trusts the declared size inflates it all; a bounded inflater stops at its limits.
 */
export function lyingHighRatioEntry(): Uint8Array {
  const stream = repeatedDeflate(" ".repeat(MEBIBYTE), 1_024, {
    head: `<?xml version="1.0" encoding="UTF-8"?><w:document ${W_NAMESPACE}><w:body><w:p><w:r><w:t>`,
    tail: "</w:t></w:r></w:p></w:body></w:document>",
  });
  return docxWith({
    name: "word/document.xml",
    deflated: stream.deflated,
    declaredSize: 100_000,
    crc: 0,
  });
}

/** The billion-laughs DTD: 10 levels of 10 references, 10^9 "lol"s when expanded. */
export const BILLION_LAUGHS_DTD = (root: string): string =>
  `<!DOCTYPE ${root} [<!ENTITY lol0 "lol">${Array.from(
    { length: 9 },
    (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`,
  ).join("")}]>`;

/** A DTD declaring an external entity that reads /etc/passwd. */
export const XXE_DTD = (root: string): string =>
  `<!DOCTYPE ${root} [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>`;

/** Which entity attack to put in a part. */
export type EntityAttack = "billion-laughs" | "xxe";

const dtd = (attack: EntityAttack, root: string): string =>
  attack === "billion-laughs" ? BILLION_LAUGHS_DTD(root) : XXE_DTD(root);
const reference = (attack: EntityAttack): string =>
  attack === "billion-laughs" ? "&lol9;" : "&xxe;";

/** A .docx whose `word/document.xml` carries the attack. */
export function docxWithEntities(attack: EntityAttack): Uint8Array {
  return docxWith({
    name: "word/document.xml",
    data: documentXml([`before ${reference(attack)} after`], dtd(attack, "w:document")),
  });
}

/** A .xlsx whose `xl/sharedStrings.xml` carries the attack (cell A1 uses it). */
export function xlsxWithEntities(attack: EntityAttack): Uint8Array {
  const shared = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${dtd(attack, "sst")}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>before ${reference(attack)} after</t></si></sst>`;
  return buildZip(xlsxParts(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`, shared));
}

/** The parts of a one-sheet .xlsx with the given `<sheetData>` rows and shared strings. */
function xlsxParts(rows: string, sharedStrings?: string, level?: number): HostileZipEntry[] {
  const main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
  const relationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  return [
    {
      name: "[Content_Types].xml",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${sharedStrings === undefined ? "" : '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'}</Types>`,
    },
    {
      name: "_rels/.rels",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relationships}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: "xl/workbook.xml",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="${main}" xmlns:r="${relationships}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relationships}/worksheet" Target="worksheets/sheet1.xml"/>${sharedStrings === undefined ? "" : `<Relationship Id="rId2" Type="${relationships}/sharedStrings" Target="sharedStrings.xml"/>`}</Relationships>`,
    },
    {
      name: "xl/worksheets/sheet1.xml",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="${main}"><sheetData>${rows}</sheetData></worksheet>`,
      ...(level === undefined ? {} : { level }),
    },
    ...(sharedStrings === undefined ? [] : [{ name: "xl/sharedStrings.xml", data: sharedStrings }]),
  ];
}

/** A .odt whose `content.xml` carries the attack. */
export function odtWithEntities(attack: EntityAttack): Uint8Array {
  return odtWith(`before ${reference(attack)} after`, dtd(attack, "office:document-content"));
}

/**
 * A minimal OpenDocument text with one paragraph (its text as XML), an optional DTD before the
 * root element.
 */
export function odtWith(paragraphXml: string, doctype = ""): Uint8Array {
  const office = "urn:oasis:names:tc:opendocument:xmlns:office:1.0";
  const text = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";
  return buildZip([
    { name: "mimetype", data: "application/vnd.oasis.opendocument.text", stored: true },
    {
      name: "META-INF/manifest.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    },
    {
      name: "content.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?>${doctype}<office:document-content xmlns:office="${office}" xmlns:text="${text}" office:version="1.2"><office:body><office:text><text:p>${paragraphXml}</text:p></office:text></office:body></office:document-content>`,
    },
  ]);
}

/**
 * A .docx with an extra entry whose name climbs out of any folder it would be extracted to
 * (`../../evil`, and an absolute `/tmp/evil` variant when `absolute`).
 */
export function traversalDocx(name = "../../evil"): Uint8Array {
  return docxWith(
    { name: "word/document.xml", data: documentXml(["A document with a climbing entry."]) },
    [{ name, data: "#!/bin/sh\necho pwned > /tmp/pwned\n" }],
  );
}

/** One stream of {@link buildCompoundFile}. */
export interface CompoundStream {
  /** Its name (at most 31 UTF-16 characters). */
  name: string;
  /** Its bytes (padded to 4,096 so the mini stream is never needed). */
  data: Uint8Array | string;
}

const FREE_SECTOR = 0xffff_ffff;
const END_OF_CHAIN = 0xffff_fffe;
const FAT_SECTOR = 0xffff_fffd;
const NO_STREAM = 0xffff_ffff;

/**
 * Writes an OLE compound file (CFB version 3, 512-byte sectors) whose root storage holds the
 * given streams, each padded to 4,096 bytes (the mini-stream cutoff) so every stream lives in
 * regular sectors. One FAT sector (up to 127 sectors of data: ~64 KB).
 *
 * @param streams - the streams, in directory order
 * @returns the file's bytes
 */
export function buildCompoundFile(streams: CompoundStream[]): Uint8Array {
  const sector = 512;
  const payloads = streams.map((stream) => {
    const raw = bytesOf(stream.data);
    const padded = new Uint8Array(Math.max(4_096, Math.ceil(raw.length / sector) * sector));
    padded.set(raw);
    return { name: stream.name, bytes: padded, size: Math.max(raw.length, 4_096) };
  });
  const directorySectors = Math.ceil(((streams.length + 1) * 128) / sector);
  // sector 0: FAT; then the directory; then each stream's sectors in turn
  const fat: number[] = [FAT_SECTOR];
  for (let index = 0; index < directorySectors; index += 1) {
    fat.push(index === directorySectors - 1 ? END_OF_CHAIN : fat.length + 1);
  }
  const starts: number[] = [];
  for (const payload of payloads) {
    starts.push(fat.length);
    const count = payload.bytes.length / sector;
    for (let index = 0; index < count; index += 1) {
      fat.push(index === count - 1 ? END_OF_CHAIN : fat.length + 1);
    }
  }
  if (fat.length > sector / 4) throw new Error("buildCompoundFile: over one FAT sector of data");
  const header = new DataView(new ArrayBuffer(sector));
  [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].forEach((byte, index) => {
    header.setUint8(index, byte);
  });
  header.setUint16(24, 0x003e, true); // minor version
  header.setUint16(26, 0x0003, true); // major version 3
  header.setUint16(28, 0xfffe, true); // byte order
  header.setUint16(30, 9, true); // 512-byte sectors
  header.setUint16(32, 6, true); // 64-byte mini sectors
  header.setUint32(44, 1, true); // FAT sectors
  header.setUint32(48, 1, true); // first directory sector
  header.setUint32(56, 4_096, true); // mini stream cutoff
  header.setUint32(60, END_OF_CHAIN, true); // no mini FAT
  header.setUint32(68, END_OF_CHAIN, true); // no DIFAT sectors
  header.setUint32(76, 0, true); // DIFAT[0] = FAT sector 0
  for (let index = 1; index < 109; index += 1) header.setUint32(76 + index * 4, FREE_SECTOR, true);
  const fatSector = new DataView(new ArrayBuffer(sector));
  for (let index = 0; index < sector / 4; index += 1) {
    fatSector.setUint32(index * 4, fat[index] ?? FREE_SECTOR, true);
  }
  const directory = new DataView(new ArrayBuffer(directorySectors * sector));
  const entry = (
    at: number,
    name: string,
    type: number,
    start: number,
    size: number,
    child: number,
    right: number,
  ): void => {
    const base = at * 128;
    for (let index = 0; index < name.length; index += 1) {
      directory.setUint16(base + index * 2, name.charCodeAt(index), true);
    }
    directory.setUint16(base + 64, (name.length + 1) * 2, true);
    directory.setUint8(base + 66, type);
    directory.setUint8(base + 67, 1); // black
    directory.setUint32(base + 68, NO_STREAM, true); // left sibling
    directory.setUint32(base + 72, right, true);
    directory.setUint32(base + 76, child, true);
    directory.setUint32(base + 116, start, true);
    directory.setBigUint64(base + 120, BigInt(size), true);
  };
  // Unused directory slots are empty entries whose siblings and child say "none".
  for (let index = 0; index < (directorySectors * sector) / 128; index += 1) {
    directory.setUint32(index * 128 + 68, NO_STREAM, true);
    directory.setUint32(index * 128 + 72, NO_STREAM, true);
    directory.setUint32(index * 128 + 76, NO_STREAM, true);
  }
  // Siblings are ordered by name length, then name: a right-leaning chain in that order.
  const order = payloads
    .map((_, index) => index)
    .sort(
      (left, right) =>
        (payloads[left]?.name.length ?? 0) - (payloads[right]?.name.length ?? 0) ||
        (payloads[left]?.name.toUpperCase() ?? "").localeCompare(
          payloads[right]?.name.toUpperCase() ?? "",
        ),
    );
  entry(0, "Root Entry", 5, END_OF_CHAIN, 0, (order[0] ?? -1) + 1 || NO_STREAM, NO_STREAM);
  order.forEach((payloadIndex, position) => {
    const payload = payloads[payloadIndex];
    if (payload === undefined) return;
    const next = order[position + 1];
    entry(
      payloadIndex + 1,
      payload.name,
      2,
      starts[payloadIndex] ?? END_OF_CHAIN,
      payload.size,
      NO_STREAM,
      next === undefined ? NO_STREAM : next + 1,
    );
  });
  return Buffer.concat([
    new Uint8Array(header.buffer),
    new Uint8Array(fatSector.buffer),
    new Uint8Array(directory.buffer),
    ...payloads.map((payload) => payload.bytes),
  ]);
}

/**
 * A password-protected .docx as Office writes one: an OLE compound file (not a zip) holding an
 * agile `EncryptionInfo` (version 4.4, its XML descriptor) and an `EncryptedPackage` (8-byte
 * size, then AES blocks — random here).
 */
export function encryptedOoxml(): Uint8Array {
  const descriptor = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<encryption xmlns="http://schemas.microsoft.com/office/2006/encryption" xmlns:p="http://schemas.microsoft.com/office/2006/keyEncryptor/password"><keyData saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="AAAAAAAAAAAAAAAAAAAAAA=="/><keyEncryptors><keyEncryptor uri="http://schemas.microsoft.com/office/2006/keyEncryptor/password"><p:encryptedKey spinCount="100000" saltSize="16" blockSize="16" keyBits="256" hashSize="64" cipherAlgorithm="AES" cipherChaining="ChainingModeCBC" hashAlgorithm="SHA512" saltValue="AAAAAAAAAAAAAAAAAAAAAA==" encryptedVerifierHashInput="AAAAAAAAAAAAAAAAAAAAAA==" encryptedVerifierHashValue="AAAAAAAAAAAAAAAAAAAAAA==" encryptedKeyValue="AAAAAAAAAAAAAAAAAAAAAA=="/></keyEncryptor></keyEncryptors></encryption>`;
  const info = new Bytes();
  info.u16(4);
  info.u16(4);
  info.u32(0x40);
  info.push(encoder.encode(descriptor));
  const packageBytes = new Uint8Array(8_192);
  for (let index = 8; index < packageBytes.length; index += 1) {
    packageBytes[index] = (index * 7919) & 0xff;
  }
  new DataView(packageBytes.buffer).setBigUint64(0, 6_000n, true);
  return buildCompoundFile([
    { name: "EncryptionInfo", data: info.concat() },
    { name: "EncryptedPackage", data: packageBytes },
  ]);
}

/**
 * A macro-enabled Word document (.docm): the macro-enabled main content type, and a
 * `word/vbaProject.bin` (a compound file whose module text would run `Shell` on open) related to
 * the document. A reader reads it as data and never runs anything.
 */
export function macroDocm(): Uint8Array {
  const vba = buildCompoundFile([
    {
      name: "Module1",
      data: 'Attribute VB_Name = "Module1"\r\nSub AutoOpen()\r\n    Shell "sh -c \'touch /tmp/agentool-macro-ran\'"\r\nEnd Sub\r\n',
    },
    { name: "dir", data: "VBA project directory (uncompressed here)" },
  ]);
  return buildZip([
    ...wordParts("application/vnd.ms-word.document.macroEnabled.main+xml"),
    { name: "word/document.xml", data: documentXml(["Quarterly figures, see the macro."]) },
    {
      name: "word/_rels/document.xml.rels",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.microsoft.com/office/2006/relationships/vbaProject" Target="vbaProject.bin"/></Relationships>`,
    },
    { name: "word/vbaProject.bin", data: vba },
  ]);
}

/**
 * A one-sheet .xlsx of `rows` rows × 6 columns (row number, a code, a name, an integer, a
 * decimal, a formula with its cached value), inline strings, ~14 MB of sheet XML at 100,000 rows.
 *
 * @param rows - how many rows (100,000 by default)
 */
export function hugeSheet(rows = 100_000): Uint8Array {
  const lines: string[] = [
    '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>code</t></is></c><c r="C1" t="inlineStr"><is><t>name</t></is></c><c r="D1" t="inlineStr"><is><t>count</t></is></c><c r="E1" t="inlineStr"><is><t>ratio</t></is></c><c r="F1" t="inlineStr"><is><t>double</t></is></c></row>',
  ];
  for (let row = 2; row <= rows + 1; row += 1) {
    const count = (row * 7919) % 100_000;
    lines.push(
      `<row r="${row}"><c r="A${row}"><v>${row - 1}</v></c><c r="B${row}" t="inlineStr"><is><t>C${(row * 31).toString(36)}</t></is></c><c r="C${row}" t="inlineStr"><is><t>Item number ${row - 1}</t></is></c><c r="D${row}"><v>${count}</v></c><c r="E${row}"><v>${(count / 997).toFixed(4)}</v></c><c r="F${row}"><f>D${row}*2</f><v>${count * 2}</v></c></row>`,
    );
  }
  return buildZip(xlsxParts(lines.join(""), undefined, 1));
}

/**
 * A one-page PDF whose content stream is a FlateDecode stream of 1 GiB of NUL bytes (PDF
 * white space, so the page is valid and merely empty) in about 1 MB: a reader that inflates
 * streams whole allocates the gigabyte. With `streams` over 1 the page's contents are that many
 * such streams, each of `mebibytes` (none large alone, large together). Cross-reference offsets
 * are exact.
 *
 * @param mebibytes - inflated size of each stream in MiB (1,024 by default)
 * @param streams - content streams of the page (1 by default)
 */
export function pdfBombStream(mebibytes = 1_024, streams = 1): Uint8Array {
  const zeros = repeatedDeflate(new Uint8Array(MEBIBYTE), mebibytes);
  // zlib wrapper: header 78 9C, the raw stream, Adler-32 of n zeros = (n mod 65521) << 16 | 1
  const size = zeros.size;
  const adler = new Uint8Array(4);
  new DataView(adler.buffer).setUint32(0, ((size % 65_521) * 0x10000 + 1) >>> 0, false);
  const stream = Buffer.concat([new Uint8Array([0x78, 0x9c]), zeros.deflated, adler]);
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (part: Uint8Array | string): void => {
    const bytes = bytesOf(part);
    parts.push(bytes);
    length += bytes.length;
  };
  add("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n");
  const object = (number: number, body: Uint8Array | string, streamBytes?: Uint8Array): void => {
    offsets[number] = length;
    add(`${number} 0 obj\n`);
    add(body);
    if (streamBytes !== undefined) {
      add("\nstream\n");
      add(streamBytes);
      add("\nendstream");
    }
    add("\nendobj\n");
  };
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  const contents = Array.from({ length: streams }, (_, index) => `${4 + index} 0 R`);
  object(
    3,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${streams === 1 ? contents[0] : `[${contents.join(" ")}]`} >>`,
  );
  for (let index = 0; index < streams; index += 1)
    object(4 + index, `<< /Length ${stream.length} /Filter /FlateDecode >>`, stream);
  const objectCount = 4 + streams;
  const xref = length;
  add(`xref\n0 ${objectCount}\n0000000000 65535 f \n`);
  for (let number = 1; number < objectCount; number += 1) {
    add(`${String(offsets[number]).padStart(10, "0")} 00000 n \n`);
  }
  add(`trailer\n<< /Size ${objectCount} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
