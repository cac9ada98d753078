// Reads a child's pipe into one reused buffer (SPEC §16: 100 MiB to stdout in a few MiB). A pipe
// read the usual way hands out a fresh 64 KiB Buffer per read, and those pile up in
// `arrayBuffers` until a scavenge; net.Socket's documented `onread` option reads into one buffer
// instead, but only for a socket built with it. Node gives a child's pipe to the parent as a
// net.Socket it built itself, so the pipe's handle is moved to a socket built with `onread`.
// `_handle` is not public API: every step is checked, and where one does not hold (another Node,
// data already buffered, an ended pipe) the caller reads the stream the usual way. Worth the risk
// because the 64 KiB Buffers per read are what grows the server's RSS on 100 MiB outputs (SPEC §16
// row "100 MiB to stdout"). test/pipe-reader.test.ts pins the effect (one buffer for every read,
// every byte once and in order, the takeover happening at all on this Node) and the fallback.

import net from "node:net";
import type { Readable } from "node:stream";

/** Bytes read per system call: the pipe's default capacity on Linux. */
export const PIPE_READ_BUFFER_BYTES = 64 * 1024;
/** Read buffers kept for later executions (each execution takes two while it runs). */
const POOL_LIMIT = 16;
const pool: Buffer[] = [];

/** What a libuv stream handle must offer for the takeover. */
interface StreamHandle {
  readStart(): number;
  readStop(): number;
  useUserBuffer(buffer: Uint8Array): void;
}

type HandleOwner = Readable & { _handle?: unknown };

/** A pipe read into a reused buffer. */
export interface PipeReader {
  /** Resolves at the pipe's end, or once it is destroyed or fails. */
  readonly done: Promise<void>;
  /** Reading stopped because `onBytes` returned false: starts it again. */
  resume(): void;
  /** Closes the pipe (the server gives up on it: PIPES_HELD_OPEN, shutdown). */
  destroy(): void;
}

/** Whether a value looks like a libuv stream handle that can read into a user buffer. */
function isStreamHandle(value: unknown): value is StreamHandle {
  const handle = value as Partial<StreamHandle> | null | undefined;
  return (
    typeof handle === "object" &&
    handle !== null &&
    typeof handle.readStart === "function" &&
    typeof handle.readStop === "function" &&
    typeof handle.useUserBuffer === "function"
  );
}

/**
 * Takes over `readable` (a child's stdout or stderr, right after spawn): `onBytes` gets a view of
 * the reused buffer, valid only during the call; returning false pauses reading until
 * `resume()`. Returns undefined, leaving `readable` untouched, when the takeover is not possible.
 */
export function readIntoReusedBuffer(
  readable: Readable,
  onBytes: (view: Buffer) => boolean,
): PipeReader | undefined {
  const old = readable as HandleOwner;
  const handle = old._handle;
  const state = readable.readableLength > 0 || readable.readableEnded || readable.destroyed;
  if (!(readable instanceof net.Socket) || state || !isStreamHandle(handle)) return undefined;
  const buffer = pool.pop() ?? Buffer.allocUnsafeSlow(PIPE_READ_BUFFER_BYTES);
  let socket: net.Socket;
  try {
    socket = new net.Socket({
      handle,
      readable: true,
      writable: false,
      onread: { buffer, callback: (nread: number) => onBytes(buffer.subarray(0, nread)) },
    } as net.SocketConstructorOpts);
  } catch {
    pool.push(buffer);
    return undefined;
  }
  // The old socket lets go of the handle (it must not close it) and closes, so the child's
  // 'close' still sees all its pipes closed.
  old._handle = null;
  readable.destroy();
  const done = new Promise<void>((resolve) => {
    let released = false;
    const finish = () => {
      if (!released && pool.length < POOL_LIMIT) pool.push(buffer);
      released = true;
      resolve();
    };
    socket.once("close", finish);
    socket.on("error", () => socket.destroy());
    socket.once("end", () => socket.destroy());
  });
  return {
    done,
    resume: () => {
      if (!socket.destroyed) socket.resume();
    },
    destroy: () => socket.destroy(),
  };
}
