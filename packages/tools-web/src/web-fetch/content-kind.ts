import type { HttpResponse } from "../internal/http-transport.js";
import { decodeBody } from "../internal/request.js";

/** Media types never read as text. */
export const MEDIA_TYPES = /^(image|audio|video|font)\//;

/** Content types read as text whatever their bytes look like. */
export const TEXT_TYPES =
  /^text\/|[/+](json|xml|javascript|ecmascript|x-sh|x-yaml|yaml|toml|csv|markdown)\b|^application\/x-www-form-urlencoded/;

/** The start of an HTML document, for a response without an HTML content type. */
export const HTML_START = /^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i;

/**
 * Whether a body is a PDF: its content type says so, or `%PDF-` appears within its first KiB
 * (some servers prepend junk).
 *
 * @param body - the response body
 * @param contentType - the lower-cased Content-Type
 * @returns `true` for a PDF
 */
export function isPdf(body: Uint8Array, contentType: string): boolean {
  if (contentType.includes("application/pdf")) return true;
  const head = body.subarray(0, 1_024);
  for (let index = 0; index + 4 < head.length; index += 1) {
    if (
      head[index] === 0x25 &&
      head[index + 1] === 0x50 &&
      head[index + 2] === 0x44 &&
      head[index + 3] === 0x46 &&
      head[index + 4] === 0x2d
    ) {
      return true;
    }
  }
  return false;
}

/**
 * Whether a body looks binary: a NUL byte, or more than 10 % control bytes in its first 4 KiB.
 *
 * @param body - the response body
 * @returns `true` for binary bytes
 */
export function looksBinary(body: Uint8Array): boolean {
  const head = body.subarray(0, 4_096);
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return true;
    if (byte < 7 || (byte > 13 && byte < 32 && byte !== 27)) control += 1;
  }
  return head.length > 0 && control / head.length > 0.1;
}

/**
 * Whether a response will be treated as HTML (what a renderer is given).
 *
 * @param response - the response
 * @returns `true` for an HTML page
 */
export function isHtmlResponse(response: HttpResponse): boolean {
  const contentType = (response.headers["content-type"] ?? "").toLowerCase();
  if (isPdf(response.body, contentType)) return false;
  if (contentType.includes("html")) return true;
  if (/[/+](json|xml)\b/.test(contentType) || contentType.includes("pdf")) return false;
  if (contentType !== "" && !contentType.startsWith("text/")) return false;
  const head = decodeBody(response.body.subarray(0, 1_024), contentType).trimStart();
  return HTML_START.test(head);
}
