// The rules the schema cannot express, checked on the base and on every platform object (SPEC §9.2, §9.3, §9.6, §9.7).

import { describe, expect, it } from "vitest";
import { validateManifest } from "../src/programs/load-catalog.js";
import { thrown } from "./manifest-fixtures.js";

type Json = Record<string, unknown>;

const v2 = (programs: Json, extra: Json = {}): Json => ({ version: 2, programs, ...extra });

function problem(value: unknown): string {
  const error = thrown(() => validateManifest(value));
  expect(error.code).toBe("INVALID_MANIFEST");
  return error.message;
}

describe("semantic checks", () => {
  it("rejects a required program that is disabled", () => {
    expect(problem(v2({ git: { candidates: ["git"], required: true, enabled: false } }))).toContain(
      "/programs/git/enabled: a required program cannot be disabled",
    );
  });

  it("rejects defaultTimeoutMs above maxTimeoutMs", () => {
    const manifest = v2({
      git: { candidates: ["git"], policy: { defaultTimeoutMs: 5000, maxTimeoutMs: 1000 } },
    });
    expect(problem(manifest)).toContain(
      "/programs/git/policy/defaultTimeoutMs: expected at most maxTimeoutMs (1000), got 5000",
    );
  });

  it("rejects defaultTimeoutMs above maxTimeoutMs after a platform merge, even for an inactive platform", () => {
    const manifest = v2(
      { git: { candidates: ["git"], policy: { defaultTimeoutMs: 5000 } } },
      { platforms: { aix: { programs: { git: { policy: { maxTimeoutMs: 1000 } } } } } },
    );
    expect(problem(manifest)).toContain("/platforms/aix/programs/git/policy/defaultTimeoutMs");
  });

  it("rejects platform programs without a base definition", () => {
    const manifest = v2(
      { git: { candidates: ["git"] } },
      { platforms: { win32: { programs: { hg: {} } } } },
    );
    expect(problem(manifest)).toContain(
      '/platforms/win32/programs/hg: expected a program declared in the base "programs"',
    );
  });

  it("rejects loosening required through a platform override", () => {
    const manifest = v2(
      { git: { candidates: ["git"], required: true } },
      { platforms: { darwin: { programs: { git: { required: false } } } } },
    );
    expect(problem(manifest)).toContain(
      '/platforms/darwin/programs/git/required: a platform may only tighten "required"',
    );
  });

  it("rejects disabling through a platform a program that is required after the merge", () => {
    const disabled = v2(
      { git: { candidates: ["git"], required: true } },
      { platforms: { linux: { programs: { git: { enabled: false } } } } },
    );
    expect(problem(disabled)).toContain(
      "/platforms/linux/programs/git/enabled: a required program cannot be disabled",
    );
    const tightened = v2(
      { git: { candidates: ["git"], enabled: false } },
      { platforms: { linux: { programs: { git: { required: true } } } } },
    );
    expect(problem(tightened)).toContain(
      "/platforms/linux/programs/git/required: a required program cannot be disabled",
    );
  });

  it("accepts tightening required and enabling a disabled program per platform", () => {
    const manifest = v2(
      { git: { candidates: ["git"], enabled: false } },
      { platforms: { linux: { programs: { git: { enabled: true, required: true } } } } },
    );
    expect(() => validateManifest(manifest)).not.toThrow();
  });

  it("rejects probes for unknown programs", () => {
    expect(problem(v2({ git: { candidates: ["git"] } }, { probes: { hg: {} } }))).toContain(
      '/probes/hg: expected the name of a program in "programs"',
    );
  });

  it("rejects candidates of no accepted form", () => {
    expect(problem(v2({ git: { candidates: ["git", "bin/git"] } }))).toContain(
      '/programs/git/candidates/1: expected an absolute path, a ~/ path, a ./ or ../ path (relative to the manifest file) or a bare program name, got "bin/git"',
    );
    expect(problem(v2({ git: { candidates: ["tools\\git.exe"] } }))).toContain(
      "/programs/git/candidates/0:",
    );
  });

  it("accepts every candidate form, including the other platform family's absolute paths", () => {
    const candidates = [
      "/usr/bin/git",
      "~/bin/git",
      "./git",
      "../tools/git",
      "git",
      "C:\\Git\\git.exe",
      "C:/Git/git.exe",
    ];
    expect(() => validateManifest(v2({ git: { candidates } }))).not.toThrow();
  });

  it("checks platform candidates by that platform's rules", () => {
    const windows = v2(
      { git: { candidates: ["git"] } },
      { platforms: { win32: { programs: { git: { candidates: [".\\bin\\git.exe"] } } } } },
    );
    expect(() => validateManifest(windows)).not.toThrow();
    const linux = v2(
      { git: { candidates: ["git"] } },
      { platforms: { linux: { programs: { git: { candidates: ["bin/git"] } } } } },
    );
    expect(problem(linux)).toContain("/platforms/linux/programs/git/candidates/0:");
  });

  it("does not treat inherited object keys as programs", () => {
    const manifest = v2(
      { git: { candidates: ["git"] } },
      { platforms: { linux: { programs: { constructor: {} } } } },
    );
    expect(problem(manifest)).toContain("/platforms/linux/programs/constructor:");
  });
});
