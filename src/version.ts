// The package's name and version, read from package.json (never written twice).

import { readFileSync } from "node:fs";

const packageJson = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as { name: string; version: string };

export const SERVER_NAME: string = packageJson.name;
export const SERVER_VERSION: string = packageJson.version;
