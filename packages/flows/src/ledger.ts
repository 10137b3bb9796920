/**
 * The project's ledger of accepted artifacts, `.ratchet/flow-artifacts.json`: the digest of every
 * file and step output a gate accepted, with the session, step and visit it was accepted for. A
 * baseline (fresh.ts) only sees the step's own start; the ledger catches the other shortcut, a copy
 * of something another session, another step or an earlier iteration already handed in. Checking
 * and recording happen in one locked update, so two sessions cannot both hand in the same content.
 */
import { join } from 'node:path';
import { defineDocument, openDocument, type SafeParseResult, type Schema, type SchemaIssue } from '@ratchet/store';
import type { z } from 'zod';
import type { LedgerDataSchema } from './schema.js';

export const LEDGER_FILE = '.ratchet/flow-artifacts.json';
export const LEDGER_SCHEMA_URL = 'https://unpkg.com/@ratchet/flows/schemas/flow-artifacts.schema.json';
export const LEDGER_VERSION = 1;

/**
 * One artifact or step output a gate accepted: its contentDigest, and the session, step (`(learnings)`
 * for a skill's learnings) and visit (1 = first) it was accepted for.
 */
export type LedgerEntry = z.infer<typeof LedgerDataSchema>['accepted'][number];

/** `.ratchet/flow-artifacts.json` without the store's envelope. */
export type Ledger = z.infer<typeof LedgerDataSchema>;

const ENTRY_KEYS = ['digest', 'session', 'step', 'visit', 'artifact', 'at'];

export const ledgerSchema: Schema<Ledger> = {
  safeParse(input: unknown): SafeParseResult<Ledger> {
    const issues: SchemaIssue[] = [];
    const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    if (!isObj(input)) return { success: false, error: { issues: [{ path: [], message: 'the ledger must be an object' }] } };
    for (const key of Object.keys(input)) if (key !== 'accepted') issues.push({ path: [key], message: `unknown property "${key}"` });
    if (!Array.isArray(input.accepted)) issues.push({ path: ['accepted'], message: 'expected an array' });
    else
      input.accepted.forEach((e: unknown, i) => {
        const ok =
          isObj(e) &&
          Object.keys(e).every((k) => ENTRY_KEYS.includes(k)) &&
          ['digest', 'session', 'step', 'artifact', 'at'].every((k) => typeof e[k] === 'string') &&
          Number.isSafeInteger(e.visit) &&
          (e.visit as number) >= 1;
        if (!ok) issues.push({ path: ['accepted', i], message: 'expected { digest, session, step, visit (>= 1), artifact, at }' });
      });
    return issues.length > 0 ? { success: false, error: { issues } } : { success: true, data: input as unknown as Ledger };
  },
};

export const ledgerDocument = defineDocument<Ledger>({ schema: ledgerSchema, version: LEDGER_VERSION, $schema: LEDGER_SCHEMA_URL, initial: { accepted: [] } });

export function openLedger(root: string): ReturnType<typeof openDocument<Ledger>> {
  return openDocument(join(root, LEDGER_FILE), ledgerDocument, { createParentDirs: true });
}

class Conflicts extends Error {
  constructor(readonly problems: string[]) {
    super('conflicts');
  }
}

const sameUse = (a: LedgerEntry, b: LedgerEntry): boolean => a.session === b.session && a.step === b.step && a.visit === b.visit && a.artifact === b.artifact;

function where(e: LedgerEntry): string {
  return `session ${e.session} at step ${e.step}${e.visit > 1 ? ` (visit ${e.visit})` : ''}`;
}

/**
 * Record `candidates` as accepted, unless one is a copy: identical to something accepted for
 * another use (session, step, visit or artifact) or to another candidate. Returns one problem line
 * per copy, and then records nothing. Accepting the same use again (a retry after a crash between
 * this write and the session's) is not a copy.
 */
export async function claimArtifacts(root: string, candidates: readonly LedgerEntry[]): Promise<string[]> {
  if (candidates.length === 0) return [];
  try {
    await openLedger(root).update((ledger) => {
      const byDigest = new Map<string, LedgerEntry[]>();
      for (const e of ledger.accepted) {
        const list = byDigest.get(e.digest);
        if (list === undefined) byDigest.set(e.digest, [e]);
        else list.push(e);
      }
      const problems: string[] = [];
      candidates.forEach((c, i) => {
        const earlier = (byDigest.get(c.digest) ?? []).find((e) => !sameUse(e, c));
        if (earlier !== undefined) {
          problems.push(`${c.artifact} is identical to ${earlier.artifact}, accepted for ${where(earlier)}: hand in work done for this step, not a copy`);
          return;
        }
        const twin = candidates.slice(0, i).find((o) => o.digest === c.digest);
        if (twin !== undefined) problems.push(`${c.artifact} is identical to ${twin.artifact}: each artifact of this step must hold its own content`);
      });
      if (problems.length > 0) throw new Conflicts(problems);
      for (const c of candidates) if (!(byDigest.get(c.digest) ?? []).some((e) => sameUse(e, c))) ledger.accepted.push({ ...c });
    });
    return [];
  } catch (err) {
    if (err instanceof Conflicts) return err.problems;
    throw err;
  }
}
