/**
 * call_plan targets: registry first (a logical name), then a project-relative path. Both must stay
 * inside the project root; registry keys such as `__proto__` are never looked up.
 */
import { normalizeRelative } from './paths.js';

export type PlanRegistry = Readonly<Record<string, string>>;

export type CallResolution = { ok: true; path: string; via: 'registry' | 'path' } | { ok: false; message: string };

const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

export function resolveCall(target: string, registry: PlanRegistry | undefined): CallResolution {
  if (registry !== undefined && !UNSAFE.has(target) && Object.hasOwn(registry, target)) {
    const entry = registry[target];
    const path = typeof entry === 'string' ? normalizeRelative(entry) : undefined;
    if (path === undefined) return { ok: false, message: `the registry entry ${JSON.stringify(target)} points outside the project root (${JSON.stringify(entry)})` };
    return { ok: true, path, via: 'registry' };
  }
  const path = normalizeRelative(target);
  if (path === undefined) return { ok: false, message: `call_plan ${JSON.stringify(target)} resolves outside the project root (absolute paths and ".." out of the root are refused)` };
  return { ok: true, path, via: 'path' };
}
