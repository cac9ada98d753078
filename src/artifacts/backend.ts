// The artifact store as its users see it: a spool source plus paging of published artifacts.

import type {
  OutputEncoding,
  OutputPage,
  SpoolSource,
  StreamName,
  StreamReader,
} from "../output/types.js";

/** The artifact store as the runtime uses it (SPEC §3.3, §8). */
export interface ArtifactBackend extends SpoolSource {
  read(
    id: string,
    stream: StreamName,
    offset: number,
    limit: number,
    encoding: OutputEncoding,
  ): Promise<OutputPage>;
  /** Raw read access to a published stream (grep); ARTIFACT_NOT_FOUND like `read`. */
  openReader(id: string, stream: StreamName): Promise<StreamReader>;
  close(): Promise<void>;
}
