// The Windows taskkill fallback (SPEC §6.5 Windows paragraph) with an injected command runner, and
// the .cmd/.bat argument check (SPEC §5 UNSAFE_CMD_SCRIPT_ARGUMENT). Both are pure logic and run
// on any platform. (src/process/spawn.ts launch() with platform "win32" needs Windows: not here.)

import { describe, expect, it } from "vitest";
import { isCommandError } from "../src/errors.js";
import { terminateTree } from "../src/process/terminate.js";
import {
  taskkillPath,
  WindowsTaskkillTree,
  type CommandRunner,
} from "../src/process/windows-tree.js";
import type { RegisteredProgram } from "../src/programs/types.js";
import { checkCmdScriptArgs } from "../src/runtime/validate-request.js";

interface Recorded {
  command: string;
  args: string[];
}

/** A runner that records each call and answers with the given exit statuses in turn. */
function stubRunner(statuses: (number | null)[]): { run: CommandRunner; calls: Recorded[] } {
  const calls: Recorded[] = [];
  let i = 0;
  const run: CommandRunner = (command, args) => {
    calls.push({ command, args: [...args] });
    const status = statuses[Math.min(i, statuses.length - 1)];
    i++;
    return status ?? null;
  };
  return { run, calls };
}

const FAST = { gracePeriodMs: 30, finalTerminationWaitMs: 30 };

/** The path every test tree runs taskkill by (the real default comes from taskkillPath()). */
const TASKKILL = "D:\\Win\\System32\\taskkill.exe";

describe("taskkillPath", () => {
  it("is %SystemRoot%\\System32\\taskkill.exe, never the bare name", () => {
    expect(taskkillPath({ SystemRoot: "D:\\Win" })).toBe(TASKKILL);
    expect(taskkillPath({ SystemRoot: "C:\\Windows\\", windir: "E:\\Other" })).toBe(
      "C:\\Windows\\System32\\taskkill.exe",
    );
  });

  it("falls back to %windir%, then C:\\Windows; a relative value is ignored", () => {
    expect(taskkillPath({ windir: "E:\\Other" })).toBe("E:\\Other\\System32\\taskkill.exe");
    expect(taskkillPath({})).toBe("C:\\Windows\\System32\\taskkill.exe");
    expect(taskkillPath({ SystemRoot: "Windows", windir: ".\\w" })).toBe(
      "C:\\Windows\\System32\\taskkill.exe",
    );
    expect(taskkillPath({ SystemRoot: "" })).toBe("C:\\Windows\\System32\\taskkill.exe");
  });

  it("is what a tree runs when no path is injected", () => {
    const { run, calls } = stubRunner([0]);
    new WindowsTaskkillTree(1, run).force();
    expect(calls[0]?.command).toBe(taskkillPath());
    expect(calls[0]?.command).toMatch(/\\System32\\taskkill\.exe$/);
  });
});

