/**
 * The compact snapshot of a lexical index, and the way back.
 *
 * A snapshot holds ids and terms as JSON strings, and field lengths and posting lists as varints in
 * base64 (`packed-integers.ts`): about a quarter of MiniSearch's own JSON, whose posting lists are
 * objects keyed by number strings. Discarded documents are left out and the live ones numbered
 * densely, so a snapshot is always a vacuumed index.
 *
 * Packing reads MiniSearch 7.2's internal maps and restoring writes them (the version is pinned
 * exactly; tests prove the restored engine equal to one MiniSearch builds itself). Where the
 * internals are missing — another MiniSearch version — both fall back to the public `toJSON` /
 * `loadJS`, which are slower but give the same index.
 *
 * @internal
 */
import MiniSearch, { type AsPlainObject, type Options } from "minisearch";
import { PackedIntegerReader, PackedIntegerWriter } from "./packed-integers.js";

/** Term → field number → document number → term frequency. */
export type TermPostings = Map<number, Map<number, number>>;

/** The JSON form of a snapshot (besides the caller's format / version fields). */
export interface PackedIndex {
  /** Document number → id. */
  ids: string[];
  /** MiniSearch's running average length of each field (kept exactly, so scores do not drift). */
  average_field_lengths: number[];
  /** Per document, the length of each field: varints, base64. */
  field_lengths: string;
  /** The terms, in the order of `postings`. */
  terms: string[];
  /**
   * Per term and per field: the number of documents, then per document the gap to the previous
   * document number (minus one) and the frequency. Varints, base64.
   */
  postings: string;
}

/** The parts of MiniSearch 7.2 read and written here. */
interface EngineInternals {
  _documentCount: number;
  _nextId: number;
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _storedFields: Map<number, unknown>;
  _dirtCount: number;
  _index: Iterable<[string, TermPostings]> & { set(term: string, postings: TermPostings): unknown };
}

function internalsOf(engine: MiniSearch<never> | MiniSearch<unknown>): EngineInternals | undefined {
  const candidate = engine as unknown as Partial<EngineInternals>;
  const index = candidate._index as Partial<EngineInternals["_index"]> | undefined;
  if (
    candidate._documentIds instanceof Map &&
    candidate._idToShortId instanceof Map &&
    candidate._fieldLength instanceof Map &&
    candidate._storedFields instanceof Map &&
    Array.isArray(candidate._avgFieldLength) &&
    typeof candidate._documentCount === "number" &&
    typeof candidate._nextId === "number" &&
    typeof candidate._dirtCount === "number" &&
    index !== undefined &&
    typeof index.set === "function" &&
    typeof (index as Iterable<unknown>)[Symbol.iterator] === "function"
  ) {
    return candidate as EngineInternals;
  }
  return undefined;
}

interface EngineView {
  documentIds: Map<number, string>;
  fieldLength: Map<number, number[]>;
  averageFieldLength: number[];
  index: Iterable<[string, TermPostings]>;
}

function viewOf(engine: MiniSearch<never> | MiniSearch<unknown>): EngineView {
  const internals = internalsOf(engine);
  if (internals !== undefined) {
    return {
      documentIds: internals._documentIds,
      fieldLength: internals._fieldLength,
      averageFieldLength: internals._avgFieldLength,
      index: internals._index,
    };
  }
  const plain = engine.toJSON() as unknown as {
    documentIds: Record<string, string>;
    fieldLength: Record<string, number[]>;
    averageFieldLength: number[];
    index: Array<[string, Record<string, Record<string, number>>]>;
  };
  const numeric = <T>(object: Record<string, T>) =>
    new Map(Object.entries(object).map(([key, value]) => [Number(key), value] as const));
  return {
    documentIds: numeric(plain.documentIds),
    fieldLength: numeric(plain.fieldLength),
    averageFieldLength: plain.averageFieldLength,
    index: plain.index.map(([term, fields]) => [
      term,
      new Map(
        Object.entries(fields).map(
          ([field, documents]) => [Number(field), numeric(documents)] as const,
        ),
      ),
    ]),
  };
}

/**
 * Packs an engine's live documents into a snapshot.
 *
 * @param engine - the MiniSearch engine
 * @param fieldCount - how many fields each document has
 * @returns the packed form
 * @internal
 */
export function packEngine(
  engine: MiniSearch<never> | MiniSearch<unknown>,
  fieldCount: number,
): PackedIndex {
  const view = viewOf(engine);
  const shortIds = [...view.documentIds.keys()];
  if (!isAscending(shortIds)) shortIds.sort((left, right) => left - right);
  const dense = new Map<number, number>();
  const ids: string[] = [];
  const lengths = new PackedIntegerWriter();
  for (const shortId of shortIds) {
    dense.set(shortId, ids.length);
    ids.push(view.documentIds.get(shortId) as string);
    const fieldLengths = view.fieldLength.get(shortId) ?? [];
    for (let field = 0; field < fieldCount; field += 1) lengths.write(fieldLengths[field] ?? 0);
  }
  const terms: string[] = [];
  const postings = new PackedIntegerWriter();
  const lists: number[][] = Array.from({ length: fieldCount }, () => []);
  for (const [term, fields] of view.index) {
    let any = false;
    for (let field = 0; field < fieldCount; field += 1) {
      const list = lists[field] as number[];
      list.length = 0;
      const documents = fields.get(field);
      if (documents === undefined) continue;
      let ordered = true;
      for (const [shortId, frequency] of documents) {
        const document = dense.get(shortId);
        if (document === undefined) continue; // discarded, not yet vacuumed
        if (list.length > 0 && document < (list[list.length - 2] as number)) ordered = false;
        list.push(document, frequency);
      }
      if (!ordered) sortPairs(list);
      if (list.length > 0) any = true;
    }
    if (!any) continue;
    terms.push(term);
    for (const list of lists) {
      postings.write(list.length / 2);
      let previous = -1;
      for (let position = 0; position < list.length; position += 2) {
        const document = list[position] as number;
        postings.write(document - previous - 1);
        postings.write(list[position + 1] as number);
        previous = document;
      }
    }
  }
  return {
    ids,
    average_field_lengths: [...view.averageFieldLength],
    field_lengths: lengths.toBase64(),
    terms,
    postings: postings.toBase64(),
  };
}

