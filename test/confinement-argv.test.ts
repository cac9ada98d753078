// The bubblewrap argv and the Seatbelt profile of each policy, as text (SPEC §20).

import { describe, expect, it } from "vitest";
import { bwrapArgs } from "../src/confinement/bwrap-args.js";
import { sandboxExecArgs, seatbeltProfile } from "../src/confinement/seatbelt.js";
import type { ConfinedCommand, SandboxPolicy } from "../src/confinement/types.js";

function policy(extra: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    filesystem: "workspace-write",
    writablePaths: [],
    hiddenPaths: [],
    protectedPaths: [],
    network: "allow",
    ...extra,
  };
}

function command(extra: Partial<ConfinedCommand> = {}): ConfinedCommand {
  return {
    policy: policy(),
    roots: ["/work/project"],
    cwd: "/work/project/src",
    tmpDir: "/var/tmp/scm/x-1/tmp",
    emptyDir: "/var/tmp/scm/x-1/empty",
    hidden: [],
    pinned: [],
    protectedMounts: [],
    command: "/usr/bin/git",
    args: ["status", "--short"],
    ...extra,
  };
}

/** No privilege (§20.1 item 3): a user namespace without any capability. */
const PRIVILEGE = ["--unshare-user", "--cap-drop", "ALL"];

/** The kernel knobs below /proc, read-only after --proc (§20.1 item 3). */
const KNOBS = [
  "--ro-bind-try", "/proc/sys", "/proc/sys",
  "--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger",
  "--ro-bind-try", "/proc/irq", "/proc/irq",
  "--ro-bind-try", "/proc/bus", "/proc/bus",
]; // prettier-ignore

const TAIL = ["--info-fd", "3", "--chdir", "/work/project/src", "--", "/usr/bin/git"];

describe("bubblewrap argv", () => {
  it("workspace-write: every mount in the SPEC §20/§20.1 order, then the literal program", () => {
    const argv = bwrapArgs(
      command({
        policy: policy({ writablePaths: ["/home/u/.npm", "/run/user/1/cache"], network: "deny" }),
        roots: ["/work/project", "/work/other"],
        hidden: [
          { path: "/home/u/.ssh", kind: "directory" },
          { path: "/home/u/.netrc", kind: "file" },
        ],
        pinned: ["/work/project/sub", "/work/project/sub/.git"],
        protectedMounts: ["/work/project/sub/.git/hooks"],
      }),
    );
    expect(argv).toEqual([
      "--die-with-parent",
      "--unshare-pid",
      ...PRIVILEGE,
      "--ro-bind", "/", "/",
      "--dev", "/dev",
      "--proc", "/proc",
      ...KNOBS,
      "--tmpfs", "/run",
      "--bind", "/var/tmp/scm/x-1/tmp", "/tmp",
      "--bind", "/work/project", "/work/project",
      "--bind", "/work/other", "/work/other",
      "--bind", "/home/u/.npm", "/home/u/.npm",
      "--bind", "/run/user/1/cache", "/run/user/1/cache",
      "--remount-ro", "/run",
      "--bind", "/work/project/sub", "/work/project/sub",
      "--bind", "/work/project/sub/.git", "/work/project/sub/.git",
      "--ro-bind", "/work/project/sub/.git/hooks", "/work/project/sub/.git/hooks",
      "--ro-bind", "/var/tmp/scm/x-1/empty", "/home/u/.ssh",
      "--ro-bind", "/dev/null", "/home/u/.netrc",
      "--unshare-net",
      ...TAIL,
      "status", "--short",
    ]); // prettier-ignore
  });

  it("read-only: Roots bound read-only (visible below /tmp too), writablePaths writable", () => {
    const argv = bwrapArgs(
      command({ policy: policy({ filesystem: "read-only", writablePaths: ["/cache"] }) }),
    );
    expect(argv).toEqual([
      "--die-with-parent", "--unshare-pid", ...PRIVILEGE,
      "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", ...KNOBS,
      "--bind", "/var/tmp/scm/x-1/tmp", "/tmp",
      "--ro-bind", "/work/project", "/work/project",
      "--bind", "/cache", "/cache",
      ...TAIL, "status", "--short",
    ]); // prettier-ignore
    expect(argv).not.toContain("--unshare-net");
  });

  it("full: / is writable, no private /tmp, hidden paths still hidden", () => {
    const argv = bwrapArgs(
      command({
        policy: policy({ filesystem: "full", network: "deny", writablePaths: ["/run/x", "/y"] }),
        roots: ["/run/r", "/work/project"],
        hidden: [{ path: "/home/u/.aws", kind: "directory" }],
        pinned: ["/home/u/.local"],
        protectedMounts: ["/home/u/m.json"],
      }),
    );
    expect(argv).toEqual([
      "--die-with-parent", "--unshare-pid", ...PRIVILEGE,
      "--bind", "/", "/", "--dev", "/dev", "--proc", "/proc", ...KNOBS,
      "--tmpfs", "/run",
      "--bind", "/run/r", "/run/r",
      "--bind", "/run/x", "/run/x",
      "--remount-ro", "/run",
      "--bind", "/home/u/.local", "/home/u/.local",
      "--ro-bind", "/home/u/m.json", "/home/u/m.json",
      "--ro-bind", "/var/tmp/scm/x-1/empty", "/home/u/.aws",
      "--unshare-net",
      ...TAIL, "status", "--short",
    ]); // prettier-ignore
  });

  it("arguments that look like options or shell syntax stay after -- as they are", () => {
    const args = ["--bind", "/", "/", "; rm -rf / #", "$(id)", "`x`", "a b", ""];
    const argv = bwrapArgs(command({ args }));
    const separator = argv.indexOf("--");
    expect(argv.slice(separator + 1)).toEqual(["/usr/bin/git", ...args]);
    expect(argv.filter((arg) => arg === "--")).toHaveLength(1);
  });
});

