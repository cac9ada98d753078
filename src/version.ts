// The package's name and version, read from package.json (never written twice).

import { PACKAGE_JSON } from "./package-root.js";

export const SERVER_NAME: string = PACKAGE_JSON.name;
export const SERVER_VERSION: string = PACKAGE_JSON.version;
