// The shipped schema: strictness at every level, v1/v2 exclusivity, field rules, the example file.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { validateManifest } from "../src/programs/load-catalog.js";
import { thrown } from "./manifest-fixtures.js";

type Json = Record<string, unknown>;

const program = (extra: Json = {}): Json => ({ candidates: ["git"], ...extra });
const v2 = (extra: Json = {}): Json => ({ version: 2, programs: { git: program() }, ...extra });
const v1 = (extra: Json = {}): Json => ({ version: 1, programs: { git: program() }, ...extra });
const projectNode = (extra: Json = {}): Json => ({
  enabledRoots: ["~/src"],
  installationRoots: ["/opt/node"],
  defaultVersion: "22.14.0",
  ...extra,
});

/** The INVALID_MANIFEST message of a value. */
function problem(value: unknown): string {
  const error = thrown(() => validateManifest(value));
  expect(error.code).toBe("INVALID_MANIFEST");
  return error.message;
}

describe("unknown fields are rejected at every level, with the JSON path", () => {
  const cases: Array<[string, Json, string]> = [
    ["top level", v2({ bogus: 1 }), "/bogus"],
    ["program", v2({ programs: { git: program({ bogus: 1 }) } }), "/programs/git/bogus"],
    [
      "policy",
      v2({ programs: { git: program({ policy: { bogus: 1 } }) } }),
      "/programs/git/policy/bogus",
    ],
    ["global environment layer", v2({ environment: { bogus: [] } }), "/environment/bogus"],
    [
      "program environment layer",
      v2({ programs: { git: program({ environment: { bogus: [] } }) } }),
      "/programs/git/environment/bogus",
    ],
    [
      "set value object",
      v2({ environment: { set: { A: { fromEnvironment: "B", bogus: true } } } }),
      "/environment/set/A/bogus",
    ],
    ["platform", v2({ platforms: { linux: { bogus: 1 } } }), "/platforms/linux/bogus"],
    ["platform name", v2({ platforms: { windows: {} } }), "/platforms/windows"],
    [
      "platform program override",
      v2({ platforms: { darwin: { programs: { git: { bogus: 1 } } } } }),
      "/platforms/darwin/programs/git/bogus",
    ],
    [
      "platform policy",
      v2({ platforms: { win32: { programs: { git: { policy: { bogus: 1 } } } } } }),
      "/platforms/win32/programs/git/policy/bogus",
    ],
    [
      "platform environment layer",
      v2({ platforms: { linux: { environment: { bogus: 1 } } } }),
      "/platforms/linux/environment/bogus",
    ],
    ["probe", v2({ probes: { git: { bogus: 1 } } }), "/probes/git/bogus"],
    ["projectNode", v2({ projectNode: projectNode({ bogus: 1 }) }), "/projectNode/bogus"],
    [
      "platform projectNode",
      v2({ platforms: { darwin: { projectNode: projectNode({ bogus: 1 }) } } }),
      "/platforms/darwin/projectNode/bogus",
    ],
    [
      "nodeResolution",
      v1({ nodeResolution: { enabled: true, bogus: 1 } }),
      "/nodeResolution/bogus",
    ],
    [
      "platform nodeResolution",
      v1({ platforms: { linux: { nodeResolution: { bogus: 1 } } } }),
      "/platforms/linux/nodeResolution/bogus",
    ],
  ];
  it.each(cases)("%s", (_name, manifest, pointer) => {
    expect(problem(manifest)).toContain(`${pointer}:`);
  });

  it("names the allowed fields", () => {
    expect(problem(v2({ programs: { git: program({ policy: { bogus: 1 } }) } }))).toContain(
      "maxTimeoutMs",
    );
  });

  it("rejects probes as a platform override", () => {
    expect(problem(v2({ platforms: { linux: { probes: {} } } }))).toContain(
      "/platforms/linux/probes:",
    );
  });
});

