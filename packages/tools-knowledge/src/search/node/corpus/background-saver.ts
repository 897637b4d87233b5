import type { CorpusSidecar } from "./corpus-sidecar.js";
import type { CorpusState } from "./corpus-state.js";

/**
 * Writes the sidecar after a search's answer (a search never waits for it); saves asked for
 * while one runs are coalesced into one more. Warnings of a background save wait here to be told
 * with the next search.
 */
export class BackgroundSaver {
  readonly #sidecar: CorpusSidecar;
  readonly #currentState: () => CorpusState | undefined;
  /** Whether the in-memory index differs from the sidecar on disk. */
  #unsaved = false;
  #loop: Promise<boolean> | undefined;
  #again = false;
  readonly #laterWarnings: string[] = [];

  /**
   * @param sidecar - the sidecar file
   * @param currentState - the index to write, read when the write starts
   */
  constructor(sidecar: CorpusSidecar, currentState: () => CorpusState | undefined) {
    this.#sidecar = sidecar;
    this.#currentState = currentState;
  }

  /** Whether a write is in flight. */
  get writing(): boolean {
    return this.#loop !== undefined;
  }

  /** Whether there is something to write or a write is in flight. */
  get pending(): boolean {
    return this.#unsaved || this.#loop !== undefined;
  }

  /** Whether the in-memory index differs from the sidecar. */
  get unsaved(): boolean {
    return this.#unsaved;
  }

  /** Marks the in-memory index as changed since the last write. */
  markUnsaved(): void {
    this.#unsaved = true;
  }

  /** Forgets the changes not written (after `close`, which wrote them). */
  forget(): void {
    this.#unsaved = false;
  }

  /** Takes the warnings of background writes (each is told once). */
  takeWarnings(): string[] {
    return this.#laterWarnings.splice(0);
  }

  /**
   * Writes the index now, or joins the write in flight (then one more follows).
   *
   * @returns whether the last write succeeded
   */
  save(): Promise<boolean> {
    if (this.#loop !== undefined) {
      this.#again = true;
      return this.#loop;
    }
    const loop = (async () => {
      let written = false;
      do {
        this.#again = false;
        const current = this.#currentState();
        if (current === undefined || !this.#unsaved) break;
        this.#unsaved = false;
        written = await this.#sidecar.save(current, this.#laterWarnings);
        if (!written) this.#unsaved = true;
      } while (this.#again && this.#unsaved);
      return written;
    })().finally(() => {
      if (this.#loop === loop) this.#loop = undefined;
    });
    this.#loop = loop;
    return loop;
  }
}
