// What a host test file makes and must take down: workspaces (a server's Root, manifest and
// artifacts, kept for the file and removed at its end; processes still mentioning their Root
// are killed after each test), host homes and anything else closed after each test.

import { afterAll, afterEach } from "vitest";
import { makeHostHome, type HostHome } from "./home.js";
import { killProcessesMentioning, makeWorkspace, type Workspace } from "./server.js";

export interface HostResources {
  /** A workspace for `label`'s server with extra `serve` flags. */
  workspace(flags?: string[]): Workspace;
  /** A fresh host home, removed after the test. */
  home(): HostHome;
  /** Runs `close` after the test (a mock model server, say); returns `made`. */
  afterTest<T>(made: T, close: (made: T) => Promise<void> | void): T;
}

/** Registers the file's afterEach/afterAll hooks; call once at the top of a host test file. */
export function hostResources(label: string): HostResources {
  const cleanups: (() => Promise<void> | void)[] = [];
  const workspaces: Workspace[] = [];
  afterEach(async () => {
    for (const made of workspaces) killProcessesMentioning(made.root);
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });
  afterAll(async () => {
    await Promise.all(workspaces.splice(0).map((made) => made.dispose()));
  });
  const afterTest = <T>(made: T, close: (made: T) => Promise<void> | void): T => {
    cleanups.push(() => close(made));
    return made;
  };
  return {
    workspace(flags = []) {
      const made = makeWorkspace(label, flags);
      workspaces.push(made);
      return made;
    },
    home: () => afterTest(makeHostHome(label), (made) => made.dispose()),
    afterTest,
  };
}
