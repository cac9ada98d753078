// Reading and writing environment variables by name; names are case-insensitive on Windows (SPEC §9.4).

/** A child environment: every variable has a value. */
export type Environment = Record<string, string>;

/** The server's startup environment as the host gave it (process.env-like). */
export type StartupEnvironment = Record<string, string | undefined>;

/** The keys of `env` that name `name` on this platform (several only on Windows, by case). */
export function keysFor(
  env: Record<string, unknown>,
  name: string,
  platform: NodeJS.Platform,
): string[] {
  if (platform !== "win32") return Object.hasOwn(env, name) ? [name] : [];
  const upper = name.toUpperCase();
  return Object.keys(env).filter((key) => key.toUpperCase() === upper);
}

/** The value of a variable, or undefined when it is not set. */
export function getVariable(
  env: Record<string, string | undefined>,
  name: string,
  platform: NodeJS.Platform,
): string | undefined {
  for (const key of keysFor(env, name, platform)) {
    const value = env[key];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Sets a variable; on Windows an existing key keeps its spelling and case variants are dropped. */
export function setVariable(
  env: Environment,
  name: string,
  value: string,
  platform: NodeJS.Platform,
): void {
  const [existing, ...duplicates] = keysFor(env, name, platform);
  for (const duplicate of duplicates) delete env[duplicate];
  env[existing ?? name] = value;
}

/** Removes a variable (every case variant on Windows). */
export function removeVariable(env: Environment, name: string, platform: NodeJS.Platform): void {
  for (const key of keysFor(env, name, platform)) delete env[key];
}

/** A copy of the startup environment without unset (undefined) entries. */
export function snapshotEnvironment(startupEnv: StartupEnvironment): Environment {
  const env: Environment = {};
  for (const [name, value] of Object.entries(startupEnv)) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}
