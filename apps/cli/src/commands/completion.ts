import type { CommandAction } from '../program.js';
import { SHELLS, completionScript, type Shell } from '../completion/index.js';
import { CliError } from '../errors.js';
import { EXIT_OK } from '../exit-codes.js';
import { wholeProgram } from '../whole-program.js';

/** `ratchet completion <bash|zsh|fish>`: the script on stdout (also under --quiet: it is the output). */
const completion: CommandAction = async (ctx, args) => {
  const shell = args[0];
  if (!SHELLS.includes(shell as Shell)) throw new CliError(`completion: unknown shell "${String(shell)}" (expected ${SHELLS.join(', ')})`);
  const script = completionScript(await wholeProgram(), shell as Shell);
  if (ctx.json) ctx.emitJson({ ok: true, shell, script });
  else ctx.io.stdout(script);
  return EXIT_OK;
};
export default completion;
