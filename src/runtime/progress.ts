// The progress message of a running execution (SPEC §6.7): `running 12 s, stdout 3.1 MB, …`.

const KIB = 1024;
const MIB = 1024 * 1024;

/** Human-readable byte count. */
function formatBytes(bytes: number): string {
  if (bytes < KIB) return `${bytes} B`;
  if (bytes < MIB) return `${(bytes / KIB).toFixed(1)} KB`;
  return `${(bytes / MIB).toFixed(1)} MB`;
}

/** What notifications/progress says after `elapsedMs` with these stream totals. */
export function progressMessage(
  elapsedMs: number,
  totals: { stdout: number; stderr: number },
): string {
  const seconds = Math.floor(elapsedMs / 1000);
  return `running ${seconds} s, stdout ${formatBytes(totals.stdout)}, stderr ${formatBytes(totals.stderr)}`;
}
