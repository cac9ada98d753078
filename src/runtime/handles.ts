// Executions that returned a running handle: kept while running, and after they end for a
// limited time and number, so that system_wait / system_output / system_cancel find them (§19).

import { CommandError, quoteValue } from "../errors.js";
import { HANDLE_RETENTION_COUNT, HANDLE_RETENTION_MS } from "../limits.js";
import type { Execution } from "./execution.js";

interface Entry {
  execution: Execution;
  endedAt?: number;
  expiry?: NodeJS.Timeout;
}

/** The registry of handed-out executions. */
export class HandleRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly retentionMs = HANDLE_RETENTION_MS,
    private readonly retentionCount = HANDLE_RETENTION_COUNT,
  ) {}

  /** Keeps an execution that handed out a running handle. */
  add(execution: Execution): void {
    if (this.entries.has(execution.id)) return;
    const entry: Entry = { execution };
    this.entries.set(execution.id, entry);
    void execution.result.then(
      () => this.ended(entry),
      () => this.ended(entry),
    );
  }

  /** The execution behind an id, or EXECUTION_NOT_FOUND. */
  get(id: string): Execution {
    const entry = this.entries.get(id);
    if (!entry) {
      throw new CommandError(
        "EXECUTION_NOT_FOUND",
        `no execution ${quoteValue(id)}: only executions that returned a running handle are ` +
          `kept, for ${this.retentionMs / 60_000} minutes after they end`,
      );
    }
    return entry.execution;
  }

  /** Handed-out executions that are still running. */
  running(): Execution[] {
    return [...this.entries.values()].filter((e) => !e.execution.done).map((e) => e.execution);
  }

  /** Forgets every handle and drops their spools. */
  async clear(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    for (const entry of all) clearTimeout(entry.expiry);
    await Promise.allSettled(all.map((entry) => entry.execution.release()));
  }

  private ended(entry: Entry): void {
    if (this.entries.get(entry.execution.id) !== entry) return;
    entry.endedAt = Date.now();
    entry.expiry = setTimeout(() => this.drop(entry), this.retentionMs);
    entry.expiry.unref();
    const ended = [...this.entries.values()].filter((e) => e.endedAt !== undefined);
    ended.sort((a, b) => a.endedAt! - b.endedAt!);
    while (ended.length > this.retentionCount) this.drop(ended.shift()!);
  }

  private drop(entry: Entry): void {
    if (this.entries.get(entry.execution.id) !== entry) return;
    this.entries.delete(entry.execution.id);
    clearTimeout(entry.expiry);
    void entry.execution.release();
  }
}
