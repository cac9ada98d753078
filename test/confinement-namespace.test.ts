// bwrap's --info-fd document and the namespace membership check (SPEC §20).

import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  isLiveMember,
  liveNamespaceMembers,
  parseBwrapInfo,
  readBwrapInfo,
} from "../src/confinement/namespace.js";
import { requireBwrapInCi } from "./helpers/sandbox.js";

describe("bwrap info", () => {
  it("parses child-pid and pid-namespace; anything else is not an info document", () => {
    const text =
      '{\n    "child-pid": 4242,\n    "mnt-namespace": 1,\n    "pid-namespace": 4026532178\n}';
    expect(parseBwrapInfo(text)).toEqual({ childPid: 4242, pidNamespace: 4026532178 });
    expect(parseBwrapInfo(text.slice(0, 20))).toBeUndefined();
    expect(parseBwrapInfo('{"child-pid": 1, "pid-namespace": 5}')).toBeUndefined();
    expect(parseBwrapInfo('{"child-pid": 42}')).toBeUndefined();
    expect(parseBwrapInfo("null")).toBeUndefined();
  });
});

describe.runIf(requireBwrapInCi())("the sandbox's PID namespace", () => {
  it("lists the sandbox's live members while it runs and none once it is gone", async () => {
    const child = spawn(
      "bwrap",
      [
        "--die-with-parent", "--unshare-pid", "--ro-bind", "/", "/", "--dev", "/dev",
        "--proc", "/proc", "--info-fd", "3", "--", "/bin/sh", "-c",
        "setsid sleep 300 & echo ready; sleep 300",
      ],
      { stdio: ["ignore", "pipe", "ignore", "pipe"] },
    ); // prettier-ignore
    try {
      const info = await readBwrapInfo(child.stdio[3] as NodeJS.ReadableStream as never);
      expect(info).toBeDefined();
      await new Promise<void>((resolve) => {
        child.stdout!.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("ready")) resolve();
        });
      });
      expect(isLiveMember(info!.childPid, info!.pidNamespace)).toBe(true);
      // PID 1, the shell, the setsid sleep and the shell's sleep (the last may still be forking).
      expect(liveNamespaceMembers(info!.pidNamespace).length).toBeGreaterThanOrEqual(3);
      expect(isLiveMember(process.pid, info!.pidNamespace)).toBe(false);
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      const deadline = Date.now() + 10_000;
      while (liveNamespaceMembers(info!.pidNamespace).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(liveNamespaceMembers(info!.pidNamespace)).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });
});
