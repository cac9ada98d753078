// The modes of the server's private directories and files (SPEC §8, §13, §19): owner only. One
// place for them outside confinement/ and policy/ (which keep their own, see docs/architecture.md).

/** A private directory: rwx for the owner, nothing for anyone else. */
export const PRIVATE_DIR_MODE = 0o700;

/** A private file: rw for the owner, nothing for anyone else. */
export const PRIVATE_FILE_MODE = 0o600;
