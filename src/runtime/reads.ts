// Reads of output (SPEC §3.3, §19): pages and searches of a published artifact (`id`) or of a
// handed-out execution (`executionId`, running or ended).

import { CommandError } from "../errors.js";
import type { GrepPage } from "../search/grep.js";
import type { HandleRegistry } from "./handles.js";
import { readLivePage } from "./live.js";
import type { ArtifactBackend } from "./ports.js";
import { searchStream, type GrepRequest } from "./search.js";
import type { OutputEncoding, OutputPage, StreamName } from "./types.js";
import { checkWait } from "./validate-request.js";

/** What system_output may ask for (exactly one of id / executionId). */
export interface OutputRequest {
  id?: string;
  executionId?: string;
  stream: StreamName;
  offset: number;
  limit: number;
  encoding: OutputEncoding;
  waitMs?: number;
  /** Search mode (§3.3) instead of a page. */
  grep?: GrepRequest;
}

function storeOff(): CommandError {
  return new CommandError("ARTIFACT_NOT_FOUND", "no artifact: the artifact store is off");
}

/** Pages or searches one stream, as system_output asks. */
export async function readOutput(
  request: OutputRequest,
  handles: HandleRegistry,
  artifacts: ArtifactBackend | undefined,
  signal?: AbortSignal,
): Promise<OutputPage | GrepPage> {
  const { stream, offset, limit, encoding } = request;
  if ((request.id === undefined) === (request.executionId === undefined)) {
    throw new CommandError(
      "INVALID_REQUEST",
      "system_output takes exactly one of id (an artifact) or executionId (a running handle)",
    );
  }
  if (request.executionId !== undefined) {
    const execution = handles.get(request.executionId);
    if (request.grep) {
      return searchStream(request.grep, stream, offset, execution.id, () =>
        execution.liveOutput.openReader(stream, execution.done),
      );
    }
    const waitMs = checkWait(request.waitMs) ?? 0;
    return readLivePage(execution, stream, offset, limit, encoding, waitMs, signal);
  }
  if (!artifacts) throw storeOff();
  const id = request.id!;
  if (request.grep) {
    return searchStream(request.grep, stream, offset, id, () => artifacts.openReader(id, stream));
  }
  return artifacts.read(id, stream, offset, limit, encoding);
}
