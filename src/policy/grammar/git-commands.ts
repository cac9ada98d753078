// The subcommands git itself provides (SPEC §21.1). A word that is none of them is an alias or a
// `git-<word>` program found on PATH — what it runs is config or another program, not argv — so a
// call with such a subcommand is decided by the program's strictest rule. Git never lets an alias
// shadow one of these.

/** Built-in commands (`git --list-cmds=builtins`, git 2.39 to 2.50) and the scripts git ships. */
export const GIT_COMMANDS: ReadonlySet<string> = new Set(
  `add am annotate apply archive backfill bisect bisect--helper blame branch bugreport bundle
  cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout--worker
  checkout-index cherry cherry-pick citool clean clone column commit commit-graph commit-tree
  config count-objects credential credential-cache credential-cache--daemon credential-store
  describe diagnose diff diff-files diff-index diff-pairs diff-tree difftool env--helper
  fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo
  format-patch fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id grep gui hash-object help
  hook index-pack init init-db instaweb interpret-trailers last-modified log ls-files ls-remote
  ls-tree mailinfo mailsplit maintenance merge merge-base merge-file merge-index merge-ours
  merge-recursive merge-recursive-ours merge-recursive-theirs merge-subtree merge-tree mergetool
  mktag mktree multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id
  pickaxe prune prune-packed pull push range-diff read-tree rebase receive-pack reflog refs remote
  remote-ext remote-fd repack replace replay repo request-pull rerere reset restore rev-list
  rev-parse revert rm send-email send-pack shortlog show show-branch show-index show-ref
  sparse-checkout stage stash status stripspace submodule submodule--helper switch symbolic-ref
  tag unpack-file unpack-objects update-index update-ref update-server-info upload-archive
  upload-archive--writer upload-pack var verify-commit verify-pack verify-tag version whatchanged
  worktree write-tree`.split(/\s+/),
);
