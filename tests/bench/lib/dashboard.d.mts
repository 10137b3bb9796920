// Types of dashboard.mjs for the TypeScript tests that import it.
import type { ChildProcess } from 'node:child_process';
import type { BrowserContext } from 'playwright-core';
import type { StorageBackend } from '@ratchet/store';

export declare const bin: string;
export interface ChromiumAvailability {
  available: boolean;
  path: string;
  reason: string;
}
export declare function chromiumAvailability(): ChromiumAvailability;
export declare function requireChromiumOrSkip(env?: Record<string, string | undefined>): ChromiumAvailability;
export declare function launchBrowser(options?: { viewport?: { width: number; height: number } }): Promise<{ context: BrowserContext; close(): Promise<void> }>;
export interface ServeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}
export interface RunningServe {
  /** The first line the server printed (its URL, or the --json document). */
  url: string;
  child: ChildProcess;
  stderr(): string;
  stdout(): string;
  exited: Promise<ServeExit>;
  stop(): Promise<ServeExit>;
}
export declare function startServe(cwd: string, options?: { env?: Record<string, string>; args?: string[] }): Promise<RunningServe>;
export declare function ratchetAsync(args: string[], options?: { cwd?: string; env?: Record<string, string> }): Promise<{ status: number | null; stdout: string; stderr: string }>;
export declare function seedCampaign(root: string, n: number, options?: { objective?: string; window?: number; layerWidth?: number; seed?: number; progress?: boolean; backend?: StorageBackend }): Promise<void>;
