/**
 * Command areas registered after the core commands (fsm, plan, init, quickstart). Each area module
 * defines its commands' names, options and help text and loads implementations lazily through the
 * ActionFactory, so registering an area costs nothing at start-up.
 */
import type { Command } from 'commander';
import type { ActionFactory } from './program.js';

export type RegisterArea = (program: Command, action: ActionFactory) => void;

export const AREAS: readonly RegisterArea[] = [];
