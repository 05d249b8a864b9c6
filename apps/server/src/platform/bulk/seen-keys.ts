/**
 * Remembers which keys a long stream has seen, in 4 bytes a key (32-bit FNV-1a hashes in an open-addressing table),
 * and optionally the first row each hash was seen on (4 bytes more): `add` answers false for a key seen before — or,
 * rarely, for a new key whose hash collides — so a caller checks only those rows instead of every row. A million keys
 * take 8 MB (16 MB with their first rows).
 */
export class SeenKeys {
  private table: Uint32Array;
  private rows: Uint32Array | null;
  private count = 0;

  constructor(initialCapacity = 1 << 16, opts: { rows?: boolean } = {}) {
    let capacity = 1;
    while (capacity < initialCapacity) capacity <<= 1;
    this.table = new Uint32Array(capacity);
    this.rows = opts.rows ? new Uint32Array(capacity) : null;
  }

  /** True when the key is new for sure; false when it (or a key with the same hash) was added before. */
  add(key: string): boolean {
    return this.addRow(key, 0) === 0;
  }

  /**
   * Adds the key as seen on `row` (≥ 1): answers 0 when it is new for sure, else the row it (or a key with the same
   * hash) was first seen on — or 1 when the rows are not kept.
   */
  addRow(key: string, row: number): number {
    // 0 marks an empty slot, so a hash of 0 is stored as 1.
    const h = hashKey(key) || 1;
    if (this.count * 2 >= this.table.length) this.grow();
    const slot = findSlot(this.table, h);
    if (this.table[slot] === h) return this.rows ? this.rows[slot]! : 1;
    this.table[slot] = h;
    if (this.rows) this.rows[slot] = row;
    this.count += 1;
    return 0;
  }

  get size(): number {
    return this.count;
  }

  private grow(): void {
    const old = this.table;
    const oldRows = this.rows;
    this.table = new Uint32Array(old.length * 2);
    this.rows = oldRows ? new Uint32Array(old.length * 2) : null;
    for (let i = 0; i < old.length; i += 1) {
      const h = old[i]!;
      if (h === 0) continue;
      const slot = findSlot(this.table, h);
      this.table[slot] = h;
      if (this.rows) this.rows[slot] = oldRows![i]!;
    }
  }
}

/** Linear probing: the slot that holds `h`, or the empty slot where it goes. */
function findSlot(table: Uint32Array, h: number): number {
  const mask = table.length - 1;
  for (let i = h & mask; ; i = (i + 1) & mask) {
    const slot = table[i]!;
    if (slot === 0 || slot === h) return i;
  }
}

/** 32-bit FNV-1a over the UTF-16 code units. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
