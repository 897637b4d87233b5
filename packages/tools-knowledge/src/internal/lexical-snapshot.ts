/**
 * The compact snapshot of a lexical index, and the way back.
 *
 * A snapshot holds ids and terms as JSON strings, and document numbers, field lengths and posting
 * lists as varints in base64 (`packed-integers.ts`): about a quarter of MiniSearch's own JSON,
 * whose posting lists are objects keyed by number strings. Discarded documents are left out, so a
 * snapshot is always a vacuumed index; the restored engine numbers the live documents densely.
 *
 * Posting lists name documents by MiniSearch's own document number (`numbers` gives each id's),
 * so the encoding of a term does not change when an unrelated document is discarded: a
 * {@link SnapshotTracker} keeps every term's encoded posting list and re-encodes, on the next
 * pack, only the terms a document was added to or discarded from since — a snapshot after one
 * changed file costs a few milliseconds of encoding instead of a pass over every posting.
 *
 * Packing reads MiniSearch 7.2's internal maps and restoring writes them (the version is pinned
 * exactly; tests prove the restored engine equal to one MiniSearch builds itself). Where the
 * internals are missing — another MiniSearch version — both fall back to the public `toJSON` /
 * `loadJS`, which are slower but give the same index.
 *
 * @internal
 */
import MiniSearch, { type AsPlainObject, type Options } from "minisearch";
import { encodeBase64, PackedIntegerReader, PackedIntegerWriter } from "./packed-integers.js";

/** Term → field number → document number → term frequency. */
export type TermPostings = Map<number, Map<number, number>>;

/** The JSON form of a snapshot (besides the caller's format / version fields). */
export interface PackedIndex {
  /** The live documents' ids, in ascending document number. */
  ids: string[];
  /**
   * Each id's document number, as gaps: the first number, then each next one minus the previous
   * minus one (all zeros for an index numbered densely). Varints, base64.
   */
  numbers: string;
  /** MiniSearch's running average length of each field (kept exactly, so scores do not drift). */
  average_field_lengths: number[];
  /** Per document (in the order of `ids`), the length of each field: varints, base64. */
  field_lengths: string;
  /** The terms, in the order of `postings`. */
  terms: string[];
  /**
   * Per term and per field: the number of documents, then per document the gap to the previous
   * document number (minus one) and the frequency. Varints, base64.
   */
  postings: string;
}

/** A MiniSearch 7.2 radix tree node: child edges by label, the value under `""`. */
type RadixNode = Map<string, RadixNode | TermPostings>;

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
  _index: Iterable<[string, TermPostings]> & {
    set(term: string, postings: TermPostings): unknown;
    fetch(term: string, create: () => TermPostings): TermPostings;
  };
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
    typeof index.fetch === "function" &&
    typeof (index as Iterable<unknown>)[Symbol.iterator] === "function"
  ) {
    return candidate as EngineInternals;
  }
  return undefined;
}

/** Every term of the index with its postings, walking MiniSearch's radix tree directly. */
function termsOf(index: EngineInternals["_index"]): Array<[string, TermPostings]> {
  const terms: Array<[string, TermPostings]> = [];
  const candidate = index as unknown as { _tree?: unknown; _prefix?: unknown };
  if (!(candidate._tree instanceof Map) || candidate._prefix !== "") {
    for (const entry of index) terms.push(entry);
    return terms;
  }
  const visit = (node: RadixNode, prefix: string) => {
    for (const [label, child] of node) {
      if (label === "") terms.push([prefix, child as TermPostings]);
      else visit(child as RadixNode, prefix + label);
    }
  };
  visit(candidate._tree as RadixNode, "");
  return terms;
}

const EMPTY = new Uint8Array(0);

/** One term as the tracker keeps it. */
export interface TrackedTerm {
  /** The term. */
  readonly term: string;
  /** Its posting map in the engine's tree (replaced when a vacuum deleted the term and it came back). */
  postings: TermPostings;
  /**
   * Where its encoded posting lists (live documents only) sit in the tracker's last packed bytes;
   * `-1`: to encode on the next pack.
   */
  offset: number;
  /** Their length in bytes (0: no live document). */
  length: number;
  /** Encoded during the current pack (dropped once copied). */
  fresh: Uint8Array | undefined;
  /** Dropped from the tracker (a vacuum deleted the term): the term needs a new entry. */
  forgotten: boolean;
}

