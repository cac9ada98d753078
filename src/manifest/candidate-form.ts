// The forms a Candidate may take (SPEC §1), told apart by the rules of the platform it runs on.

/**
 * - `absolute`: an absolute path of this platform;
 * - `home`: `~/…`, expanded with the home directory;
 * - `manifest-relative`: `./…` or `../…`, relative to the manifest file's directory;
 * - `bare`: a name without any separator, looked up on the program's PATH;
 * - `foreign-absolute`: an absolute path of the other platform family (a Windows drive path on
 *   POSIX), which never resolves here, so one manifest can list candidates for several systems.
 */
export type CandidateForm = "absolute" | "home" | "manifest-relative" | "bare" | "foreign-absolute";

/** Describes the accepted forms, for messages. */
export const CANDIDATE_FORMS_TEXT =
  "an absolute path, a ~/ path, a ./ or ../ path (relative to the manifest file) or a bare program name";

const WINDOWS_DRIVE_OR_UNC = /^(?:[A-Za-z]:[\\/]|\\\\)/;
const WINDOWS_ROOTED = /^[\\/]/;
const WINDOWS_HOME = /^~[\\/]/;
const WINDOWS_RELATIVE = /^\.\.?[\\/]/;
const WINDOWS_SEPARATOR = /[\\/]/;

/** The form of a candidate on Windows, where both / and \ separate. */
function windowsForm(candidate: string): CandidateForm | undefined {
  if (WINDOWS_HOME.test(candidate)) return "home";
  if (WINDOWS_RELATIVE.test(candidate)) return "manifest-relative";
  if (WINDOWS_DRIVE_OR_UNC.test(candidate) || WINDOWS_ROOTED.test(candidate)) return "absolute";
  if (!WINDOWS_SEPARATOR.test(candidate)) return "bare";
  return undefined;
}

/** The form of a candidate on POSIX, where only / separates. */
function posixForm(candidate: string): CandidateForm | undefined {
  if (candidate.startsWith("~/")) return "home";
  if (candidate.startsWith("./") || candidate.startsWith("../")) return "manifest-relative";
  if (candidate.startsWith("/")) return "absolute";
  if (WINDOWS_DRIVE_OR_UNC.test(candidate)) return "foreign-absolute";
  if (!candidate.includes("/")) return "bare";
  return undefined;
}

/** The form of a candidate on a platform, or undefined when it has none of the accepted forms. */
export function candidateForm(
  candidate: string,
  platform: NodeJS.Platform,
): CandidateForm | undefined {
  return platform === "win32" ? windowsForm(candidate) : posixForm(candidate);
}

/** Whether a candidate has an accepted form on the given platforms (all of them). */
export function isCandidateWellFormed(
  candidate: string,
  platforms: readonly NodeJS.Platform[],
): boolean {
  return platforms.every((platform) => candidateForm(candidate, platform) !== undefined);
}
