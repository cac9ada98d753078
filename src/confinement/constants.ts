// The numbers and defaults of confinement (SPEC §20), in one place.

/**
 * `hiddenPaths` when the field is absent (`~/` is the server's home directory): SPEC §20's list
 * and §20.1 item 5's additions (`~/.docker` whole, which also covers its config.json).
 */
export const DEFAULT_HIDDEN_PATHS: readonly string[] = [
  "~/.ssh",
  "~/.gnupg",
  "~/.aws",
  "~/.azure",
  "~/.config/gcloud",
  "~/.kube",
  "~/.docker",
  "~/.netrc",
  "~/.git-credentials",
  "~/.config/gh",
  "~/.npmrc",
  "~/.yarnrc.yml",
  "~/.pypirc",
  "~/.config/pip",
  "~/.config/git/credentials",
  "~/.cargo/credentials",
  "~/.cargo/credentials.toml",
  "~/.terraform.d/credentials.tfrc.json",
  "~/.vault-token",
  "~/.password-store",
  "~/.bash_history",
  "~/.zsh_history",
  "~/.python_history",
  "~/.node_repl_history",
  "~/.local/share/keyrings",
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

/** Kernel knobs below /proc bound read-only after `--proc` (§20.1 item 3; `-try`: may be absent). */
export const KERNEL_KNOBS: readonly string[] = [
  "/proc/sys",
  "/proc/sysrq-trigger",
  "/proc/irq",
  "/proc/bus",
];

/** Where host daemons keep their sockets: an empty read-only tmpfs for `network: "deny"` (§20.1 item 6). */
export const RUN_DIR = "/run";

/** The private /tmp of every mode but `full`. */
export const TMP_DIR = "/tmp";

/** How deep the git-directory scan looks below a writable Root (§20.1 item 1; the Root is 0). */
export const GIT_SCAN_MAX_DEPTH = 6;

/** How many directories the git-directory scan reads per Root at most (§20.1 item 1). */
export const GIT_SCAN_MAX_DIRS = 2_000;

/** Directory names the git-directory scan never enters. */
export const GIT_SCAN_SKIPPED: readonly string[] = ["node_modules"];

/** What stays read-only in every git directory found (when it exists). */
export const GIT_READ_ONLY_ENTRIES: readonly string[] = [
  "hooks",
  "info",
  "config",
  "config.worktree",
  "commondir",
];

/** Files of each `worktrees/<name>/` of a git directory that stay read-only. */
export const GIT_WORKTREE_ENTRIES: readonly string[] = ["gitdir", "commondir"];

/** Directories of a git directory created empty on the host when missing, so they can be covered. */
export const GIT_CREATED_DIRS: readonly string[] = ["hooks", "info"];

/** Mode of the server directories created before the first confined run (§20.1 item 2). */
export const SERVER_DIR_MODE = 0o700;

/** The audit seal next to the audit log (§22.1): `<audit log>` + this, always hidden. */
export const AUDIT_SEAL_SUFFIX = ".seal";
