// Startup (SPEC §20): find the platform's adapter, read its version, probe it once with a trivial
// confined run, and fail closed with SANDBOX_UNAVAILABLE naming the reason. Runs only when some
// program is confined.

import { childProcess } from "../child-process.js";
import { accessSync, constants, readFileSync } from "node:fs";
import which from "which";
import { CommandError } from "../errors.js";
import { bwrapArgs } from "./bwrap-args.js";
import { PROBE_TIMEOUT_MS, SANDBOX_EXEC_PATH, USERNS_SYSCTLS } from "./constants.js";
import { createExecutionTemp } from "./temp-area.js";
import type { SandboxAdapterInfo, SandboxPolicy } from "./types.js";

/** What discovery is given. */
export interface DiscoveryOptions {
  platform: NodeJS.Platform;
  /** The top-level `sandbox.bwrapPath`, expanded. */
  bwrapPath?: string;
  /** The server's startup PATH (bwrap is looked up there). */
  startupPath: string;
  /** Every confined program's policy: the probe uses `--unshare-net` when one denies network. */
  policies: SandboxPolicy[];
  /** The per-user temp area. */
  tempArea: string;
}

/** What one probe run printed and how it ended. */
interface RunOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
  errno?: string;
}

/** Runs a file with a timeout and no shell; never rejects. */
function run(file: string, args: string[]): Promise<RunOutcome> {
  return new Promise((resolve) => {
    childProcess().execFile(
      file,
      args,
      { timeout: PROBE_TIMEOUT_MS, encoding: "utf8", env: {} },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        const errno = error && typeof error.code === "string" ? error.code : undefined;
        resolve({ code, stdout: String(stdout), stderr: String(stderr), ...(errno && { errno }) });
      },
    );
  });
}

/** A trivial program every Linux has. */
function trueProgram(): string {
  for (const candidate of ["/bin/true", "/usr/bin/true"]) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // try the next
    }
  }
  return "/bin/true";
}

/** Current values of the user-namespace sysctls that exist here, for the message. */
export function usernsSettings(): string {
  const shown = USERNS_SYSCTLS.map((name) => {
    try {
      const value = readFileSync(`/proc/sys/${name.replace(/\./g, "/")}`, "utf8").trim();
      return `${name} = ${value}`;
    } catch {
      return `${name} (not present)`;
    }
  });
  return shown.join(", ");
}

/** Whether bwrap's stderr says the kernel refused to create its namespaces. */
function namespacesRefused(stderr: string): boolean {
  return /namespace|uid map|setting up uid|Operation not permitted|Permission denied/i.test(stderr);
}

/** The bwrap to use: `bwrapPath` when given, else `bwrap` on the startup PATH. */
function locateBwrap(options: DiscoveryOptions): string {
  if (options.bwrapPath !== undefined) {
    try {
      accessSync(options.bwrapPath, constants.X_OK);
      return options.bwrapPath;
    } catch {
      throw new CommandError(
        "SANDBOX_UNAVAILABLE",
        `bubblewrap is not installed at sandbox.bwrapPath ${options.bwrapPath} (no executable ` +
          `file there); install the distribution package "bubblewrap" or fix bwrapPath`,
      );
    }
  }
  const found = which.sync("bwrap", { path: options.startupPath, nothrow: true });
  if (found === null) {
    throw new CommandError(
      "SANDBOX_UNAVAILABLE",
      `bubblewrap (bwrap) is not installed: it is not on the server's startup PATH; install the ` +
        `distribution package "bubblewrap" (apt-get install bubblewrap, dnf install bubblewrap) ` +
        `or set sandbox.bwrapPath, or remove "sandbox" from the manifest`,
    );
  }
  return found;
}

