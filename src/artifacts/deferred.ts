// An artifact store opened in the background: a server answers `initialize` without waiting for
// the store's directory checks and recovery sweep, which only the first large output needs.

import type { ArtifactBackend } from "./backend.js";
import { openArtifactStore, type ArtifactStore, type ArtifactStoreOptions } from "./store.js";

/** Starts opening the store now and returns a backend whose calls wait for it. */
export function openArtifactStoreInBackground(options: ArtifactStoreOptions): ArtifactBackend & {
  ready: Promise<ArtifactStore>;
} {
  const ready = openArtifactStore(options);
  return {
    ready,
    async createStaging() {
      return (await ready).createStaging();
    },
    async read(id, stream, offset, limit, encoding) {
      return (await ready).read(id, stream, offset, limit, encoding);
    },
    async openReader(id, stream) {
      return (await ready).openReader(id, stream);
    },
    async close() {
      await (await ready).close();
    },
  };
}
