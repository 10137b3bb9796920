/**
 * The bash completion script: the tree as `case` tables, and one function that walks the words
 * before the cursor to the command they name (skipping option values) and offers that command's
 * subcommands, options, option values or argument choices; otherwise file names.
 */
import { shQuote, spellings, type CompletionTree } from './tree.js';

export function bashScript(tree: CompletionTree): string {
  const fn = `_${tree.name.replace(/[^A-Za-z0-9]/g, '_')}`;
  const cases = (rows: [string, string][]): string => rows.filter(([, v]) => v !== '').map(([k, v]) => `    ${shQuote(k)}) printf '%s\\n' ${v} ;;`).join('\n');
  const globalValueOptions = tree.globals.filter((o) => o.takesValue).flatMap(spellings);
  const globalOptions = tree.globals.flatMap(spellings);
  const globalChoices = tree.globals.filter((o) => o.choices.length > 0).flatMap((o) => spellings(o).map((s): [string, string] => [`*|${s}`, o.choices.map(shQuote).join(' ')]));
  const subs = cases(tree.nodes.map((n) => [n.path, n.subcommands.map((s) => shQuote(s.name)).join(' ')]));
  const opts = cases(tree.nodes.map((n) => [n.path, n.options.flatMap(spellings).map(shQuote).join(' ')]));
  const valueOpts = cases(tree.nodes.map((n) => [n.path, n.options.filter((o) => o.takesValue).flatMap(spellings).map(shQuote).join(' ')]));
  const choices = cases([
    ...tree.nodes.flatMap((n) => n.options.filter((o) => o.choices.length > 0).flatMap((o) => spellings(o).map((s): [string, string] => [`${n.path}|${s}`, o.choices.map(shQuote).join(' ')]))),
    ...globalChoices,
  ]).replace(/^ {4}'\*\|/gm, "    *'|");
  const args = cases(tree.nodes.flatMap((n) => n.argChoices.map((c, i): [string, string] => [`${n.path}|${i}`, c.map(shQuote).join(' ')])));
  return `# bash completion for ${tree.name}, generated from its command tree by \`${tree.name} completion bash\`.
# Load it now:    source <(${tree.name} completion bash)
# Or for good:    ${tree.name} completion bash > ~/.local/share/bash-completion/completions/${tree.name}

${fn}_subs() {
  case "$1" in
${subs}
  esac
}
${fn}_opts() {
  case "$1" in
${opts}
  esac
}
${fn}_value_opts() {
  case "$1" in
${valueOpts}
  esac
}
${fn}_choices() {
  case "$1" in
${choices}
  esac
}
${fn}_args() {
  case "$1" in
${args}
  esac
}

# The words of $1 (one a line) that start with $cur, as data: compgen -W would expand $(...) in them.
${fn}_offer() {
  local w
  while IFS= read -r w; do
    [[ -n "$w" && "$w" == "$cur"* ]] && COMPREPLY+=("$w")
  done <<< "$1"
}

${fn}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" npos=0 i w skip=0 values
  local IFS=$'\\n'
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$w" in
      --*=*) ;;
      -*)
        values="$(${fn}_value_opts "$path")"$'\\n'${shQuote(globalValueOptions.join('\n'))}
        if [[ $'\\n'"$values"$'\\n' == *$'\\n'"$w"$'\\n'* ]]; then skip=1; fi
        ;;
      *)
        if [[ $'\\n'"$(${fn}_subs "$path")"$'\\n' == *$'\\n'"$w"$'\\n'* ]]; then
          path="\${path:+$path }$w"; npos=0
        else
          npos=$((npos + 1))
        fi
        ;;
    esac
  done
  COMPREPLY=()
  if ((skip)); then
    values="$(${fn}_choices "$path|\${COMP_WORDS[COMP_CWORD - 1]}")"
    if [[ -n "$values" ]]; then ${fn}_offer "$values"; else COMPREPLY=($(compgen -f -- "$cur")); fi
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    ${fn}_offer "$(${fn}_opts "$path")"$'\\n'${shQuote(globalOptions.join('\n'))}
    return 0
  fi
  values="$(${fn}_subs "$path")"
  if [[ -n "$values" && $npos -eq 0 ]]; then ${fn}_offer "$values"; return 0; fi
  values="$(${fn}_args "$path|$npos")"
  if [[ -n "$values" ]]; then ${fn}_offer "$values"; else COMPREPLY=($(compgen -f -- "$cur")); fi
  return 0
}
complete -o filenames -F ${fn} ${tree.name}
`;
}
