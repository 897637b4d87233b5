import { createHash, randomBytes } from "node:crypto";
import type { MemoryRecord } from "../../memory-backend.js";
import { encodeNamespaceLabel } from "../../memory-rules.js";
import { FILE_MEMORY_FORMAT, FILE_MEMORY_SHARDS } from "../file-memory-format.js";

/** What one memory file holds (JSON). @internal */
export interface StoredFile {
  format: string;
  version: number;
  key: string;
  content: string;
  tags: string[];
  created_at: string;
  updated_at: string;
}

/** A memory file's name: `<key hash>.<version>.json`. @internal */
export const MEMORY_FILE_NAME = /^([0-9a-f]{24})\.(\d{17}-[0-9a-f]{8})\.json$/;

/** Versions written by this process, so two writes of one key in one microsecond still order. */
let lastVersionMicros = 0n;

/**
 * The version of a new file: the time in microseconds (after `atLeastAfter`'s and this process's
 * last one) and 8 random hex digits.
 *
 * @internal
 */
export function nextVersion(atLeastAfter: string | undefined): string {
  let micros = BigInt(Date.now()) * 1000n;
  const seen = atLeastAfter === undefined ? 0n : BigInt(atLeastAfter.slice(0, 17));
  if (micros <= seen) micros = seen + 1n;
  if (micros <= lastVersionMicros) micros = lastVersionMicros + 1n;
  lastVersionMicros = micros;
  return `${micros.toString().padStart(17, "0")}-${randomBytes(4).toString("hex")}`;
}

/** A key's hash: 24 hex digits of its SHA-256. @internal */
export function keyHash(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex").slice(0, 24);
}

/** The shard folder name of a shard index (`_00` … `_3f`). @internal */
export function shardName(index: number): string {
  return `_${index.toString(16).padStart(2, "0")}`;
}

/** The shard folder of a key hash. @internal */
export function shardOf(hash: string): string {
  return shardName(Number.parseInt(hash.slice(0, 2), 16) % FILE_MEMORY_SHARDS);
}

/** The folder name of a namespace label (encoded; hashed when long). @internal */
export function folderLabel(label: string): string {
  const encoded = encodeNamespaceLabel(label);
  // `=` never appears in an encoded label, so a hashed name cannot collide with a plain one.
  return encoded.length <= 120
    ? encoded
    : `=${createHash("sha256").update(label, "utf8").digest("hex")}`;
}

/**
 * The record of a memory file's text, or `undefined` when it is not a memory file.
 *
 * @internal
 */
export function parseRecord(text: string, fileName: string): MemoryRecord | undefined {
  let value: StoredFile;
  try {
    value = JSON.parse(text) as StoredFile;
  } catch {
    return undefined;
  }
  if (
    typeof value !== "object" ||
    value === null ||
    value.format !== FILE_MEMORY_FORMAT ||
    typeof value.key !== "string" ||
    typeof value.content !== "string" ||
    !Array.isArray(value.tags) ||
    typeof value.created_at !== "string" ||
    typeof value.updated_at !== "string"
  ) {
    return undefined;
  }
  return Object.freeze({
    key: value.key,
    content: value.content,
    tags: Object.freeze(value.tags.filter((tag): tag is string => typeof tag === "string")),
    createdAt: value.created_at,
    updatedAt: value.updated_at,
    revision: fileName,
  });
}

/** A shard's file names sorted out. @internal */
export interface ShardListing {
  /** Key hash → its newest file (versions sort as strings). */
  newest: Map<string, string>;
  /** Key hash → all its files. */
  all: Map<string, string[]>;
  /** Temporary files (`.<hash>.….tmp`). */
  temporary: string[];
}

/**
 * The newest file per key hash among a shard's names, every file per hash, and the temporary
 * files.
 *
 * @internal
 */
export function newestFiles(names: readonly string[]): ShardListing {
  const newest = new Map<string, string>();
  const all = new Map<string, string[]>();
  const temporary: string[] = [];
  for (const name of names) {
    if (name.startsWith(".") && name.endsWith(".tmp")) {
      temporary.push(name);
      continue;
    }
    const match = MEMORY_FILE_NAME.exec(name);
    if (match === null) continue;
    const hash = match[1] as string;
    const known = newest.get(hash);
    if (known === undefined || known < name) newest.set(hash, name);
    const list = all.get(hash);
    if (list === undefined) all.set(hash, [name]);
    else list.push(name);
  }
  return { newest, all, temporary };
}
