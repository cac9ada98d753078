// What a Command Runtime is built from: the resolved catalog, roots and settings, and the stage
// backends the composition root wires in.

import type { AuditTrail } from "../policy/audit-trail.js";
import type { RulesPolicyReport } from "../policy/enforceability.js";
import type { PolicyGate } from "../policy/gate.js";
import type { Launcher } from "../confinement/index.js";
import type { ProgramCatalog } from "../programs/catalog.js";
import type { Root } from "../roots/roots.js";
import type { RuntimeSettings } from "./config.js";
import type { ArtifactBackend, NodeLauncher } from "./ports.js";

/** Everything a CommandRuntime needs. */
export interface RuntimeOptions {
  catalog: ProgramCatalog;
  roots: Root[];
  settings: RuntimeSettings;
  serverName: string;
  serverVersion: string;
  artifacts?: ArtifactBackend;
  node?: NodeLauncher;
  platform?: NodeJS.Platform;
  /** Argument rules, approvals and the audit log (§21, §22). */
  policy?: PolicyGate;
  /** §21.1: whether the rules can hold (system_environment.policy); absent: computed. */
  rulesPolicy?: RulesPolicyReport;
  /** The audit log, when one is on (reported by system_environment). */
  audit?: AuditTrail;
  /** The confinement stage (§20); absent when no program is confined. */
  confinement?: Launcher;
  /** Told about every spawned process group and its end (crash-safe registry, §19). */
  groups?: GroupTracker;
}

/** The crash-safe registry as the runtime drives it; close() ends it with the runtime. */
export interface GroupTracker {
  add(pid: number): void;
  remove(pid: number): void;
  persist(): Promise<void>;
  close(): Promise<void>;
}
