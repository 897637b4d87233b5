/** A small cache with a time-to-live and a size bound (oldest evicted first). */
export class TtlCache<Value> {
  private readonly entries = new Map<string, { value: Value; expires: number }>();

  /**
   * @param ttlMs - how long an entry lives (`0` disables the cache)
   * @param maxEntries - most entries kept
   * @param now - the clock
   */
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * @param key - the key
   * @returns the live value or `undefined`
   */
  get(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * @param key - the key
   * @param value - the value
   */
  set(key: string, value: Value): void {
    if (this.ttlMs <= 0 || this.maxEntries <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
