// Reused scratch buffers for large, short-lived byte blocks (SPEC §16 paging): a 1 MiB page read
// and the ~2.8 MB message line that carries it. Allocated fresh for every page, each block costs
// page faults when it is first written, and counts as external memory until a garbage collection
// frees it, which makes V8 run full collections over the whole heap every few pages. A block is
// taken, used and given back; a block that is out is never handed out again until it is back.

/** Blocks kept for reuse; more would only hold memory for concurrent pages that rarely happen. */
const KEPT_BLOCKS = 2;
/** Larger blocks serve their one use and are not kept (no page §3.3 allows needs one). */
const MAX_KEPT_BYTES = 8 * 1024 * 1024;

export class ScratchBuffers {
  private readonly free: ArrayBuffer[] = [];

  /** A buffer of exactly `size` uninitialised bytes; hand it back with `give` when done. */
  take(size: number): Buffer {
    const index = this.free.findIndex((block) => block.byteLength >= size);
    if (index === -1) return Buffer.allocUnsafeSlow(size);
    const [block] = this.free.splice(index, 1);
    return Buffer.from(block!, 0, size);
  }

  /** Gives back a buffer from `take`; its bytes must not be used afterwards. */
  give(buffer: Buffer): void {
    const block = buffer.buffer as ArrayBuffer;
    if (block.byteLength > MAX_KEPT_BYTES || this.free.includes(block)) return;
    if (this.free.length >= KEPT_BLOCKS) {
      // keep the larger blocks: a smaller one can be served from them, not the other way round
      this.free.sort((a, b) => a.byteLength - b.byteLength);
      if (this.free[0]!.byteLength >= block.byteLength) return;
      this.free.shift();
    }
    this.free.push(block);
  }
}
