import { describe, expect, test } from 'vitest';
import { dialectVocabulary, loadDialect } from '../src/index.js';
import { fdc, loadProtocol } from './support.js';

describe('dialectVocabulary: a dialect as the lines a plan may contain', () => {
  test('the shipped FDC dialect: every command with its argument shape and meaning, then the directives', () => {
    expect(dialectVocabulary(fdc.dialect)).toEqual([
      { usage: 'create_file_with_block <file>', meaning: 'Creates `<file>`, which must not exist yet. FSM symbol `write_op`.' },
      {
        usage: 'define_scope [args...]',
        meaning:
          'Research scoping: break the topic into the questions to answer and the search keywords; changes no file. Its step is reported with `ratchet run done --message "<the questions and the search keywords>"`. FSM symbol `read_op`.',
      },
      { usage: 'delete_file <file>', meaning: 'Deletes `<file>`, which must exist at this point of the plan. FSM symbol `delete_op`.' },
      { usage: 'google_search [args...]', meaning: 'Search the web; changes no file. FSM symbol `read_op`.' },
      { usage: 'grep [args...]', meaning: 'FSM symbol `read_op`.' },
      { usage: 'list_files [args...]', meaning: 'FSM symbol `read_op`.' },
      { usage: 'overwrite_file_with_block <file>', meaning: 'Writes `<file>`, creating or overwriting it. FSM symbol `write_op`.' },
      { usage: 'plan_step_complete [args...]', meaning: 'Mark a plan step done. FSM symbol `step_op`.' },
      { usage: 'read_file <file>', meaning: 'Reads `<file>`, which must exist at this point of the plan. FSM symbol `read_op`.' },
      { usage: 'rename_file <from> <to>', meaning: 'Moves `<from>` to `<to>`: `<from>` must exist, `<to>` must not. FSM symbol `move_op`.' },
      { usage: 'replace_with_git_merge_diff <file>', meaning: 'Edits `<file>`, which must exist at this point of the plan. FSM symbol `write_op`.' },
      {
        usage: 'run_in_bash_session [args...]',
        meaning: "Run a shell command; `ratchet task close --task-id <id>`, `close` and the original's `python3 tooling/fdc_cli.py close --task-id <id>` are the close command. FSM symbol `tool_exec`.",
      },
      { usage: 'run_in_bash_session close', meaning: 'Closes the plan: every plan ends with it (or with a command allowed right after it). FSM symbol `close_op`.' },
      // A `when` override with a `usage` is listed the way a plan author writes it, not as its pattern.
      { usage: 'run_in_bash_session ratchet task close --task-id <id>', meaning: 'Closes the plan: every plan ends with it (or with a command allowed right after it). FSM symbol `close_op`.' },
      { usage: 'run_in_bash_session python3 tooling/fdc_cli.py close --task-id <id>', meaning: 'Closes the plan: every plan ends with it (or with a command allowed right after it). FSM symbol `close_op`.' },
      { usage: 'set_plan [args...]', meaning: 'Declare the plan. FSM symbol `plan_op`.' },
      { usage: 'submit [args...]', meaning: 'Submit the work. Allowed only after the close command, at the end of the plan. FSM symbol `submit_op`.' },
      { usage: 'view_text_website [args...]', meaning: 'Read a web page; changes no file. FSM symbol `read_op`.' },
      { usage: 'for_each_file <glob>', meaning: expect.stringContaining('`{file1}`, `{file2}`, ... are the files of the enclosing blocks') as string },
      { usage: 'call_plan <name-or-path>', meaning: expect.stringContaining('then go on with the next line') as string },
    ]);
  });

  test('follows the dialect data: a new command, a file argument after others, a non-literal override, a description without a full stop', () => {
    const { machine } = loadProtocol('fdc');
    const { dialect } = loadDialect(
      {
        id: 'mine',
        fsm: 'fdc.fsm.json',
        close: 'close_op',
        commands: {
          copy_into: { symbol: 'write_op', effect: 'write', path: 2, description: '  Copy a template\n into a file  ' },
          finish: { symbol: 'tool_exec', when: [{ argsMatch: '^(done|close)$', symbol: 'close_op' }] },
        },
      },
      machine,
    );
    expect(dialectVocabulary(dialect!).slice(0, 3)).toEqual([
      { usage: 'copy_into <arg> <arg> <file>', meaning: 'Copy a template into a file. Writes `<file>`, creating or overwriting it. FSM symbol `write_op`.' },
      { usage: 'finish [args...]', meaning: 'FSM symbol `tool_exec`.' },
      { usage: 'finish <args matching /^(done|close)$/>', meaning: 'Closes the plan: every plan ends with it. FSM symbol `close_op`.' },
    ]);
  });

  test('"usage" and "doneMessage" must be non-empty strings; each problem has its pointer', () => {
    const { machine } = loadProtocol('fdc');
    const { problems } = loadDialect(
      {
        id: 'bad',
        fsm: 'fdc.fsm.json',
        close: 'close_op',
        commands: {
          finish: { symbol: 'tool_exec', doneMessage: '  ', when: [{ argsMatch: '^close$', symbol: 'close_op', usage: 42 }] },
          note: { symbol: 'read_op', doneMessage: ['words'] },
        },
      },
      machine,
    );
    expect(problems.map((p) => p.pointer)).toEqual(['/commands/finish/doneMessage', '/commands/finish/when/0/usage', '/commands/note/doneMessage']);
  });
});
