// The numbers and defaults of confinement (SPEC §20), in one place.

/** `hiddenPaths` when the field is absent (`~/` is the server's home directory). */
export const DEFAULT_HIDDEN_PATHS: readonly string[] = [
  "~/.ssh",
  "~/.gnupg",
  "~/.aws",
  "~/.azure",
  "~/.config/gcloud",
  "~/.kube",
  "~/.docker/config.json",
  "~/.netrc",
  "~/.git-credentials",
  "~/.config/gh",
];

/** `protectedPaths` when the field is absent: git runs these later, outside any sandbox. */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [".git/hooks", ".git/config"];

/** `network` when the field is absent. */
export const DEFAULT_NETWORK = "allow" as const;

/** The fd bwrap writes its `--info-fd` JSON to (child pid, namespace ids). */
export const BWRAP_INFO_FD = 3;

/** How long a startup probe (one trivial confined run, or `--version`) may take. */
export const PROBE_TIMEOUT_MS = 10_000;

/** How long termination waits for bwrap's info before judging by the process group alone. */
export const INFO_WAIT_MS = 1_000;

/** How long a natural exit waits for the sandbox's PID 1 to finish tearing the namespace down. */
export const SETTLE_MS = 500;

/** How often that wait looks, after its first SETTLE_FAST_POLL_MS. */
export const SETTLE_POLL_MS = 2;

/** How long that wait looks at every turn of the event loop before it falls back to a timer. */
export const SETTLE_FAST_POLL_MS = 1;

/** Where the Seatbelt adapter lives on every macOS. */
export const SANDBOX_EXEC_PATH = "/usr/bin/sandbox-exec";

/** The one variable confinement adds to the child's environment (§20, an exception to §6.2). */
export const CONFINED_TMPDIR = "/tmp";

/** Prefix of the per-user directory under the OS temp dir that holds per-execution temp dirs. */
export const SANDBOX_TEMP_PREFIX = "system-command-mcp-sandbox-";

/** The sysctls that decide whether unprivileged user namespaces (bubblewrap's base) work. */
export const USERNS_SYSCTLS: readonly string[] = [
  "kernel.apparmor_restrict_unprivileged_userns",
  "kernel.unprivileged_userns_clone",
];
