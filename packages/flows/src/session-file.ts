/**
 * The session state file `.ratchet/flows/<session>.json`, a versioned @ratchet/store document. Its
 * validator is hand-written (no zod on the CLI path); schema.ts holds the zod mirror and a test
 * keeps both in agreement.
 */
import { join } from 'node:path';
import { defineDocument, openDocument, type Document, type Migration, type SafeParseResult, type Schema, type SchemaIssue } from '@ratchet/store';
import { FLOW_ID, SESSION_ID, checkSessionId } from './ids.js';
import { FINISHED_STATUSES, SESSION_MODES, SESSION_STATUSES, VERDICTS, type SessionState } from './types.js';

export const SESSION_SCHEMA_URL = 'https://unpkg.com/@ratchet/flows/schemas/flow-session.schema.json';
/**
 * 2: `baseline` (artifact digests at the step's start), `stepOutputs`, `then`, `verdicts`,
 * `clarificationAnswers`, the skill statuses. 3: `handoff` and each verdict's `report`. Older files
 * are migrated on read.
 */
export const SESSION_VERSION = 3;
/** Where sessions live, relative to the project root. */
export const SESSIONS_DIR = '.ratchet/flows';
const HISTORY_EVENTS = ['start', 'enter', 'skip', 'leave', 'loop', 'remediate', 'branch', 'halt', 'resume', 'complete', 'set', 'learnings', 'decline'];

type Issues = SchemaIssue[];

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const KEYS = ['sessionId', 'flow', 'mode', 'status', 'current', 'vars', 'visits', 'iterations', 'remediations', 'branches', 'notes', 'haltReason', 'clarificationQuestions', 'clarificationAnswers', 'history', 'revision', 'baseline', 'stepOutputs', 'then', 'verdicts', 'handoff'];

