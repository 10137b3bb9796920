import type { TestProject } from 'vitest/node';
import { compileForChildProcesses } from './compile.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the transpiled package source and test workers live (see compile.ts). */
    childDir: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide('childDir', await compileForChildProcesses());
}