/**
 * Follows one engine's changes so {@link SnapshotTracker.pack} re-encodes only what changed: every
 * term's encoded posting lists (live documents only) are kept until a document is added to the
 * term or a document holding it is discarded. Knowing the second needs each document's terms, so
 * the tracker also keeps, per live document, the terms it appears in.
 *
 * The engine must be changed only through {@link SnapshotTracker.postingsOf} /
 * {@link SnapshotTracker.firstOccurrence} (MiniSearch's `addTerm`, replaced),
 * {@link SnapshotTracker.discarding} (called before every `discard`) and vacuums announced with
 * {@link SnapshotTracker.vacuuming}. A vacuum changes no encoding — it drops only discarded
 * documents, which no encoding holds — but the terms it deletes (their posting maps emptied) must
 * be looked up again and left out.
 *
 * @internal
 */
export class SnapshotTracker {
  /** Every term → its entry (built from the tree on first use). */
  private registry: Map<string, TrackedTerm> | undefined;
  /** The same entries in a plain array, in the order snapshots list the terms. */
  private entries: TrackedTerm[] = [];
  /**
   * Per live document number, the terms it appears in; `undefined` until the first pack, which
   * encodes every term and learns them (nothing is encoded before, so nothing needs forgetting).
   */
  private documentTerms: Array<TrackedTerm[] | undefined> | undefined;
  /** The posting bytes of the last pack (where each entry's `offset` points). */
  private packed = EMPTY;
  /** Whether a vacuum may have deleted terms since the last pack. */
  private vacuumed = false;
  private currentDocument = -1;
  private currentTerms: TrackedTerm[] | undefined;
  private readonly scratch = new PackedIntegerWriter();
  private readonly createPostings = (): TermPostings => new Map();

  /** @param engine - the engine followed */
  constructor(private readonly engine: MiniSearch<never> | MiniSearch<unknown>) {}

  private internals(): EngineInternals {
    return internalsOf(this.engine) as EngineInternals;
  }

  private terms(): Map<string, TrackedTerm> {
    if (this.registry === undefined) {
      this.registry = new Map();
      for (const [term, postings] of termsOf(this.internals()._index)) {
        const entry: TrackedTerm = {
          term,
          postings,
          offset: -1,
          length: 0,
          fresh: undefined,
          forgotten: false,
        };
        this.registry.set(term, entry);
        this.entries.push(entry);
      }
    }
    return this.registry;
  }

  /**
   * The entry of a term, its posting map created in the tree when the term is new — without
   * walking the radix tree for a term seen before.
   *
   * @param term - the term
   * @returns its entry (`entry.postings` is in the engine's tree)
   */
  postingsOf(term: string): TrackedTerm {
    const terms = this.terms();
    let entry = terms.get(term);
    if (entry === undefined) {
      entry = {
        term,
        postings: this.internals()._index.fetch(term, this.createPostings),
        offset: -1,
        length: 0,
        fresh: undefined,
        forgotten: false,
      };
      terms.set(term, entry);
      this.entries.push(entry);
    } else if (this.vacuumed && entry.postings.size === 0) {
      // A vacuum deleted the term from the tree (a map in the tree is never empty; the next
      // pack forgets such entries).
      entry.postings = this.internals()._index.fetch(term, this.createPostings);
    }
    return entry;
  }

  /**
   * Whether an entry {@link SnapshotTracker.postingsOf} returned earlier is still the term's (its
   * caller may keep entries instead of looking terms up again); when not, ask `postingsOf` again.
   *
   * @param entry - an entry of this tracker
   * @returns `true` when `entry.postings` is the term's posting map in the engine's tree
   */
  isCurrent(entry: TrackedTerm): boolean {
    return !entry.forgotten && (!this.vacuumed || entry.postings.size > 0);
  }

  /**
   * Notes a document's first posting in a term's field (the term's encoding changes).
   *
   * @param document - the document number
   * @param entry - the term's entry
   */
  firstOccurrence(document: number, entry: TrackedTerm): void {
    entry.offset = -1;
    if (this.documentTerms === undefined) return;
    if (document !== this.currentDocument || this.currentTerms === undefined) {
      this.currentDocument = document;
      this.currentTerms = this.documentTerms[document] ??= [];
    }
    this.currentTerms.push(entry);
  }

  /**
   * Notes that a document is about to be discarded (the terms it holds change).
   *
   * @param id - the document id
   */
  discarding(id: string): void {
    const document = this.internals()._idToShortId.get(id);
    if (document === undefined || this.documentTerms === undefined) return;
    for (const entry of this.documentTerms[document] ?? []) entry.offset = -1;
    this.documentTerms[document] = undefined;
    if (document === this.currentDocument) this.currentTerms = undefined;
  }

  /** Notes that a vacuum starts (it may delete terms). */
  vacuuming(): void {
    this.vacuumed = true;
  }

