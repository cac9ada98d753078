// The cost of each SPEC §20.1 bubblewrap mechanism, one at a time: raw bwrap runs of /bin/true
// with the §20 base argv, then the base plus one mechanism, interleaved so that every variant sees
// the same load; prints the p50 of each and its difference to the base. Not a bench/run.mjs row
// (docs/confinement.md "Cost" shows its numbers). BENCH_RUNS: runs per variant (default 200).

import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { firstExisting, now, p50, rawRun } from "./lib.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
/** Pins per run in the "pins" variant (a nested repository three levels down needs about that). */
const PINS = 10;
const TRUE = firstExisting("/bin/true", "/usr/bin/true");
const tmp = mkdtempSync(path.join(process.env.BENCH_TMP ?? "/var/tmp", "containment-cost-"));
const privateTmp = path.join(tmp, "tmp");
mkdirSync(privateTmp);
let deep = tmp;
const pins = [];
for (let i = 0; i < PINS; i++) {
  deep = path.join(deep, `d${i}`);
  pins.push(deep);
}
mkdirSync(deep, { recursive: true });

const base = [
  "--die-with-parent", "--unshare-pid", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
  "--bind", privateTmp, "/tmp", "--bind", tmp, tmp,
]; // prettier-ignore
const knobs = ["/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"];
const variants = {
  base: [],
  "--unshare-user --cap-drop ALL": ["--unshare-user", "--cap-drop", "ALL"],
  "read-only /proc knobs (4 × --ro-bind-try)": knobs.flatMap((k) => ["--ro-bind-try", k, k]),
  "empty read-only /run (--tmpfs, --remount-ro)": ["--tmpfs", "/run", "--remount-ro", "/run"],
  [`${PINS} pins (--bind D D)`]: pins.flatMap((dir) => ["--bind", dir, dir]),
};
const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
/** CPU time (user + system, ms) of every child this process has waited for; 100 ticks a second. */
const TICK_MS = 10;
function childrenCpuMs() {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS; // cutime, cstime
}
const cpu = Object.fromEntries(Object.keys(variants).map((name) => [name, 0]));
/** Runs per variant in one block: CPU time is read per block (its clock ticks are coarse). */
const BLOCK = 10;
try {
  for (let i = 0; i < RUNS; i += BLOCK) {
    for (const [name, extra] of Object.entries(variants)) {
      const before = childrenCpuMs();
      for (let j = 0; j < BLOCK; j++) {
        const start = now();
        const { code } = await rawRun("bwrap", [...base, ...extra, "--", TRUE]);
        if (code !== 0) throw new Error(`bwrap with ${name} exited ${code}`);
        samples[name].push(now() - start);
      }
      cpu[name] += childrenCpuMs() - before;
    }
  }
  const baseMs = p50(samples.base);
  const baseCpu = cpu.base / samples.base.length;
  const signed = (value) => `${value >= 0 ? "+" : ""}${value.toFixed(2)}`;
  for (const [name, values] of Object.entries(samples)) {
    const ms = p50(values);
    const cpuMs = cpu[name] / values.length;
    const delta =
      name === "base" ? "" : ` (wall ${signed(ms - baseMs)} ms, CPU ${signed(cpuMs - baseCpu)} ms)`;
    console.log(
      `${name.padEnd(46)} wall p50 ${ms.toFixed(2)} ms, CPU ${cpuMs.toFixed(2)} ms${delta}`,
    );
  }
  console.log(
    `runs per variant: ${RUNS}, load average: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
