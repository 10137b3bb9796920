/**
 * The zsh completion script: the same walk as bash (words before the cursor to the command they
 * name), offering subcommands and options with their descriptions through `_describe`, and option
 * values or argument choices; otherwise files. Works autoloaded from $fpath or sourced.
 */
import { brief, shQuote, spellings, type CompletionTree } from './tree.js';

export function zshScript(tree: CompletionTree): string {
  const fn = `_${tree.name.replace(/[^A-Za-z0-9]/g, '_')}`;
  const cases = (rows: [string, string[]][]): string =>
    rows.filter(([, v]) => v.length > 0).map(([k, v]) => `    ${shQuote(k)}) reply=(${v.map(shQuote).join(' ')}) ;;`).join('\n');
  const described = (name: string, description: string): string => `${name.replace(/:/g, '\\:')}:${brief(description)}`;
  const globalValueOptions = tree.globals.filter((o) => o.takesValue).flatMap(spellings);
  const globalOptions = tree.globals.flatMap((o) => spellings(o).map((s) => described(s, o.description)));
  const subs = cases(tree.nodes.map((n) => [n.path, n.subcommands.map((s) => described(s.name, s.description))]));
  const opts = cases(tree.nodes.map((n) => [n.path, n.options.flatMap((o) => spellings(o).map((s) => described(s, o.description)))]));
  const valueOpts = cases(tree.nodes.map((n) => [n.path, n.options.filter((o) => o.takesValue).flatMap(spellings)]));
  const choices = cases(tree.nodes.flatMap((n) => n.options.filter((o) => o.choices.length > 0).flatMap((o) => spellings(o).map((s): [string, string[]] => [`${n.path}|${s}`, [...o.choices]]))));
  const args = cases(tree.nodes.flatMap((n) => n.argChoices.map((c, i): [string, string[]] => [`${n.path}|${i}`, [...c]])));
  return `#compdef ${tree.name}
# zsh completion for ${tree.name}, generated from its command tree by \`${tree.name} completion zsh\`.
# Load it now:    source <(${tree.name} completion zsh)   (after compinit)
# Or for good:    ${tree.name} completion zsh > "\${fpath[1]}/_${tree.name}"

${fn}_subs() {
  reply=()
  case "$1" in
${subs}
  esac
}
${fn}_opts() {
  reply=()
  case "$1" in
${opts}
  esac
}
${fn}_value_opts() {
  reply=()
  case "$1" in
${valueOpts}
  esac
}
${fn}_choices() {
  reply=()
  case "$1" in
${choices}
  esac
}
${fn}_args() {
  reply=()
  case "$1" in
${args}
  esac
}

${fn}() {
  local cmdpath="" w i npos=0 skip=0
  local -a reply values globals
  globals=(${globalValueOptions.map(shQuote).join(' ')})
  local -a global_options=(${globalOptions.map(shQuote).join(' ')})
  for (( i = 2; i < CURRENT; i++ )); do
    w=\${words[i]}
    if (( skip )); then skip=0; continue; fi
    case $w in
      --*=*) ;;
      -*)
        ${fn}_value_opts "$cmdpath"
        values=($reply $globals)
        if (( \${values[(Ie)$w]} )); then skip=1; fi
        ;;
      *)
        ${fn}_subs "$cmdpath"
        values=(\${reply%%:*})
        if (( \${values[(Ie)$w]} )); then cmdpath="\${cmdpath:+$cmdpath }$w"; npos=0; else npos=$((npos + 1)); fi
        ;;
    esac
  done
  if (( skip )); then
    ${fn}_choices "$cmdpath|\${words[CURRENT-1]}"
    if (( $#reply )); then compadd -a reply; else _files; fi
    return
  fi
  if [[ \${words[CURRENT]} == -* ]]; then
    ${fn}_opts "$cmdpath"; values=($reply)
    values+=($global_options)
    _describe -t options option values
    return
  fi
  ${fn}_subs "$cmdpath"
  if (( $#reply && npos == 0 )); then values=($reply); _describe -t commands command values; return; fi
  ${fn}_args "$cmdpath|$npos"
  if (( $#reply )); then compadd -a reply; else _files; fi
}

if [[ \${funcstack[1]} == ${fn} ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${tree.name}
fi
`;
}
