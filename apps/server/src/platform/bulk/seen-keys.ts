/**
 * Remembers which keys a long stream has seen, in 4 bytes a key (32-bit FNV-1a hashes in an open-addressing table):
 * `add` answers false for a key seen before — or, rarely, for a new key whose hash collides — so a caller checks
 * only those against the database instead of every row. A million keys take 8 MB.
 */
export class SeenKeys {
  private table: Uint32Array;
  private count = 0;

  constructor(initialCapacity = 1 << 16) {
    let capacity = 1;
    while (capacity < initialCapacity) capacity <<= 1;
    this.table = new Uint32Array(capacity);
  }

  /** True when the key is new for sure; false when it (or a key with the same hash) was added before. */
  add(key: string): boolean {
    // 0 marks an empty slot, so a hash of 0 is stored as 1.
    const h = hashKey(key) || 1;
    if (this.count * 2 >= this.table.length) this.grow();
    const added = insert(this.table, h);
    if (added) this.count += 1;
    return added;
  }

  get size(): number {
    return this.count;
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    for (const h of old) if (h !== 0) insert(this.table, h);
  }
}

/** Linear probing; answers false when the hash is already there. */
function insert(table: Uint32Array, h: number): boolean {
  const mask = table.length - 1;
  for (let i = h & mask; ; i = (i + 1) & mask) {
    const slot = table[i]!;
    if (slot === 0) {
      table[i] = h;
      return true;
    }
    if (slot === h) return false;
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