  /**
   * Packs the live documents, re-encoding only the terms changed since the last pack.
   *
   * @param fieldCount - how many fields each document has
   * @returns the packed form
   */
  pack(fieldCount: number): PackedIndex {
    const internals = this.internals();
    const documentIds = internals._documentIds;
    const shortIds = [...documentIds.keys()];
    if (!isAscending(shortIds)) shortIds.sort((left, right) => left - right);
    let capacity = internals._nextId;
    for (const shortId of shortIds) if (shortId >= capacity) capacity = shortId + 1;
    const live = new Uint8Array(capacity);
    const ids: string[] = new Array(shortIds.length);
    const numbers = new PackedIntegerWriter();
    const lengths = new PackedIntegerWriter();
    const fieldLength = internals._fieldLength;
    let previous = -1;
    for (let position = 0; position < shortIds.length; position += 1) {
      const shortId = shortIds[position] as number;
      live[shortId] = 1;
      ids[position] = documentIds.get(shortId) as string;
      numbers.write(shortId - previous - 1);
      previous = shortId;
      const fieldLengths = fieldLength.get(shortId);
      for (let field = 0; field < fieldCount; field += 1) lengths.write(fieldLengths?.[field] ?? 0);
    }

    this.terms();
    // Forget the terms a vacuum deleted (checking every map only after a vacuum).
    if (this.vacuumed) {
      const registry = this.registry as Map<string, TrackedTerm>;
      this.entries = this.entries.filter((entry) => {
        if (entry.postings.size > 0) return true;
        registry.delete(entry.term);
        entry.forgotten = true;
        return false;
      });
      if (!(this.engine as { isVacuuming?: boolean }).isVacuuming) this.vacuumed = false;
    }
    // The first pack encodes every term and learns each document's terms.
    const building = this.documentTerms === undefined;
    const documentTerms: Array<TrackedTerm[] | undefined> | undefined = building
      ? new Array(capacity)
      : undefined;
    const terms: string[] = [];
    let bytes = 0;
    const entries = this.entries;
    for (const entry of entries) {
      if (building || entry.offset < 0) {
        entry.fresh = this.encode(entry, fieldCount, live, documentTerms);
        entry.length = entry.fresh.length;
      }
      if (entry.length === 0) continue; // only discarded documents, not yet vacuumed
      terms.push(entry.term);
      bytes += entry.length;
    }
    if (building) {
      this.documentTerms = documentTerms;
      this.currentDocument = -1;
      this.currentTerms = undefined;
    }
    // The new bytes: the unchanged terms copied from the last pack in runs, the others as encoded.
    const previousBytes = this.packed;
    const all = new Uint8Array(bytes);
    let offset = 0;
    let runStart = 0;
    let runEnd = 0;
    const flushRun = () => {
      if (runEnd > runStart)
        all.set(previousBytes.subarray(runStart, runEnd), offset - (runEnd - runStart));
      runStart = runEnd = 0;
    };
    for (const entry of entries) {
      const fresh = entry.fresh;
      if (fresh !== undefined) {
        flushRun();
        all.set(fresh, offset);
        entry.fresh = undefined;
      } else if (entry.length > 0) {
        if (entry.offset !== runEnd || runEnd === runStart) {
          flushRun();
          runStart = entry.offset;
        }
        runEnd = entry.offset + entry.length;
      }
      entry.offset = offset;
      offset += entry.length;
    }
    flushRun();
    this.packed = all;
    return {
      ids,
      numbers: numbers.toBase64(),
      average_field_lengths: [...internals._avgFieldLength],
      field_lengths: lengths.toBase64(),
      terms,
      postings: encodeBase64(all),
    };
  }

  /** One term's posting lists, live documents only ({@link EMPTY} when none is live). */
  private encode(
    entry: TrackedTerm,
    fieldCount: number,
    live: Uint8Array,
    documentTerms: Array<TrackedTerm[] | undefined> | undefined,
  ): Uint8Array {
    const postings = entry.postings;
    const writer = this.scratch;
    writer.reset();
    let any = false;
    for (let field = 0; field < fieldCount; field += 1) {
      const documents = postings.get(field);
      if (documents === undefined) {
        writer.write(0);
        continue;
      }
      let count = 0;
      let ordered = true;
      let last = -1;
      documents.forEach((_, document) => {
        if (live[document] !== 1) return; // discarded, not yet vacuumed
        count += 1;
        if (document < last) ordered = false;
        last = document;
      });
      writer.write(count);
      if (count === 0) continue;
      any = true;
      let pairs: Iterable<[number, number]> = documents;
      if (!ordered) pairs = [...documents].sort((left, right) => left[0] - right[0]);
      let previous = -1;
      for (const [document, frequency] of pairs) {
        if (live[document] !== 1) continue;
        writer.write(document - previous - 1);
        writer.write(frequency);
        previous = document;
        if (documentTerms === undefined) continue;
        const held = documentTerms[document];
        if (held === undefined) documentTerms[document] = [entry];
        else held.push(entry);
      }
    }
    return any ? writer.toBytes() : EMPTY;
  }
}