/** Structural check of a session document (without the store's envelope keys). */
export const sessionSchema: Schema<SessionState> = {
  safeParse(input: unknown): SafeParseResult<SessionState> {
    const issues: Issues = [];
    const bad = (path: PropertyKey[], message: string): void => void issues.push({ path, message });
    if (!isObj(input)) return { success: false, error: { issues: [{ path: [], message: 'a session must be an object' }] } };
    for (const key of Object.keys(input)) if (!KEYS.includes(key)) issues.push({ path: [], message: `unknown property "${key}"`, code: 'unrecognized_keys', keys: [key] } as SchemaIssue);
    const str = (key: string, v: unknown = input[key], path: PropertyKey[] = [key]): void => {
      if (typeof v !== 'string') bad(path, 'expected a string');
    };
    const strMap = (key: string, kind: 'string' | 'int' | 'list'): void => {
      const v = input[key];
      if (!isObj(v)) return bad([key], 'expected an object');
      for (const [k, x] of Object.entries(v)) {
        const ok = kind === 'string' ? typeof x === 'string' : kind === 'int' ? Number.isSafeInteger(x) && (x as number) >= 0 : Array.isArray(x) && x.every((y) => typeof y === 'string');
        if (!ok) bad([key, k], kind === 'string' ? 'expected a string' : kind === 'int' ? 'expected a non-negative integer' : 'expected an array of strings');
      }
    };
    str('sessionId');
    if (typeof input.sessionId === 'string') {
      try {
        checkSessionId(input.sessionId);
      } catch {
        bad(['sessionId'], 'not a valid session id');
      }
    }
    if (!isObj(input.flow) || typeof input.flow.id !== 'string' || typeof input.flow.ref !== 'string' || Object.keys(input.flow).length !== 2) bad(['flow'], 'expected { id, ref }');
    if (!SESSION_MODES.includes(input.mode as never)) bad(['mode'], `expected one of ${SESSION_MODES.join(', ')}`);
    if (!SESSION_STATUSES.includes(input.status as never)) bad(['status'], `expected one of ${SESSION_STATUSES.join(', ')}`);
    if (input.current !== null) str('current');
    strMap('vars', 'string');
    strMap('visits', 'int');
    strMap('iterations', 'int');
    strMap('remediations', 'int');
    strMap('branches', 'list');
    strMap('notes', 'list');
    if (input.haltReason !== null) str('haltReason');
    if (!Array.isArray(input.clarificationQuestions) || !input.clarificationQuestions.every((q) => typeof q === 'string')) bad(['clarificationQuestions'], 'expected an array of strings');
    if (!Array.isArray(input.clarificationAnswers) || !input.clarificationAnswers.every((q) => typeof q === 'string')) bad(['clarificationAnswers'], 'expected an array of strings');
    if (!Array.isArray(input.history)) bad(['history'], 'expected an array');
    else
      input.history.forEach((h: unknown, i) => {
        if (!isObj(h) || !HISTORY_EVENTS.includes(h.event as string) || !(h.step === null || typeof h.step === 'string') || typeof h.at !== 'string') bad(['history', i], 'expected { event, step, at, to?, detail? }');
        else {
          if (h.to !== undefined && h.to !== null && typeof h.to !== 'string') bad(['history', i, 'to'], 'expected a string or null');
          if (h.detail !== undefined && typeof h.detail !== 'string') bad(['history', i, 'detail'], 'expected a string');
          for (const k of Object.keys(h)) if (!['event', 'step', 'at', 'to', 'detail'].includes(k)) bad(['history', i, k], `unknown property "${k}"`);
        }
      });
    if (!Number.isSafeInteger(input.revision) || (input.revision as number) < 0) bad(['revision'], 'expected a non-negative integer');
    if (!isObj(input.baseline)) bad(['baseline'], 'expected an object');
    else for (const [k, x] of Object.entries(input.baseline)) if (x !== null && typeof x !== 'string') bad(['baseline', k], 'expected a digest string or null');
    if (!isObj(input.stepOutputs)) bad(['stepOutputs'], 'expected an object');
    else
      for (const [k, list] of Object.entries(input.stepOutputs)) {
        if (!Array.isArray(list)) bad(['stepOutputs', k], 'expected an array');
        else
          list.forEach((o: unknown, i) => {
            const ok = isObj(o) && Object.keys(o).every((x) => ['visit', 'text', 'digest', 'at'].includes(x)) && Number.isSafeInteger(o.visit) && (o.visit as number) >= 1 && ['text', 'digest', 'at'].every((x) => typeof o[x] === 'string');
            if (!ok) bad(['stepOutputs', k, i], 'expected { visit (>= 1), text, digest, at }');
          });
      }
    if (!Array.isArray(input.then) || !input.then.every((f) => typeof f === 'string' && FLOW_ID.test(f))) bad(['then'], 'expected an array of flow names');
    if (!isObj(input.verdicts)) bad(['verdicts'], 'expected an object');
    else
      for (const [k, list] of Object.entries(input.verdicts)) {
        if (!Array.isArray(list)) bad(['verdicts', k], 'expected an array');
        else
          list.forEach((o: unknown, i) => {
            const ok =
              isObj(o) &&
              Object.keys(o).every((x) => ['visit', 'verdict', 'at', 'report'].includes(x)) &&
              Number.isSafeInteger(o.visit) &&
              (o.visit as number) >= 1 &&
              VERDICTS.includes(o.verdict as never) &&
              typeof o.at === 'string' &&
              (o.report === undefined || typeof o.report === 'string');
            if (!ok) bad(['verdicts', k, i], 'expected { visit (>= 1), verdict (PASS or FAIL), at, report? }');
          });
      }
    if (input.handoff !== undefined) {
      const h = input.handoff;
      const declined = isObj(h) ? h.declined : undefined;
      const ok =
        isObj(h) &&
        Object.keys(h).every((k) => ['flow', 'session', 'declined'].includes(k)) &&
        typeof h.flow === 'string' &&
        FLOW_ID.test(h.flow) &&
        typeof h.session === 'string' &&
        SESSION_ID.test(h.session) &&
        (declined === undefined || (isObj(declined) && Object.keys(declined).every((k) => k === 'reason' || k === 'at') && typeof declined.reason === 'string' && typeof declined.at === 'string'));
      if (!ok) bad(['handoff'], 'expected { flow, session, declined?: { reason, at } }');
    }
    const finished = FINISHED_STATUSES.includes(input.status as never);
    if (finished && input.current !== null) bad(['current'], `a ${String(input.status)} session has no current step`);
    if (!finished && input.current === null) bad(['current'], 'an unfinished session must have a current step');
    if (issues.length > 0) return { success: false, error: { issues } };
    return { success: true, data: input as unknown as SessionState };
  },
};

const EMPTY: SessionState = {
  sessionId: 'none',
  flow: { id: '', ref: '' },
  mode: 'normal',
  status: 'COMPLETED',
  current: null,
  vars: {},
  visits: {},
  iterations: {},
  remediations: {},
  branches: {},
  notes: {},
  haltReason: null,
  clarificationQuestions: [],
  clarificationAnswers: [],
  history: [],
  revision: 0,
  baseline: {},
  stepOutputs: {},
  then: [],
  verdicts: {},
};

/**
 * Sessions written before a field existed read as if it had its empty value: a version 1 session has
 * no baseline, so its current step is judged on shape and the ledger until it is left.
 */
const MIGRATIONS: Record<number, Migration> = {
  // A version 1 resume cleared the questions, so a version 1 session has no answered ones.
  1: (data) => ({ ...data, clarificationAnswers: [], baseline: {}, stepOutputs: {}, then: [], verdicts: {} }),
  // Version 3 only adds optional fields: a version 2 session is a version 3 one without them.
  2: (data) => data,
};

export const sessionDocument = defineDocument<SessionState>({ schema: sessionSchema, version: SESSION_VERSION, $schema: SESSION_SCHEMA_URL, initial: EMPTY, migrations: MIGRATIONS });

export function sessionPath(root: string, sessionId: string): string {
  return join(root, SESSIONS_DIR, `${checkSessionId(sessionId)}.json`);
}

export function openSession(root: string, sessionId: string): Document<SessionState> {
  return openDocument(sessionPath(root, sessionId), sessionDocument, { createParentDirs: true });
}
