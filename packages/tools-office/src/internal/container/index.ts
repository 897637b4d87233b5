/**
 * The container layer every office reader and writer builds on: safe zip reading with bounded
 * inflate, XML without DTD processing, magic-byte detection, cooperative yielding.
 *
 * @internal
 */
export { type ContainerKind, containerKind, oleFailure } from "./detect.js";
export {
  attribute,
  childElement,
  childElements,
  createXmlStream,
  feedXml,
  findElement,
  findElements,
  localName,
  MAX_XML_DEPTH,
  parseXml,
  prefixedAttribute,
  textContent,
  type XmlElement,
  type XmlNode,
  type XmlStream,
  type XmlStreamHandlers,
} from "./xml.js";
export { createYielder, DEFAULT_SLICE_MS, NEVER_YIELD, type Yielder } from "./yielder.js";
export {
  createZip,
  DEFAULT_ZIP_LIMITS,
  isZip,
  type OpenZipOptions,
  openZip,
  ZipArchive,
  type ZipEntry,
  type ZipInput,
  type ZipLimits,
} from "./zip.js";