/**
 * The tracker of an engine, or `undefined` when the engine lacks MiniSearch 7.2's internals (its
 * snapshots then come from {@link packPublicEngine}).
 *
 * @param engine - the engine (empty or restored)
 * @returns the tracker
 * @internal
 */
export function createSnapshotTracker(
  engine: MiniSearch<never> | MiniSearch<unknown>,
): SnapshotTracker | undefined {
  return internalsOf(engine) === undefined ? undefined : new SnapshotTracker(engine);
}

interface EngineView {
  documentIds: Map<number, string>;
  fieldLength: Map<number, number[]>;
  averageFieldLength: number[];
  index: Iterable<[string, TermPostings]>;
}

/** MiniSearch's public JSON as maps (another MiniSearch version, and the tests' reference). */
function publicViewOf(engine: MiniSearch<never> | MiniSearch<unknown>): EngineView {
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
 * Packs an engine's live documents into a snapshot from MiniSearch's public JSON — the way for
 * another MiniSearch version, and the reference the tracked pack is tested against.
 *
 * @param engine - the MiniSearch engine
 * @param fieldCount - how many fields each document has
 * @returns the packed form
 * @internal
 */
export function packPublicEngine(
  engine: MiniSearch<never> | MiniSearch<unknown>,
  fieldCount: number,
): PackedIndex {
  const view = publicViewOf(engine);
  const shortIds = [...view.documentIds.keys()].sort((left, right) => left - right);
  const live = new Set(shortIds);
  const ids: string[] = [];
  const numbers = new PackedIntegerWriter();
  const lengths = new PackedIntegerWriter();
  let previous = -1;
  for (const shortId of shortIds) {
    ids.push(view.documentIds.get(shortId) as string);
    numbers.write(shortId - previous - 1);
    previous = shortId;
    const fieldLengths = view.fieldLength.get(shortId) ?? [];
    for (let field = 0; field < fieldCount; field += 1) lengths.write(fieldLengths[field] ?? 0);
  }
  const terms: string[] = [];
  const postings = new PackedIntegerWriter();
  for (const [term, fields] of view.index) {
    const lists = Array.from({ length: fieldCount }, (_, field) =>
      [...(fields.get(field) ?? new Map<number, number>())]
        .filter(([document]) => live.has(document))
        .sort((left, right) => left[0] - right[0]),
    );
    if (lists.every((list) => list.length === 0)) continue; // only discarded documents
    terms.push(term);
    for (const list of lists) {
      postings.write(list.length);
      let last = -1;
      for (const [document, frequency] of list) {
        postings.write(document - last - 1);
        postings.write(frequency);
        last = document;
      }
    }
  }
  return {
    ids,
    numbers: numbers.toBase64(),
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

/**
 * Restores a MiniSearch engine from a packed snapshot, checking every number on the way. The live
 * documents are numbered densely (0, 1, 2, … in the order of `ids`).
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
  const { ids, numbers, average_field_lengths: averages, field_lengths, terms, postings } = packed;
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
  if (
    typeof numbers !== "string" ||
    typeof field_lengths !== "string" ||
    typeof postings !== "string"
  )
    throw new Error("no packed data");
  if (!Array.isArray(terms) || !terms.every((term) => typeof term === "string"))
    throw new Error("no terms");

  // Snapshot document number → dense number.
  const snapshotNumbers = new PackedIntegerReader(numbers);
  const numberOf: number[] = new Array(ids.length);
  let largest = -1;
  for (let document = 0; document < ids.length; document += 1) {
    largest += 1 + snapshotNumbers.read();
    if (!Number.isSafeInteger(largest) || largest > 2 ** 32)
      throw new Error("bad document numbers");
    numberOf[document] = largest;
  }
  if (!snapshotNumbers.done) throw new Error("more document numbers than ids");
  const dense = new Int32Array(largest + 1).fill(-1);
  numberOf.forEach((number, document) => {
    dense[number] = document;
  });

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
        const number = previous + 1 + reader.read();
        const frequency = reader.read();
        const document = number <= largest ? (dense[number] as number) : -1;
        if (document < 0 || frequency < 1) throw new Error(`a malformed posting list of "${term}"`);
        documents.set(document, frequency);
        previous = number;
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
