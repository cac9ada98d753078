// The evolving keys of a seal (SPEC §22.1), by index, for `audit verify --key`. A long log needs
// one HMAC per index just for the keys; a worker thread derives them ahead into shared memory
// while the main thread parses and checks lines (§16: verify ≥ 50 MB/s), so a key costs the main
// thread a read. Short chains, and indexes past the precomputed range, are derived inline.

import { Worker } from "node:worker_threads";
import { evolve, SEAL_KEY_BYTES } from "./seal-keys.js";

/** Below this many keys the worker's start costs more than it saves. */
const WORKER_MIN_KEYS = 20_000;
/** At most this many keys are kept in shared memory (32 bytes each: 64 MiB). */
const MAX_SHARED_KEYS = 2_000_000;
/** The worker publishes its progress every this many keys. */
const PUBLISH_EVERY = 256;
/** How long one wait for the worker may block before the progress is read again. */
const WAIT_SLICE_MS = 100;
const HEADER_BYTES = 8;

const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const { createHmac } = require("node:crypto");
const { shared, count, first, every, size, header } = workerData;
const progress = new Int32Array(shared, 0, 1);
const keys = new Uint8Array(shared, header);
let key = Buffer.from(first);
for (let i = 0; i < count; i++) {
  keys.set(key, i * size);
  if ((i + 1) % every === 0 || i === count - 1) {
    Atomics.store(progress, 0, i + 1);
    Atomics.notify(progress, 0);
  }
  key = createHmac("sha256", key).update("evolve").digest();
}
`;

export class KeyChain {
  private readonly shared: SharedArrayBuffer | undefined;
  private readonly progress: Int32Array | undefined;
  private readonly worker: Worker | undefined;
  private readonly count: number;
  /** The last key derived inline, and its index. */
  private cachedIndex: number;
  private cachedKey: Buffer;

  /** `k1` is the key of index 0; `expected` how many keys the log will likely need. */
  constructor(
    private readonly k1: Buffer,
    expected: number,
  ) {
    this.cachedIndex = 0;
    this.cachedKey = k1;
    this.count = expected >= WORKER_MIN_KEYS ? Math.min(expected, MAX_SHARED_KEYS) : 0;
    if (this.count === 0) return;
    this.shared = new SharedArrayBuffer(HEADER_BYTES + this.count * SEAL_KEY_BYTES);
    this.progress = new Int32Array(this.shared, 0, 1);
    const workerData = {
      shared: this.shared,
      count: this.count,
      first: k1,
      every: PUBLISH_EVERY,
      size: SEAL_KEY_BYTES,
      header: HEADER_BYTES,
    };
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    this.worker.unref();
  }

  /** The key that seals `index`. */
  keyFor(index: number): Buffer {
    if (index < this.count) {
      const progress = this.progress!;
      for (let done = Atomics.load(progress, 0); done <= index; done = Atomics.load(progress, 0)) {
        Atomics.wait(progress, 0, done, WAIT_SLICE_MS);
      }
      return Buffer.from(this.shared!, HEADER_BYTES + index * SEAL_KEY_BYTES, SEAL_KEY_BYTES);
    }
    // Inline, from the last shared key (or k1) or from the last inline one.
    const base = this.count > 0 ? this.count - 1 : 0;
    if (index < this.cachedIndex || this.cachedIndex < base) {
      this.cachedIndex = base;
      this.cachedKey = this.count > 0 ? Buffer.from(this.keyFor(base)) : this.k1;
    }
    for (; this.cachedIndex < index; this.cachedIndex++) this.cachedKey = evolve(this.cachedKey);
    return this.cachedKey;
  }

  /** Stops the worker if it still runs. */
  close(): void {
    void this.worker?.terminate();
  }
}