describe("Seatbelt profile", () => {
  it("workspace-write: writes denied except temp, Roots and writablePaths; protected and hidden denied after", () => {
    const cmd = command({
      policy: policy({ writablePaths: ["/Users/u/.npm"], network: "deny" }),
      hidden: [
        { path: "/Users/u/.ssh", kind: "directory" },
        { path: "/Users/u/.netrc", kind: "file" },
      ],
      protectedMounts: ["/work/project/.git/hooks"],
    });
    const profile = seatbeltProfile(cmd);
    expect(profile.text).toBe(
      [
        "(version 1)",
        "(allow default)",
        "(deny file-write*)",
        "(allow file-write*",
        '  (subpath (param "TMP_0"))',
        '  (subpath (param "ROOT_0"))',
        '  (subpath (param "WRITABLE_0"))',
        '  (literal "/dev/null")',
        '  (literal "/dev/zero")',
        '  (literal "/dev/tty")',
        '  (literal "/dev/dtracehelper"))',
        "(deny file-write*",
        '  (subpath (param "PROTECTED_0")))',
        "(deny file-read* file-write*",
        '  (subpath (param "HIDDEN_DIR_0"))',
        '  (literal (param "HIDDEN_FILE_0")))',
        "(deny network*)",
        "",
      ].join("\n"),
    );
    expect(profile.parameters).toEqual([
      { name: "TMP_0", value: "/var/tmp/scm/x-1/tmp" },
      { name: "ROOT_0", value: "/work/project" },
      { name: "WRITABLE_0", value: "/Users/u/.npm" },
      { name: "PROTECTED_0", value: "/work/project/.git/hooks" },
      { name: "HIDDEN_DIR_0", value: "/Users/u/.ssh" },
      { name: "HIDDEN_FILE_0", value: "/Users/u/.netrc" },
    ]);
  });

  it("read-only: the Roots are not writable; network allowed means no network rule", () => {
    const text = seatbeltProfile(command({ policy: policy({ filesystem: "read-only" }) })).text;
    expect(text).toContain('(subpath (param "TMP_0"))');
    expect(text).not.toContain("ROOT_0");
    expect(text).not.toContain("network");
  });

  it("full: no write rule at all, hidden paths and network still apply", () => {
    const text = seatbeltProfile(
      command({
        policy: policy({ filesystem: "full", network: "deny" }),
        hidden: [{ path: "/Users/u/.kube", kind: "directory" }],
      }),
    ).text;
    expect(text).toBe(
      "(version 1)\n(allow default)\n(deny file-read* file-write*\n" +
        '  (subpath (param "HIDDEN_DIR_0")))\n(deny network*)\n',
    );
  });

  it("a path with quotes or parentheses never enters the profile text", () => {
    const odd = '/work/a") (allow file-write* (subpath "/';
    const argv = sandboxExecArgs(command({ roots: [odd], cwd: odd }));
    expect(argv[0]).toBe("-p");
    expect(argv[1]).not.toContain(odd);
    expect(argv).toContain(`-DROOT_0=${odd}`);
    expect(argv.slice(argv.indexOf("--") + 1)).toEqual(["/usr/bin/git", "status", "--short"]);
  });
});
