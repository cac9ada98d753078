// npm's command table (npm 11, lib/utils/cmd-list.js): its commands, its aliases and typo
// aliases, and — as npm itself does — unique abbreviations of either (`pub` → publish). SPEC §21.1
// names `run-script` as the canonical command of `run`/`rum`, so every spelling of it ends there.

import type { CommandTable } from "./package-manager.js";

const COMMANDS = `access adduser approve-scripts audit bugs cache ci completion config dedupe
  deny-scripts deprecate diff dist-tag docs doctor edit exec explain explore find-dupes fund get
  help help-search init install install-ci-test install-scripts install-test link ll login logout
  ls org outdated owner pack ping pkg prefix profile prune publish query rebuild repo restart root
  run-script sbom search set shrinkwrap stage star stars start stop team test token trust
  undeprecate uninstall unpublish unstar update version view whoami`.split(/\s+/);

const ALIASES: Record<string, string> = {
  author: "owner",
  home: "docs",
  issues: "bugs",
  info: "view",
  show: "view",
  find: "search",
  add: "install",
  unlink: "uninstall",
  remove: "uninstall",
  rm: "uninstall",
  r: "uninstall",
  un: "uninstall",
  rb: "rebuild",
  list: "ls",
  ln: "link",
  create: "init",
  i: "install",
  it: "install-test",
  cit: "install-ci-test",
  u: "update",
  up: "update",
  c: "config",
  s: "search",
  se: "search",
  tst: "test",
  t: "test",
  ddp: "dedupe",
  v: "view",
  run: "run-script",
  "clean-install": "ci",
  "clean-install-test": "install-ci-test",
  x: "exec",
  why: "explain",
  la: "ll",
  verison: "version",
  ic: "ci",
  innit: "init",
  in: "install",
  ins: "install",
  inst: "install",
  insta: "install",
  instal: "install",
  isnt: "install",
  isnta: "install",
  isntal: "install",
  isntall: "install",
  "install-clean": "ci",
  "isntall-clean": "ci",
  hlep: "help",
  "dist-tags": "dist-tag",
  upgrade: "update",
  udpate: "update",
  rum: "run-script",
  sit: "install-ci-test",
  urn: "run-script",
  ogr: "org",
  "add-user": "adduser",
};

/** npm's command table: camelCase, exact names, aliases, then unique abbreviations. */
export const NPM_COMMANDS: CommandTable = {
  commands: new Set(COMMANDS),
  aliases: ALIASES,
  abbreviations: true,
  camelCase: true,
  execCommands: new Set(["exec"]),
  shellOptions: ["-c", "--call"],
  valueOptions: new Set([
    "-C",
    "--prefix",
    "-w",
    "--workspace",
    "--registry",
    "--userconfig",
    "--globalconfig",
    "--cache",
    "--loglevel",
    "--tag",
    "--otp",
    "--access",
    "--scope",
    "-p",
    "--package",
    "-c",
    "--call",
  ]),
};
