// The artifact store as its users see it: a spool source plus paging of published artifacts.

import type { OutputEncoding, OutputPage, SpoolSource, StreamName } from "../output/types.js";

/** The artifact store as the runtime uses it (SPEC §3.3, §8). */
export interface ArtifactBackend extends SpoolSource {
  read(
    id: string,
    stream: StreamName,
    offset: number,
    limit: number,
    encoding: OutputEncoding,
  ): Promise<OutputPage>;
  close(): Promise<void>;
}
