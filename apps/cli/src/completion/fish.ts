/**
 * The fish completion script: a function that walks the command line to the command it names, and
 * one `complete` line per subcommand and option, conditioned on that command, with descriptions.
 */
import { brief, spellings, type CompletionOption, type CompletionTree } from './tree.js';

/** Single-quoted for fish: only \\ and ' are special inside. */
function fq(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function fishScript(tree: CompletionTree): string {
  const fn = `__${tree.name.replace(/[^A-Za-z0-9]/g, '_')}`;
  const cases = (rows: [string, string[]][]): string =>
    rows.filter(([, v]) => v.length > 0).map(([k, v]) => `        case ${fq(k)}\n            printf '%s\\n' ${v.map(fq).join(' ')}`).join('\n');
  const subs = cases(tree.nodes.map((n) => [n.path, n.subcommands.map((s) => s.name)]));
  const valueOpts = cases(tree.nodes.map((n) => [n.path, n.options.filter((o) => o.takesValue).flatMap(spellings)]));
  const lines: string[] = [];
  const optionLine = (condition: string | undefined, o: CompletionOption): string => {
    const parts = [`complete -c ${tree.name}`];
    if (condition !== undefined) parts.push(`-n ${fq(condition)}`);
    if (o.long !== undefined) parts.push(`-l ${fq(o.long.slice(2))}`);
    if (o.short !== undefined) parts.push(`-s ${fq(o.short.slice(1))}`);
    if (o.choices.length > 0) parts.push(`-x -a ${fq(o.choices.join(' '))}`);
    else if (o.takesValue) parts.push('-r');
    parts.push(`-d ${fq(brief(o.description))}`);
    return parts.join(' ');
  };
  for (const o of tree.globals) lines.push(optionLine(undefined, o));
  for (const n of tree.nodes) {
    const at = `${fn}_at ${fq(n.path)}`;
    for (const s of n.subcommands) lines.push(`complete -c ${tree.name} -f -n ${fq(at)} -a ${fq(s.name)} -d ${fq(brief(s.description))}`);
    for (const o of n.options) lines.push(optionLine(at, o));
    const first = n.argChoices[0] ?? [];
    if (first.length > 0 && n.subcommands.length === 0) lines.push(`complete -c ${tree.name} -f -n ${fq(at)} -a ${fq(first.join(' '))}`);
  }
  return `# fish completion for ${tree.name}, generated from its command tree by \`${tree.name} completion fish\`.
# Load it now:    ${tree.name} completion fish | source
# Or for good:    ${tree.name} completion fish > ~/.config/fish/completions/${tree.name}.fish

function ${fn}_subs
    switch $argv[1]
${subs}
    end
end

function ${fn}_value_opts
    switch $argv[1]
${valueOpts}
    end
end

# The command the words before the cursor name ('' for the root), skipping option values.
function ${fn}_path
    set -l cmdpath ''
    set -l skip 0
    for w in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case '--*=*'
            case '-*'
                if contains -- $w (${fn}_value_opts $cmdpath) ${tree.globals.filter((o) => o.takesValue).flatMap(spellings).map(fq).join(' ')}
                    set skip 1
                end
            case '*'
                if contains -- $w (${fn}_subs $cmdpath)
                    if test -z "$cmdpath"
                        set cmdpath $w
                    else
                        set cmdpath "$cmdpath $w"
                    end
                end
        end
    end
    echo $cmdpath
end

function ${fn}_at
    set -l p (${fn}_path)
    test "$p" = "$argv[1]"
end

${lines.join('\n')}
`;
}
