// pnpm's and yarn's command tables (SPEC §21.1). Neither abbreviates; a word that is not a
// command runs the package.json script of that name, which the literal word then stands for.
// yarn's `exec` runs a shell line (yarn 2+), so it is never read as an argv.

import type { CommandTable } from "./package-manager.js";

/** pnpm 9/10: its commands and their aliases (`pnpm help`). */
export const PNPM_COMMANDS: CommandTable = {
  commands: new Set(
    `add approve-builds audit bin cache cat-file cat-index config create dedupe deploy dlx doctor
    env exec fetch find-hash help ignored-builds import init install install-test licenses link
    list login logout outdated pack patch patch-commit patch-remove prune publish rebuild remove
    restart root run self-update server setup start store test unlink update why`.split(/\s+/),
  ),
  aliases: {
    i: "install",
    it: "install-test",
    ln: "link",
    ls: "list",
    ll: "list",
    la: "list",
    rm: "remove",
    uninstall: "remove",
    un: "remove",
    uni: "remove",
    up: "update",
    upgrade: "update",
    "run-script": "run",
    t: "test",
    tst: "test",
    c: "config",
    rb: "rebuild",
    dislink: "unlink",
  },
  abbreviations: false,
  camelCase: false,
  execCommands: new Set(["exec", "dlx"]),
  shellOptions: ["-c", "--shell-mode"],
  valueOptions: new Set([
    "-C",
    "--dir",
    "-F",
    "--filter",
    "--filter-prod",
    "-w",
    "--workspace-root",
    "--reporter",
    "--loglevel",
    "--registry",
    "--config",
    "--package",
  ]),
};

/** yarn 1 and yarn 2+: their commands and aliases (`yarn help`). */
export const YARN_COMMANDS: CommandTable = {
  commands: new Set(
    `add audit autoclean bin cache check config create dedupe dlx explain generate-lock-entry
    global help import info init install licenses link list login logout node npm outdated owner
    pack patch patch-commit plugin policies publish rebuild remove run search set stage tag team
    test unlink unplug up upgrade upgrade-interactive version versions why workspace workspaces`.split(
      /\s+/,
    ),
  ),
  aliases: { i: "install", rm: "remove", "run-script": "run" },
  abbreviations: false,
  camelCase: false,
  execCommands: new Set(["dlx"]),
  shellCommands: new Set(["exec"]),
  shellOptions: ["-c", "--shell-mode"],
  valueOptions: new Set([
    "--cwd",
    "--modules-folder",
    "--cache-folder",
    "--registry",
    "-p",
    "--package",
  ]),
};
