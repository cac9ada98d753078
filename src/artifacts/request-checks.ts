// The checks every artifact read makes before it touches the disk (SPEC §3.3, §8): a well-formed
// id (anything else is ARTIFACT_NOT_FOUND without a filesystem lookup) and a known stream.

import { CommandError, quoteValue } from "../errors.js";
import { isArtifactId } from "./layout.js";

export function checkId(id: unknown): void {
  if (!isArtifactId(id)) {
    throw notFound(`expected an artifact id (32 lowercase hex), got ${quoteValue(id)}`);
  }
}

export function checkStream(stream: unknown): void {
  if (stream !== "stdout" && stream !== "stderr") {
    throw new CommandError(
      "INVALID_OUTPUT_PAGE",
      `expected stream "stdout" or "stderr", got ${quoteValue(stream)}`,
    );
  }
}

export function notFound(message: string): CommandError {
  return new CommandError("ARTIFACT_NOT_FOUND", message);
}