function isAscending(values: readonly number[]): boolean {
  for (let index = 1; index < values.length; index += 1) {
    if ((values[index] as number) < (values[index - 1] as number)) return false;
  }
  return true;
}

function sortPairs(list: number[]): void {
  const pairs: Array<[number, number]> = [];
  for (let position = 0; position < list.length; position += 2) {
    pairs.push([list[position] as number, list[position + 1] as number]);
  }
  pairs.sort((left, right) => left[0] - right[0]);
  list.length = 0;
  for (const [document, frequency] of pairs) list.push(document, frequency);
}

/**
 * Restores a MiniSearch engine from a packed snapshot, checking every number on the way.
 *
 * @param packed - the snapshot's fields (unchecked input)
 * @param fields - the field names, in field-number order
 * @param options - the engine's options (the same as when it was packed)
 * @returns the engine
 * @throws {Error} naming what is damaged, when anything is
 * @internal
 */
export function restoreEngine<T>(
  packed: Record<string, unknown>,
  fields: readonly string[],
  options: Options<T>,
): MiniSearch<T> {
  const { ids, average_field_lengths: averages, field_lengths, terms, postings } = packed;
  const fieldCount = fields.length;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string"))
    throw new Error("no document ids");
  const idToNumber = new Map<string, number>();
  for (const id of ids as string[]) idToNumber.set(id, idToNumber.size);
  if (idToNumber.size !== ids.length) throw new Error("a document id appears twice");
  if (
    !Array.isArray(averages) ||
    // An index that never held a document has no averages yet.
    (averages.length !== fieldCount && averages.length !== 0) ||
    !averages.every(
      (average) => typeof average === "number" && Number.isFinite(average) && average >= 0,
    )
  ) {
    throw new Error("bad average field lengths");
  }
  if (typeof field_lengths !== "string" || typeof postings !== "string")
    throw new Error("no packed data");
  if (!Array.isArray(terms) || !terms.every((term) => typeof term === "string"))
    throw new Error("no terms");

  const documentIds = new Map<number, string>();
  const fieldLength = new Map<number, number[]>();
  const lengths = new PackedIntegerReader(field_lengths);
  for (let document = 0; document < ids.length; document += 1) {
    documentIds.set(document, ids[document] as string);
    const values: number[] = new Array(fieldCount);
    for (let field = 0; field < fieldCount; field += 1) values[field] = lengths.read();
    fieldLength.set(document, values);
  }
  if (!lengths.done) throw new Error("more field lengths than documents");

  const index: Array<[string, TermPostings]> = [];
  const reader = new PackedIntegerReader(postings);
  for (const term of terms as string[]) {
    const termPostings: TermPostings = new Map();
    for (let field = 0; field < fieldCount; field += 1) {
      const count = reader.read();
      if (count > ids.length)
        throw new Error(`a posting list of "${term}" is longer than the index`);
      if (count === 0) continue;
      const documents = new Map<number, number>();
      let previous = -1;
      for (let position = 0; position < count; position += 1) {
        const document = previous + 1 + reader.read();
        const frequency = reader.read();
        if (document >= ids.length || frequency < 1)
          throw new Error(`a malformed posting list of "${term}"`);
        documents.set(document, frequency);
        previous = document;
      }
      termPostings.set(field, documents);
    }
    if (termPostings.size === 0) throw new Error(`the term "${term}" has no postings`);
    index.push([term, termPostings]);
  }
  if (!reader.done) throw new Error("more postings than terms");

  const plain = {
    documentCount: ids.length,
    nextId: ids.length,
    documentIds: {},
    fieldIds: Object.fromEntries(fields.map((field, position) => [field, position])),
    fieldLength: {},
    averageFieldLength: averages as number[],
    storedFields: {},
    dirtCount: 0,
    index: [],
    serializationVersion: 2,
  };
  const engine = MiniSearch.loadJS<T>(plain as unknown as AsPlainObject, options);
  const internals = internalsOf(engine as MiniSearch<unknown>);
  if (internals !== undefined) {
    internals._documentIds = documentIds;
    internals._idToShortId = idToNumber;
    internals._fieldLength = fieldLength;
    for (const [term, termPostings] of index) internals._index.set(term, termPostings);
    return engine;
  }
  // Another MiniSearch version: the public (slower) way.
  const object = <V>(map: Map<number, V>) => Object.fromEntries(map);
  return MiniSearch.loadJS<T>(
    {
      ...plain,
      documentIds: object(documentIds),
      fieldLength: object(fieldLength),
      index: index.map(([term, termPostings]) => [
        term,
        Object.fromEntries(
          [...termPostings].map(([field, documents]) => [field, object(documents)]),
        ),
      ]),
    } as unknown as AsPlainObject,
    options,
  );
}