describe("version 1 and version 2 are exclusive", () => {
  it("rejects projectNode in version 1 and explains the version", () => {
    const message = problem(v1({ projectNode: projectNode() }));
    expect(message).toContain("/projectNode:");
    expect(message).toContain("version 2");
    expect(message).not.toContain("must match exactly one schema");
  });

  it("rejects nodeResolution in version 2", () => {
    expect(problem(v2({ nodeResolution: { enabled: true } }))).toContain("/nodeResolution:");
  });

  it("rejects the other version's node field inside platform objects", () => {
    expect(problem(v1({ platforms: { linux: { projectNode: projectNode() } } }))).toContain(
      "/platforms/linux/projectNode:",
    );
    expect(problem(v2({ platforms: { linux: { nodeResolution: {} } } }))).toContain(
      "/platforms/linux/nodeResolution:",
    );
  });

  it("accepts each version with its own field", () => {
    expect(() => validateManifest(v1({ nodeResolution: { enabled: true } }))).not.toThrow();
    expect(() => validateManifest(v2({ projectNode: projectNode() }))).not.toThrow();
  });

  it("rejects a missing or unknown version", () => {
    expect(problem({ programs: {} })).toContain("/version: required field is missing");
    expect(problem({ version: 3, programs: {} })).toContain("/version: expected 1 or 2, got 3");
    expect(problem({ version: "2", programs: {} })).toContain('/version: expected 1 or 2, got "2"');
    expect(problem([])).toContain("/: expected a JSON object");
  });

  it("reports the real problem of a versioned manifest, not the oneOf failure", () => {
    const message = problem(v2({ programs: { git: program({ required: "yes" }) } }));
    expect(message).toBe('/programs/git/required: expected a boolean (true or false), got "yes"');
  });
});

describe("field rules", () => {
  it("requires programs and non-empty candidates of non-empty strings", () => {
    expect(problem({ version: 2 })).toContain("/programs: required field is missing");
    expect(problem(v2({ programs: { git: { candidates: [] } } }))).toContain(
      "/programs/git/candidates: expected at least 1 item(s)",
    );
    expect(problem(v2({ programs: { git: { candidates: [""] } } }))).toContain(
      "/programs/git/candidates/0:",
    );
    expect(problem(v2({ programs: { git: {} } }))).toContain(
      "/programs/git/candidates: required field is missing",
    );
  });

  it("checks program names", () => {
    expect(problem(v2({ programs: { "9git": program() } }))).toContain(
      "/programs/9git: invalid name",
    );
    expect(problem(v2({ programs: { ["a".repeat(33)]: program() } }))).toContain("invalid name");
    expect(() => validateManifest(v2({ programs: { "A_b-c9": program() } }))).not.toThrow();
  });

  it("checks policy ranges and types", () => {
    const policy = (value: Json): Json => v2({ programs: { git: program({ policy: value }) } });
    expect(problem(policy({ maxTimeoutMs: 600_001 }))).toContain(
      "/programs/git/policy/maxTimeoutMs: expected an integer from 1 to 600000, got 600001",
    );
    expect(problem(policy({ defaultTimeoutMs: 0 }))).toContain(
      "/programs/git/policy/defaultTimeoutMs:",
    );
    expect(problem(policy({ gracePeriodMs: 60_001 }))).toContain(
      "/programs/git/policy/gracePeriodMs:",
    );
    expect(problem(policy({ finalTerminationWaitMs: 1.5 }))).toContain("finalTerminationWaitMs");
    expect(problem(policy({ maxBackgroundTimeoutMs: 86_400_001 }))).toContain(
      "maxBackgroundTimeoutMs",
    );
    expect(problem(policy({ allowBackground: "yes" }))).toContain(
      "/programs/git/policy/allowBackground:",
    );
    expect(problem(policy({ artifactPolicy: "sometimes" }))).toContain(
      'expected one of "never", "on-truncation"',
    );
    expect(() =>
      validateManifest(
        policy({ allowBackground: true, maxBackgroundTimeoutMs: 86_400_000, allowStdin: true }),
      ),
    ).not.toThrow();
  });

  it("checks environment layers", () => {
    expect(problem(v2({ environment: { set: { A: 5 } } }))).toContain(
      "/environment/set/A: expected a string or an object",
    );
    expect(problem(v2({ environment: { set: { A: { required: false } } } }))).toContain(
      "/environment/set/A/fromEnvironment: required field is missing",
    );
    expect(problem(v2({ environment: { remove: ["A=B"] } }))).toContain("/environment/remove/0:");
    expect(problem(v2({ environment: { set: { "": "x" } } }))).toContain("invalid name");
  });

  it("never shows string values of environment layers", () => {
    const message = problem(v2({ environment: { remove: ["SECRET=hunter2"] } }));
    expect(message).not.toContain("hunter2");
  });

  it("checks probes", () => {
    expect(problem(v2({ probes: { git: { cwd: "relative/dir" } } }))).toContain("/probes/git/cwd:");
    expect(problem(v2({ probes: { git: { acceptedExitCodes: [0.5] } } }))).toContain(
      "/probes/git/acceptedExitCodes/0:",
    );
    expect(() =>
      validateManifest(v2({ probes: { git: { args: ["--version"], cwd: "C:\\src" } } })),
    ).not.toThrow();
  });

  it("checks projectNode", () => {
    expect(problem(v2({ projectNode: { enabledRoots: ["/src"] } }))).toContain(
      "/projectNode/installationRoots: required field is missing",
    );
    expect(problem(v2({ projectNode: projectNode({ enabledRoots: [] }) }))).toContain(
      "/projectNode/enabledRoots:",
    );
    expect(problem(v2({ projectNode: projectNode({ enabledRoots: ["src"] }) }))).toContain(
      "/projectNode/enabledRoots/0: expected an absolute path or a ~/ path",
    );
    expect(problem(v2({ projectNode: projectNode({ defaultVersion: "^22" }) }))).toContain(
      "/projectNode/defaultVersion: expected an exact version",
    );
    expect(problem(v2({ projectNode: projectNode({ whenNoSelector: "newest" }) }))).toContain(
      "/projectNode/whenNoSelector:",
    );
    expect(
      problem(v2({ projectNode: projectNode({ whenNoSelector: "active-manager" }) })),
    ).toContain("/projectNode/activeManagerLinks: required field is missing");
    expect(
      problem(
        v2({
          projectNode: projectNode({
            whenNoSelector: "active-manager",
            activeManagerLinks: ["/a", "/b"],
          }),
        }),
      ),
    ).toContain("/projectNode/activeManagerLinks: expected at most 1 item(s)");
    expect(() =>
      validateManifest(
        v2({
          projectNode: projectNode({
            defaultVersion: "v22.14.0",
            whenNoSelector: "active-manager",
            activeManagerLinks: ["C:\\Program Files\\nodejs"],
          }),
        }),
      ),
    ).not.toThrow();
  });

  it("checks nodeResolution", () => {
    expect(problem(v1({ nodeResolution: { enabled: "yes" } }))).toContain(
      "/nodeResolution/enabled:",
    );
    expect(problem(v1({ nodeResolution: { installationRoots: ["rel"] } }))).toContain(
      "/nodeResolution/installationRoots/0:",
    );
  });

  it("lists several problems in one message", () => {
    const message = problem(v2({ bogus: 1, programs: { git: { candidates: [], extra: 1 } } }));
    expect(message).toContain("/bogus:");
    expect(message).toContain("/programs/git/candidates:");
    expect(message).toContain("/programs/git/extra:");
  });
});

