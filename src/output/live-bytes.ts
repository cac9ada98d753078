// Where a running snapshot reads a range of one stream (SPEC §19 Revision 3): from memory when the
// projection still holds the bytes, else from the spool file once the bytes have reached it.

import { SNAPSHOT_SPOOL_WAIT_MS } from "../limits.js";
import type { StreamProjection } from "./projection.js";
import type { RangeBytes } from "./range-projection.js";
import type { Spool, StreamName } from "./types.js";

/** Resolves true once `bytes` of the stream are in the spool file, false after the bound. */
function spooled(spool: Spool, stream: StreamName, bytes: number): Promise<boolean> {
  if (spool.spooledBytes(stream) >= bytes) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (reached: boolean) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(reached);
    };
    const timer = setTimeout(() => finish(false), SNAPSHOT_SPOOL_WAIT_MS);
    const unsubscribe = spool.onFlushed(() => {
      if (spool.spooledBytes(stream) >= bytes) finish(true);
    });
  });
}

/** Reads from the spool; undefined when it cannot (discarded, capped, unavailable). */
async function fromSpool(
  spool: Spool,
  stream: StreamName,
  position: number,
  size: number,
): Promise<Buffer | undefined> {
  if (!(await spooled(spool, stream, position + size))) return undefined;
  const reader = await spool.openReader(stream).catch(() => undefined);
  if (!reader) return undefined;
  try {
    return await reader.read(position, size);
  } catch {
    return undefined;
  } finally {
    await reader.close().catch(() => {});
  }
}

/** One stream's bytes for a snapshot: memory first, the current spool (if any) otherwise. */
export function liveBytes(
  projection: StreamProjection,
  spool: () => Spool | undefined,
  stream: StreamName,
): RangeBytes {
  return {
    lossy: (final) => projection.lossy(final),
    read: async (position, size) => {
      const memory = projection.copyOf(position, size);
      if (memory) return memory;
      const current = spool();
      return current ? fromSpool(current, stream, position, size) : undefined;
    },
  };
}