/** Finds, versions and probes bubblewrap. */
async function discoverBubblewrap(options: DiscoveryOptions): Promise<SandboxAdapterInfo> {
  const bwrap = locateBwrap(options);
  const versionRun = await run(bwrap, ["--version"]);
  const version = /(\d+\.\d+(?:\.\d+)?)/.exec(versionRun.stdout)?.[1];
  if (versionRun.code !== 0 || version === undefined) {
    throw new CommandError(
      "SANDBOX_UNAVAILABLE",
      `${bwrap} --version did not report a bubblewrap version (exit ${versionRun.code}` +
        `${versionRun.errno ? `, ${versionRun.errno}` : ""}); reinstall the "bubblewrap" package`,
    );
  }
  const temp = createExecutionTemp(options.tempArea);
  try {
    const deny = options.policies.some((policy) => policy.network === "deny");
    const argv = bwrapArgs(
      {
        policy: {
          filesystem: "read-only",
          writablePaths: [],
          hiddenPaths: [],
          protectedPaths: [],
          network: deny ? "deny" : "allow",
        },
        roots: [],
        cwd: "/",
        tmpDir: temp.tmpDir,
        emptyDir: temp.emptyDir,
        hidden: [],
        pinned: [],
        protectedMounts: [],
        command: trueProgram(),
        args: [],
      },
      null,
    );
    const probe = await run(bwrap, argv);
    if (probe.code !== 0) throw probeFailure(bwrap, probe);
  } finally {
    await temp.remove();
  }
  return { adapter: "bubblewrap", version, path: bwrap };
}

/** SANDBOX_UNAVAILABLE for a failed probe run, naming the likely reason. */
function probeFailure(bwrap: string, probe: RunOutcome): CommandError {
  const said = probe.stderr.trim().split("\n")[0]?.slice(0, 200) ?? "";
  if (namespacesRefused(probe.stderr)) {
    return new CommandError(
      "SANDBOX_UNAVAILABLE",
      `bubblewrap cannot create its namespaces here: user namespaces are disabled or restricted ` +
        `(${bwrap} said: ${said}). Check ${usernsSettings()}; e.g. on Ubuntu 24.04 ` +
        `"sysctl kernel.apparmor_restrict_unprivileged_userns=0" or an AppArmor profile for bwrap, ` +
        `on older Debian "sysctl kernel.unprivileged_userns_clone=1"`,
    );
  }
  return new CommandError(
    "SANDBOX_UNAVAILABLE",
    `the bubblewrap probe (a confined /bin/true) failed with exit ${probe.code}` +
      `${probe.errno ? ` (${probe.errno})` : ""}: ${said || "no message"}`,
  );
}

/** Probes Seatbelt with a trivial profile. */
async function discoverSeatbelt(): Promise<SandboxAdapterInfo> {
  const probe = await run(SANDBOX_EXEC_PATH, [
    "-p",
    "(version 1)(allow default)",
    "--",
    "/usr/bin/true",
  ]);
  if (probe.code !== 0) {
    throw new CommandError(
      "SANDBOX_UNAVAILABLE",
      `the Seatbelt probe (${SANDBOX_EXEC_PATH} running /usr/bin/true) failed with exit ` +
        `${probe.code}${probe.errno ? ` (${probe.errno})` : ""}`,
    );
  }
  const release = await run("/usr/bin/sw_vers", ["-productVersion"]);
  return {
    adapter: "seatbelt",
    version: release.stdout.trim() || "unknown",
    path: SANDBOX_EXEC_PATH,
  };
}

/** Finds and probes the adapter of this platform, or throws SANDBOX_UNAVAILABLE with the reason. */
export async function discoverAdapter(options: DiscoveryOptions): Promise<SandboxAdapterInfo> {
  if (options.platform === "linux") return discoverBubblewrap(options);
  if (options.platform === "darwin") return discoverSeatbelt();
  throw new CommandError(
    "SANDBOX_UNAVAILABLE",
    `confinement is not supported on this platform (${options.platform}); set "sandbox": null ` +
      `for it (e.g. in platforms.${options.platform}) or run the server on Linux or macOS`,
  );
}