describe("the shipped files", () => {
  const schema = JSON.parse(
    readFileSync(new URL("../system-command-manifest.schema.json", import.meta.url), "utf8"),
  );
  const example = JSON.parse(
    readFileSync(new URL("../system-command-manifest.example.json", import.meta.url), "utf8"),
  );

  it("the example validates against the schema file and the semantic checks", () => {
    const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true });
    expect(ajv.validate(schema, example)).toBe(true);
    expect(() => validateManifest(example)).not.toThrow();
  });

  it("the example covers every feature", () => {
    expect(example.version).toBe(2);
    expect(Object.keys(example.platforms)).toEqual(
      expect.arrayContaining(["linux", "darwin", "win32"]),
    );
    const text = JSON.stringify(example);
    for (const feature of [
      '"remove"',
      '"removeMatching"',
      '"inherit"',
      '"fromEnvironment"',
      '"required":false',
      '"probes"',
      '"projectNode"',
      '"rules"',
      '"decision":"deny"',
      '"decision":"ask"',
      '"audit"',
    ]) {
      expect(text).toContain(feature);
    }
    expect(text).toMatch(/"fromEnvironment":"[A-Z_]+"}/);
    expect(text).toContain('"allowBackground":true');
    expect(text).toContain('"enabled":false');
    for (const feature of [
      '"sandbox":{',
      '"sandbox":null',
      '"writablePaths"',
      '"protectedPaths"',
    ]) {
      expect(text).toContain(feature);
    }
    expect(text).toContain('"bwrapPath"');
  });

  it("the schema file is a valid draft 2020-12 schema that compiles in strict mode", () => {
    const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true });
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it("the schema is strict at every object level", () => {
    const defs = schema.$defs as Record<string, Json>;
    const closed = [
      "manifestV1",
      "manifestV2",
      "platformV1",
      "platformV2",
      "program",
      "programOverride",
      "policy",
      "environmentLayer",
      "environmentReference",
      "probe",
      "projectNode",
      "nodeResolution",
    ];
    for (const name of closed) expect(defs[name]?.additionalProperties, name).toBe(false);
  });
});