describe("WindowsTaskkillTree", () => {
  it("reports the taskkill fallback adapter and its unconfirmed error", () => {
    const tree = new WindowsTaskkillTree(4242, stubRunner([0]).run);
    expect(tree.adapter).toBe("windows-taskkill-fallback");
    expect(tree.unconfirmedError).toBe("TASKKILL_FALLBACK_UNCONFIRMED");
  });

  it("graceful is `taskkill /PID n /T`, force adds /F", () => {
    const { run, calls } = stubRunner([0]);
    const tree = new WindowsTaskkillTree(4242, run, TASKKILL);
    expect(tree.requestGraceful()).toBeUndefined();
    expect(tree.force()).toBeUndefined();
    expect(calls).toEqual([
      { command: TASKKILL, args: ["/PID", "4242", "/T"] },
      { command: TASKKILL, args: ["/PID", "4242", "/T", "/F"] },
    ]);
  });

  it("never reports the tree empty, not even after the root exited", async () => {
    const tree = new WindowsTaskkillTree(7, stubRunner([0]).run);
    expect(await tree.isEmpty()).toBe(false);
    tree.markRootExited();
    expect(await tree.isEmpty()).toBe(false);
    tree.dispose();
    tree.dispose(); // idempotent
  });

  it("SIGNAL_FAILED when taskkill fails while the root is alive", () => {
    for (const status of [1, 128, 255, null]) {
      const tree = new WindowsTaskkillTree(99, stubRunner([status]).run);
      expect(tree.requestGraceful(), String(status)).toBe("SIGNAL_FAILED");
      expect(tree.force(), String(status)).toBe("SIGNAL_FAILED");
    }
  });

  it("a failing taskkill after the root exited is not an error (nothing left to signal)", () => {
    const tree = new WindowsTaskkillTree(99, stubRunner([128]).run);
    tree.markRootExited();
    expect(tree.requestGraceful()).toBeUndefined();
    expect(tree.force()).toBeUndefined();
  });

  it("terminateTree: graceful, force, then TASKKILL_FALLBACK_UNCONFIRMED (never confirmed)", async () => {
    const { run, calls } = stubRunner([0]);
    const tree = new WindowsTaskkillTree(1234, run);
    const steps = await terminateTree(tree, FAST);
    expect(steps).toEqual({
      gracefulRequested: true,
      forceUsed: true,
      confirmed: false,
      cleanupError: "TASKKILL_FALLBACK_UNCONFIRMED",
    });
    expect(calls.map((c) => c.args)).toEqual([
      ["/PID", "1234", "/T"],
      ["/PID", "1234", "/T", "/F"],
    ]);
  });

  it("terminateTree: also unconfirmed when the root had already exited", async () => {
    const tree = new WindowsTaskkillTree(1234, stubRunner([128]).run);
    tree.markRootExited();
    const steps = await terminateTree(tree, FAST);
    expect(steps).toMatchObject({
      forceUsed: true,
      confirmed: false,
      cleanupError: "TASKKILL_FALLBACK_UNCONFIRMED",
    });
  });

  it("terminateTree: a failed taskkill with the root alive reports SIGNAL_FAILED", async () => {
    const { run, calls } = stubRunner([1]);
    const tree = new WindowsTaskkillTree(555, run);
    const steps = await terminateTree(tree, FAST);
    expect(steps).toEqual({
      gracefulRequested: true,
      forceUsed: true,
      confirmed: false,
      cleanupError: "SIGNAL_FAILED",
    });
    expect(calls).toHaveLength(2);
  });

  it("terminateTree: graceful failing but force succeeding keeps the first error", async () => {
    const tree = new WindowsTaskkillTree(556, stubRunner([1, 0]).run);
    const steps = await terminateTree(tree, FAST);
    expect(steps).toMatchObject({
      forceUsed: true,
      confirmed: false,
      cleanupError: "SIGNAL_FAILED",
    });
  });

  it("terminateTree honours the grace period before forcing (bounded, not instant)", async () => {
    const tree = new WindowsTaskkillTree(557, stubRunner([0]).run);
    const started = Date.now();
    await terminateTree(tree, { gracePeriodMs: 120, finalTerminationWaitMs: 80 });
    // Both waits elapse in full, since emptiness is never confirmed (timers may fire late, never early).
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});

// ---------------------------------------------------------------------------------------------

function program(kind: "native" | "cmd-script"): RegisteredProgram {
  return {
    name: kind === "cmd-script" ? "npm" : "git",
    spawnPath: kind === "cmd-script" ? "C:\\node\\npm.cmd" : "C:\\git\\git.exe",
    executable: kind === "cmd-script" ? "C:\\node\\npm.cmd" : "C:\\git\\git.exe",
    declaredCandidate: kind === "cmd-script" ? "npm" : "git",
    kind,
    required: false,
    policy: {
      maxTimeoutMs: 600_000,
      allowStdin: false,
      gracePeriodMs: 2000,
      finalTerminationWaitMs: 5000,
      artifactPolicy: "on-truncation",
      allowBackground: false,
      maxBackgroundTimeoutMs: 3_600_000,
    },
    env: {},
    pathDirs: [],
    pathDiffers: false,
  };
}

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
  } catch (error) {
    if (isCommandError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return undefined;
}

describe("checkCmdScriptArgs", () => {
  const unsafe: [string, string][] = [
    ["%", "%PATH%"],
    ["!", "hello!"],
    ["&", "a&b"],
    ["|", "a|b"],
    ["<", "<in"],
    [">", "out>"],
    ["^", "a^b"],
    ["CR", "line\rbreak"],
    ["LF", "line\nbreak"],
    ["NUL", "a\u0000b"],
  ];

  for (const [name, arg] of unsafe) {
    it(`refuses ${name} for a cmd-script program, naming the argument index`, () => {
      const text = codeOf(() => checkCmdScriptArgs(program("cmd-script"), ["install", "ok", arg]));
      expect(text).toMatch(/^UNSAFE_CMD_SCRIPT_ARGUMENT: /);
      expect(text).toContain("args[2]");
      expect(text).toContain("npm");
      // Arguments are never echoed in messages (§15).
      if (arg.length > 1) expect(text).not.toContain(arg);
    });

    it(`accepts ${name} for a native program`, () => {
      expect(codeOf(() => checkCmdScriptArgs(program("native"), ["install", arg]))).toBeUndefined();
    });
  }

  it("accepts safe arguments for a cmd-script program", () => {
    const safe = [
      "install",
      "--save-dev",
      "@scope/pkg@1.2.3",
      "with space",
      'quote"d',
      "a=b",
      "日本",
      "",
      "C:\\x\\y",
    ];
    expect(codeOf(() => checkCmdScriptArgs(program("cmd-script"), safe))).toBeUndefined();
    expect(codeOf(() => checkCmdScriptArgs(program("cmd-script"), []))).toBeUndefined();
  });
});
